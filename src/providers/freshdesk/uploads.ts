/**
 * multipart/form-data bodies for writes with attachments: Freshdesk takes files only that way, as
 * `attachments[]` parts beside the other fields (API v2 → Create a ticket with attachments, Reply to a
 * ticket). Built with the platform's FormData, serialised by the Fetch API's Response.
 */
import type { FileUpload } from '../types';

export async function multipartBody(fields: Record<string, string | number | boolean>, files: FileUpload[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  for (const f of files) form.append('attachments[]', new Blob([f.content], { type: f.contentType || 'application/octet-stream' }), f.fileName || 'file');
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}
