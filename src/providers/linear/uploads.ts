/**
 * Files for comments. Linear stores files in its own cloud storage: `fileUpload` answers a pre-signed
 * upload URL (plus headers the upload must carry) and the permanent asset URL; the file is PUT to the
 * upload URL (the signature is the credential, so no Linear token travels there), and the asset URL is
 * linked from the comment's Markdown, which is how Linear's own editor attaches files.
 */
import { AppError } from '../../core/errors';
import { ProviderHttpClient } from '../http-client';
import type { AdapterContext, FileUpload } from '../types';
import type { AssetLink } from './comment.mapper';
import { gql, type ResolvedOptions } from './graphql';
import { linearErrorMessage } from './http';
import { linearManifest } from './manifest';
import { FILE_UPLOAD } from './queries';
import type { LnUploadFile } from './types';

const PROVIDER = 'linear';

/** Where a pre-signed upload may go: HTTPS, or plain HTTP only when the connection itself is plain HTTP (a local simulator). */
function uploadTarget(ctx: AdapterContext, uploadUrl: string): URL {
  let url: URL;
  try {
    url = new URL(uploadUrl);
  } catch {
    throw new AppError('provider_error', 'Linear answered an upload URL that is not a URL', { provider: PROVIDER });
  }
  const plainAllowed = ctx.baseUrl.startsWith('http://');
  if (url.protocol !== 'https:' && !(plainAllowed && url.protocol === 'http:')) {
    throw new AppError('provider_error', 'Linear answered an upload URL that is not HTTPS', { provider: PROVIDER });
  }
  return url;
}

/** Uploads one file to Linear's storage and returns the link to put in the comment. */
export async function uploadFile(ctx: AdapterContext, o: ResolvedOptions, file: FileUpload): Promise<AssetLink> {
  const contentType = file.contentType || 'application/octet-stream';
  const data = await gql<{ fileUpload?: { success?: boolean; uploadFile?: LnUploadFile | null } }>(
    ctx,
    o,
    FILE_UPLOAD,
    { contentType, filename: file.fileName, size: file.content.length },
    { mutation: true },
  );
  const uf = data.fileUpload?.uploadFile;
  if (!data.fileUpload?.success || !uf?.uploadUrl || !uf.assetUrl) {
    throw new AppError('provider_error', `Linear did not give an upload URL for ${file.fileName}`, { provider: PROVIDER });
  }
  const target = uploadTarget(ctx, uf.uploadUrl);
  const storage = new ProviderHttpClient({
    manifest: linearManifest,
    connectionId: `${ctx.connectionId}:linear-uploads`,
    baseUrl: target.origin,
    authHeaders: () => ({}),
    errorMessage: linearErrorMessage,
    allowPrivateAddresses: ctx.http.allowsPrivateAddresses,
  });
  const headers: Record<string, string> = { 'content-type': contentType };
  for (const h of uf.headers ?? []) if (h && typeof h.key === 'string' && typeof h.value === 'string') headers[h.key.toLowerCase()] = h.value;
  try {
    await storage.put(target.href, { body: file.content, headers });
  } catch (err) {
    if (err instanceof AppError) {
      throw new AppError(err.code, `uploading ${file.fileName} to Linear's storage failed: ${err.message}`, { ...err.details, field: 'attachments' }, err.headers);
    }
    throw err;
  }
  return { name: file.fileName, url: uf.assetUrl, image: contentType.toLowerCase().startsWith('image/') };
}
