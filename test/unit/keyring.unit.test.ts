import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, Signer, UnknownKeyError, keyIdOf } from '../../src/core/secrets';

/** A value as versions before key ids wrote it: `v1.<iv>.<tag>.<ciphertext>`. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

describe('the keyring (OMNIPORT_SECRET_KEYS)', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const oldBox = new SecretBox(oldKey);
  const both = SecretBox.fromString(`${newKey.toString('hex')}, ${oldKey.toString('base64')}`);

  it('tags every value with the id of the newest key, derived from the key', () => {
    expect(keyIdOf(newKey)).toMatch(/^[0-9a-f]{12}$/);
    expect(both.keyIds).toEqual([keyIdOf(newKey), keyIdOf(oldKey)]);
    expect(both.currentKeyId).toBe(keyIdOf(newKey));
    const sealed = both.encrypt('secret');
    expect(sealed.startsWith(`v2.${keyIdOf(newKey)}.`)).toBe(true);
    expect(both.isCurrent(sealed)).toBe(true);
    expect(new SecretBox(newKey).decrypt(sealed)).toBe('secret');
    expect(() => oldBox.decrypt(sealed)).toThrow(UnknownKeyError);
  });

  it('decrypts each tagged value with its own key', () => {
    const underOld = oldBox.encrypt('old secret');
    expect(both.isCurrent(underOld)).toBe(false);
    expect(both.decrypt(underOld)).toBe('old secret');
    expect(both.decryptJson(oldBox.encryptJson({ a: 1 }))).toEqual({ a: 1 });
  });

  it('decrypts values written before key ids with whichever configured key fits (the single or oldest one)', () => {
    expect(oldBox.decrypt(sealV1(oldKey, 'legacy'))).toBe('legacy');
    expect(both.decrypt(sealV1(oldKey, 'legacy'))).toBe('legacy');
    expect(both.decrypt(sealV1(newKey, 'legacy too'))).toBe('legacy too');
    expect(both.isCurrent(sealV1(newKey, 'x'))).toBe(false);
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealV1(oldKey, 'legacy'))).toThrow(/none of the configured keys/);
  });

  it('names an unknown key id in a clear error', () => {
    const sealed = oldBox.encrypt('x');
    const onlyNew = new SecretBox(newKey);
    expect(() => onlyNew.decrypt(sealed)).toThrow(UnknownKeyError);
    expect(() => onlyNew.decrypt(sealed)).toThrow(new RegExp(`encrypted with key ${keyIdOf(oldKey)}, which is not among the configured keys \\(${keyIdOf(newKey)}\\)`));
  });

  it('refuses a tampered key id, a truncated tag, and malformed key lists', () => {
    const parts = both.encrypt('x').split('.');
    expect(() => both.decrypt(['v2', keyIdOf(oldKey), ...parts.slice(2)].join('.'))).toThrow();
    const truncated = [...parts.slice(0, 3), Buffer.from(parts[3]!, 'base64url').subarray(0, 4).toString('base64url'), parts[4]].join('.');
    expect(() => both.decrypt(truncated)).toThrow();
    expect(() => SecretBox.fromString(' , ')).toThrow(/no secret key/);
    expect(() => SecretBox.fromString(`${newKey.toString('hex')},short`)).toThrow(/32 bytes/);
    expect(() => SecretBox.fromString(`${newKey.toString('hex')},${newKey.toString('base64')}`)).toThrow(/twice/);
  });

  it('signs with the newest key and still accepts signatures made with an older one', () => {
    const before = oldBox.signer('state').sign('payload');
    expect(both.signer('state').verify('payload', before)).toBe(true);
    expect(both.signer('state').sign('payload')).toBe(new SecretBox(newKey).signer('state').sign('payload'));
    expect(new SecretBox(newKey).signer('state').verify('payload', before)).toBe(false);
    expect(both.signer('other').verify('payload', before)).toBe(false);
    expect(new Signer(randomBytes(32)).verify('payload', 'short')).toBe(false);
  });
});
