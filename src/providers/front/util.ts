import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors';
import type { FileUpload } from '../types';
import { fromEpochSeconds, unsupportedBy } from '../kit';
export { asRecord, escapeHtml, fromEpochSeconds, htmlToText, nonEmpty, textToHtml } from '../kit';

export const PROVIDER = 'front';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);

/** ISO 8601 text of a Front timestamp (Unix seconds, up to three decimals); null when absent. */
export const secondsIso = (v: unknown): string | null => fromEpochSeconds(v)?.toISOString() ?? null;

/** An ISO 8601 date-time as Front's Unix seconds (three decimals at most). */
export function toSeconds(d: Date | string): number {
  const ms = typeof d === 'string' ? Date.parse(d) : d.getTime();
  return Math.floor(ms) / 1000;
}

/**
 * A remote id we were given, checked before it goes into a path. Front ids are prefixed tokens
 * (`cnv_…`, `tea_…`, `inb_…`, `crd_…`); a prefix, when given, must match.
 */
export function frId(remoteId: string, field: string, prefix?: string): string {
  const s = String(remoteId).trim();
  if (!/^[A-Za-z0-9_:.@+-]{1,200}$/.test(s) || (prefix && !s.startsWith(`${prefix}_`))) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Front ${prefix ? `${prefix}_ ` : ''}id`, { field });
  }
  return s;
}

/** Path segment of an id (ids can be resource aliases such as `alt:uid:…`). */
export const seg = (id: string) => encodeURIComponent(id);

/** The last path segment of a Front resource link (`…/contacts/crd_123` → `crd_123`) under `collection`. */
export function idFromLink(link: unknown, collection: string): string | null {
  if (typeof link !== 'string' || link === '') return null;
  const m = new RegExp(`/${collection}/([^/?#]+)`).exec(link);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

export type FormValue = string | number | boolean | FileUpload;

/**
 * A `multipart/form-data` body, the way Front takes files: nested fields in brackets
 * (`comment[body]`, `to[0]`, `attachments[0]`), one part per file.
 */
export function multipartBody(fields: Array<[string, FormValue]>): { body: Buffer; contentType: string } {
  const boundary = `----omniport${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const quote = (s: string) => s.replace(/[\r\n"\\]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ' '));
  for (const [name, value] of fields) {
    if (typeof value === 'object') {
      const type = value.contentType || 'application/octet-stream';
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"; filename="${quote(value.fileName)}"\r\nContent-Type: ${type}\r\n\r\n`,
          'utf8',
        ),
        value.content,
        Buffer.from('\r\n', 'utf8'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${String(value)}\r\n`, 'utf8'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A JSON body flattened to form fields (`{comment: {body}}` → `comment[body]`, arrays indexed). */
export function formFields(value: Record<string, unknown>, prefix = ''): Array<[string, FormValue]> {
  const out: Array<[string, FormValue]> = [];
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (item && typeof item === 'object' && !isFile(item)) out.push(...formFields(item as Record<string, unknown>, `${key}[${i}]`));
        else out.push([`${key}[${i}]`, item as FormValue]);
      });
    } else if (typeof v === 'object' && !isFile(v)) out.push(...formFields(v as Record<string, unknown>, key));
    else out.push([key, v as FormValue]);
  }
  return out;
}

const isFile = (v: unknown): v is FileUpload => !!v && typeof v === 'object' && Buffer.isBuffer((v as FileUpload).content);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
