/**
 * multipart/form-data as `POST /api/upload` takes it: every part is a file, and the part's name is the
 * file's label (Gorgias: "the name of this parameter can be replaced with the label you want the file
 * to have once uploaded"). The shared HTTP kit hands bodies over as UTF-8 text, so text files survive
 * byte for byte and binary content is decoded lossily — enough for tests.
 */
export interface FilePart {
  /** The part's name (the label). */
  name: string;
  filename: string | null;
  contentType: string;
  content: Buffer;
}

export function boundaryOf(contentType: string | string[] | undefined): string | undefined {
  const ct = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!ct || !/^multipart\/form-data/i.test(ct)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(ct);
  return m?.[1] ?? m?.[2];
}

export function parseMultipart(raw: string, boundary: string): FilePart[] {
  const parts: FilePart[] = [];
  for (const chunk of raw.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const body = chunk.replace(/^\r\n/, '').replace(/\r\n$/, '');
    const sep = body.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const head = body.slice(0, sep);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) continue;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    parts.push({ name, filename, contentType, content: Buffer.from(body.slice(sep + 4), 'utf8') });
  }
  return parts;
}
