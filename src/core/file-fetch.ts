import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { AppError } from './errors';
import { isPublicAddress } from './network';
import type { FileUpload } from '../providers/types';

const MAX_BYTES = 25 * 1024 * 1024;

/** Refuses to connect to loopback, private, link-local … addresses: checked on the address actually dialled. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) {
      return callback(Object.assign(new Error(`address of ${hostname} is not public`), { code: 'EPRIVATE' }), '', 4);
    }
    const first = list[0]!;
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, first.address, first.family);
  });
};

/** Downloads attachments given by URL, and decodes data: URLs. */
export class FileFetcher {
  private readonly agent: Agent;

  constructor(allowPrivateAddresses: boolean) {
    this.agent = new Agent(allowPrivateAddresses ? {} : { connect: { lookup: publicOnlyLookup } });
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
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      const reason = code === 'EPRIVATE' ? 'private and loopback addresses are refused' : `could not download (${code ?? 'error'})`;
      throw new AppError('unprocessable', `${field}: ${reason}`, { field });
    }
  }

  close() {
    return this.agent.close();
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
