/**
 * multipart/form-data bodies for writes with attachments: Freshdesk takes files only that way, as
 * `attachments[]` parts beside the other fields (API v2 → Create a ticket with attachments, Reply to a
 * ticket).
 */
import { formDataBody } from '../form-data';
import type { FileUpload } from '../types';

export function multipartBody(fields: Record<string, string | number | boolean>, files: FileUpload[]): Promise<{ body: Buffer; contentType: string }> {
  return formDataBody(fields, files.map((file) => ({ part: 'attachments[]', file })));
}
