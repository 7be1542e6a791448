/** Helpers the providers' webhook verifiers share: HMACs and comparisons that take the same time either way. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmac(algorithm: 'sha256' | 'sha1', key: string | Buffer, data: Buffer | string, encoding: 'hex' | 'base64'): string {
  return createHmac(algorithm, key).update(data).digest(encoding);
}

/** Equal strings, compared in constant time (a length difference answers at once: lengths are not secret). */
export function safeEqual(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The headers of a request as one value each (a repeated header counts as forged by the verifiers). */
export const header = (headers: Record<string, string | undefined>, name: string): string | undefined => headers[name.toLowerCase()];

/** A signed time as providers send it: Unix seconds, Unix milliseconds or ISO 8601; NaN when unreadable. */
export function signedTime(value: string | number | undefined): number {
  if (value === undefined || value === '') return NaN;
  const text = String(value).trim();
  if (/^\d{1,11}$/.test(text)) return Number(text) * 1000;
  if (/^\d{12,14}$/.test(text)) return Number(text);
  return Date.parse(text);
}

/**
 * The claims of a JWT signed with HMAC-SHA256 (`alg: HS256` only: no `none`, no other algorithm) by `secret`,
 * or null when the signature does not match, the token is malformed or its `exp` (seconds) has passed.
 */
export function verifiedHs256Jwt(token: string | undefined, secret: string, nowMs = Date.now()): Record<string, unknown> | null {
  const parts = token?.split('.');
  if (!parts || parts.length !== 3) return null;
  const [head, body, signature] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return null;
    if (!safeEqual(signature, createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url'))) return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (!claims || typeof claims !== 'object') return null;
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) return null;
    return claims;
  } catch {
    return null;
  }
}
