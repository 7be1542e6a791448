/**
 * multipart/form-data as Front takes it on comments and messages with attachments: fields named with
 * brackets (`comment[body]`, `to[0]`, `options[archive]`, `attachments[0]`) become a nested object,
 * file parts become {@link SimFile}s. The shared HTTP kit hands bodies over as UTF-8 text, so file bytes
 * survive for text files (binary content is decoded lossily).
 */
import type { SimFile } from './state';

export function boundaryOf(contentType: string | string[] | undefined): string | undefined {
  const ct = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!ct || !/^multipart\/form-data/i.test(ct)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(ct);
  return m?.[1] ?? m?.[2];
}

export interface FormPart {
  name: string;
  value: string | SimFile;
}

export function parseMultipart(raw: string, boundary: string): FormPart[] {
  const parts: FormPart[] = [];
  const delimiter = `--${boundary}`;
  for (const chunk of raw.split(delimiter).slice(1)) {
    if (chunk.startsWith('--')) break;
    const body = chunk.replace(/^\r\n/, '').replace(/\r\n$/, '');
    const sep = body.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const head = body.slice(0, sep);
    const content = body.slice(sep + 4);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) continue;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined) {
      const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
      parts.push({ name, value: { filename, contentType, content: Buffer.from(content, 'utf8') } });
    } else parts.push({ name, value: content });
  }
  return parts;
}

/** Bracketed names → nested objects and arrays (`a[b][0]` → `{a: {b: [v]}}`). */
export function nestForm(parts: FormPart[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { name, value } of parts) {
    const keys = name.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    keys.forEach((k, i) => {
      const last = i === keys.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(keys[i + 1]!);
      const key: string | number = Array.isArray(node) ? (k === '' ? node.length : Number(k)) : k;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] = value;
      else {
        if (container[key] === undefined) container[key] = nextIsIndex ? [] : {};
        node = container[key] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

/** Files anywhere in a nested form, in order, and the form with each file replaced by its name (for validation). */
export function splitFiles(form: unknown): { files: SimFile[]; plain: unknown } {
  const files: SimFile[] = [];
  const walk = (v: unknown): unknown => {
    if (v && typeof v === 'object' && Buffer.isBuffer((v as SimFile).content)) {
      files.push(v as SimFile);
      return (v as SimFile).filename;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { plain: walk(form), files };
}
