/** The JWT check of Jira's dynamic webhooks (src/providers/webhook-signatures.ts): HS256 only, signature, expiry. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifiedHs256Jwt } from '../../src/providers/webhook-signatures';

const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
function jwt(header: object, claims: object, secret: string): string {
  const unsigned = `${enc(header)}.${enc(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('verifiedHs256Jwt', () => {
  const now = Date.now();
  const iat = Math.floor(now / 1000);
  const good = { alg: 'HS256', typ: 'JWT' };

  it('answers the claims of a token signed with the secret', () => {
    expect(verifiedHs256Jwt(jwt(good, { iat, exp: iat + 60 }, 's3cret'), 's3cret', now)).toEqual({ iat, exp: iat + 60 });
  });

  it('refuses another secret, a changed claim, an expired token, and malformed input', () => {
    expect(verifiedHs256Jwt(jwt(good, { iat }, 'other'), 's3cret', now)).toBeNull();
    const [h, , sig] = jwt(good, { iat }, 's3cret').split('.');
    expect(verifiedHs256Jwt(`${h}.${enc({ iat: iat + 999 })}.${sig}`, 's3cret', now)).toBeNull();
    expect(verifiedHs256Jwt(jwt(good, { iat: iat - 600, exp: iat - 1 }, 's3cret'), 's3cret', now)).toBeNull();
    for (const bad of [undefined, '', 'a.b', 'a.b.c.d', '!!.??.**']) expect(verifiedHs256Jwt(bad, 's3cret', now)).toBeNull();
  });

  it('refuses every algorithm but HS256 (no "none", no confusion with another HMAC)', () => {
    const claims = enc({ iat });
    expect(verifiedHs256Jwt(`${enc({ alg: 'none' })}.${claims}.`, 's3cret', now)).toBeNull();
    const unsigned = `${enc({ alg: 'HS512' })}.${claims}`;
    expect(verifiedHs256Jwt(`${unsigned}.${createHmac('sha256', 's3cret').update(unsigned).digest('base64url')}`, 's3cret', now)).toBeNull();
  });
});
