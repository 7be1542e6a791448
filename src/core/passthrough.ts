import type { Dispatcher } from 'undici';
import { AppError } from './errors';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow } from '../store/control-plane.repo';
import { ProviderError } from '../providers/http-client';

export type PassthroughMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PassthroughRequest {
  method: PassthroughMethod;
  /** Relative to the connection's base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

export interface PassthroughAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Headers a caller may not set: the connection's credentials and the transport are Omniport's. */
const REFUSED_REQUEST_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'x-api-key',
  'x-connection-token',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Headers of the provider's answer not handed back: hop-by-hop, and anything that carries a credential. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'set-cookie',
  'authorization',
  'www-authenticate',
  'content-length',
  'content-encoding',
]);

/**
 * Passthrough: one call to the connection's provider for what the unified model lacks. The path stays
 * under the provider's base URL (no scheme, host, `..` or encoded escapes), the credentials are the
 * connection's own (renewed as needed), and the call goes through the shared client, so rate limits,
 * the address policy and the exactly-once rules for writes apply as to any other call.
 */
export class PassthroughService {
  constructor(private readonly contexts: ProviderContexts) {}

  async send(connection: ConnectionRow, req: PassthroughRequest): Promise<PassthroughAnswer> {
    checkPath(req.path);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      const key = name.toLowerCase();
      if (REFUSED_REQUEST_HEADERS.has(key) || key.startsWith('proxy-')) {
        throw new AppError('validation_failed', `headers.${name}: this header is set by Omniport and cannot be overridden`, { field: `headers.${name}` });
      }
      if (/[\r\n\0]/.test(value)) throw new AppError('validation_failed', `headers.${name}: control characters are not allowed`, { field: `headers.${name}` });
      headers[key] = value;
    }
    const { ctx } = this.contexts.forConnection(connection);
    try {
      const res = await ctx.http.request<unknown>(req.method as Dispatcher.HttpMethod, req.path, {
        query: req.query,
        headers,
        ...(req.body !== undefined ? { json: req.body } : {}),
      });
      return { status: res.status, headers: answerHeaders(res.headers), body: res.data ?? null };
    } catch (err) {
      // The provider answered (4xx, or a 5xx to a read): that answer is the result, as it came.
      if (err instanceof ProviderError) return { status: err.providerStatus, headers: answerHeaders(err.providerHeaders), body: err.providerBody ?? null };
      throw err;
    }
  }
}

/** A relative path that cannot leave the provider's base URL. */
function checkPath(path: string): void {
  const refuse = (why: string) => new AppError('validation_failed', `path: ${why}`, { field: 'path' });
  if (!path.startsWith('/') || path.startsWith('//')) throw refuse('must be a relative path starting with a single /');
  if (/[\\\r\n\0?#]/.test(path)) throw refuse('must not contain \\, control characters, ? or # (send query parameters in `query`)');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw refuse('is not validly percent-encoded');
  }
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) throw refuse('must not contain . or .. segments');
  if (/[\\/]{2}|\\/.test(decoded.slice(1)) || /^[a-z][a-z0-9+.-]*:/i.test(decoded.slice(1))) throw refuse('must stay under the provider’s base URL');
}

function answerHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!DROPPED_RESPONSE_HEADERS.has(name)) out[name] = value;
  return out;
}
