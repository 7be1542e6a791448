import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string carrying at least `bytes` bytes of entropy (rejection sampling, no modulo bias). */
export function randomBase62(bytes = 32): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export const API_KEY_PATTERN = /^sk_[a-z]+_[A-Za-z0-9]{32,}$/;

export function newApiKey(env: string): string {
  return `sk_${env}_${randomBase62(32)}`;
}

export function newConnectionToken(): string {
  return `ct_${randomBase62(32)}`;
}

/** The secret in a magic link's URL; only its SHA-256 is stored. */
export function newMagicLinkToken(): string {
  return `ml_${randomBase62(32)}`;
}

/** HMAC-SHA256 signatures (base64url) with a key of its own; verification in constant time. */
export class Signer {
  constructor(private readonly key: Buffer) {}

  sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload, 'utf8').digest('base64url');
  }

  verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * AES-256-GCM with a fresh 96-bit IV per value; the output is self-describing
 * (`v1.<iv>.<tag>.<ciphertext>`, base64url) so the format can evolve.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
    this.key = key;
  }

  /** Accepts 64 hex characters or base64 of 32 bytes. */
  static fromString(value: string): SecretBox {
    const trimmed = value.trim();
    const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
    if (key.length !== 32) {
      throw new Error('OMNIPORT_SECRET_KEY must be 32 bytes, given as 64 hex characters or base64 (openssl rand -hex 32)');
    }
    return new SecretBox(key);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * A key for another purpose (signing OAuth `state`, …), derived from the encryption key with HKDF-SHA256:
   * one secret to configure, and a signature key that never doubles as the encryption key.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `omniport:${purpose}`, 32));
  }

  signer(purpose: string): Signer {
    return new Signer(this.deriveKey(purpose));
  }

  encryptJson(value: unknown): string {
    return this.encrypt(JSON.stringify(value));
  }

  decryptJson<T = unknown>(sealed: string): T {
    return JSON.parse(this.decrypt(sealed)) as T;
  }
}
