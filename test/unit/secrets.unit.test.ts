import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, SecretBox, newApiKey, newConnectionToken, randomBase62, sha256Hex } from '../../src/core/secrets';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips text and JSON', () => {
    expect(box.decrypt(box.encrypt('héllo'))).toBe('héllo');
    expect(box.decryptJson(box.encryptJson({ a: 1, b: ['x'] }))).toEqual({ a: 1, b: ['x'] });
  });

  it('uses a fresh IV for every value', () => {
    const a = box.encrypt('same');
    const b = box.encrypt('same');
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]); // v2.<key id>.<iv>.<tag>.<ciphertext>
  });

  it('detects tampering and the wrong key', () => {
    const sealed = box.encrypt('secret');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4]!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.decrypt([...parts.slice(0, 4), flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => box.decrypt('v0.a.b.c')).toThrow(/format/);
  });

  it('accepts hex or base64 keys of 32 bytes only', () => {
    const key = randomBytes(32);
    expect(SecretBox.fromString(key.toString('hex')).decrypt(new SecretBox(key).encrypt('x'))).toBe('x');
    expect(SecretBox.fromString(key.toString('base64')).decrypt(new SecretBox(key).encrypt('x'))).toBe('x');
    expect(() => SecretBox.fromString('short')).toThrow(/32 bytes/);
  });
});

describe('keys and tokens', () => {
  it('carry at least 32 random bytes in base62', () => {
    expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{43}$/);
    const key = newApiKey('live');
    expect(key).toMatch(API_KEY_PATTERN);
    expect(key.startsWith('sk_live_')).toBe(true);
    expect(newConnectionToken()).toMatch(/^ct_[0-9A-Za-z]{43}$/);
    expect(new Set(Array.from({ length: 1000 }, () => randomBase62(8))).size).toBe(1000);
  });

  it('hashes with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
