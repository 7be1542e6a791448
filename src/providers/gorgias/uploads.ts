/**
 * Attachments: Gorgias hosts files uploaded through `POST /api/upload` (multipart/form-data, one part per
 * file; the part's name is the file's label) and answers `201 [{url, name, size, content_type}]`; a
 * message then lists those objects in `attachments`. `type=attachment` keeps the files private (only
 * the account's users can download them), as for files agents attach in the helpdesk.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors';
import type { AdapterContext, FileUpload } from '../types';
import type { GgFile } from './types';
import { PROVIDER } from './util';

/** A value inside `name="…"`: quotes and line breaks cannot appear in it. */
const quoted = (s: string) => s.replace(/[\r\n]/g, ' ').replace(/"/g, '%22').replace(/\\/g, '\\\\');

/** One multipart/form-data body with every file as its own part, named by its file name. */
export function uploadBody(files: FileUpload[], boundary = `----omniport${randomBytes(12).toString('hex')}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const f of files) {
    const name = quoted(f.fileName || 'file');
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}"\r\nContent-Type: ${f.contentType || 'application/octet-stream'}\r\n\r\n`, 'utf8'),
      f.content,
      Buffer.from('\r\n', 'utf8'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads the files in one call; the answer lists them in order. */
export async function uploadFiles(ctx: AdapterContext, files: FileUpload[]): Promise<GgFile[]> {
  if (files.length === 0) return [];
  const { body, contentType } = uploadBody(files);
  const res = await ctx.http.post<GgFile[] | { data?: GgFile[] }>('/api/upload', { query: { type: 'attachment' }, body, headers: { 'content-type': contentType } });
  const uploaded = Array.isArray(res.data) ? res.data : Array.isArray(res.data?.data) ? res.data.data : [];
  if (uploaded.length !== files.length || uploaded.some((f) => !f || typeof f.url !== 'string')) {
    throw new AppError('provider_error', `Gorgias accepted ${files.length} file(s) but answered ${uploaded.length} uploaded file(s)`, { provider: PROVIDER });
  }
  return uploaded;
}
