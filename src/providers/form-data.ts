/**
 * multipart/form-data bodies for providers that take files only that way (Freshdesk's `attachments[]`,
 * Asana's `file`): fields first, then each file under its part name. Built with the platform's FormData,
 * serialised by the Fetch API's Response.
 */
import type { FileUpload } from './types';

export async function formDataBody(fields: Record<string, string | number | boolean>, files: Array<{ part: string; file: FileUpload }>): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  for (const { part, file } of files) form.append(part, new Blob([file.content], { type: file.contentType || 'application/octet-stream' }), file.fileName || 'file');
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}
