import { request, type Agent } from 'undici';
import { AppError } from './errors';
import { assertReachableFromInternet, isBlockedAddress, outboundAgent } from './network';
import type { FileUpload } from '../providers/types';

const MAX_BYTES = 25 * 1024 * 1024;

/** Downloads attachments given by URL, and decodes data: URLs. */
export class FileFetcher {
  private readonly agent: Agent;

  constructor(private readonly allowPrivateAddresses: boolean) {
    this.agent = outboundAgent(allowPrivateAddresses);
  }

  /** Refuses a URL held for later (POST /ticketing/attachments) at once, not only when it is downloaded. */
  async checkUrl(url: string, field: string): Promise<void> {
    if (!this.allowPrivateAddresses) await assertReachableFromInternet(url, field);
  }

  async fetch(url: string, field: string, name?: string): Promise<FileUpload> {
    if (url.startsWith('data:')) return decodeDataUrl(url, field);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppError('unprocessable', `${field}: not an attachment id, a data: URL or an https: URL`, { field });
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new AppError('unprocessable', `${field}: only https: and data: URLs are accepted`, { field });
    }
    try {
      const res = await request(parsed, { dispatcher: this.agent, maxRedirections: 0, headersTimeout: 15_000, bodyTimeout: 30_000 } as never);
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new AppError('unprocessable', `${field}: downloading ${parsed.host} answered ${res.statusCode}`, { field });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BYTES) throw new AppError('payload_too_large', `${field}: the file is larger than ${MAX_BYTES} bytes`, { field });
        chunks.push(chunk as Buffer);
      }
      const header = res.headers['content-type'];
      return {
        fileName: name ?? (decodeURIComponent(parsed.pathname.split('/').pop() || '') || 'attachment'),
        contentType: (Array.isArray(header) ? header[0] : header) ?? 'application/octet-stream',
        content: Buffer.concat(chunks),
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      // No network detail in the answer (refused, reset, unreachable): it would map the network behind the URL.
      const reason = isBlockedAddress(err) ? 'private and loopback addresses are refused' : 'the file could not be downloaded';
      throw new AppError('unprocessable', `${field}: ${reason}`, { field });
    }
  }
}

function decodeDataUrl(url: string, field: string): FileUpload {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) throw new AppError('unprocessable', `${field}: malformed data: URL`, { field });
  const [, mime, params = '', payload = ''] = match;
  const isBase64 = params.split(';').includes('base64');
  const nameParam = params.split(';').find((p) => p.startsWith('name='));
  const content = isBase64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  if (content.length > MAX_BYTES) throw new AppError('payload_too_large', `${field}: the file is larger than ${MAX_BYTES} bytes`, { field });
  return {
    fileName: nameParam ? decodeURIComponent(nameParam.slice(5)) : 'attachment',
    contentType: mime || 'text/plain',
    content,
  };
}
