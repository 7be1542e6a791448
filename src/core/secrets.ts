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

/**
 * HMAC-SHA256 signatures (base64url); verification in constant time. Signs with the first key and also
 * accepts signatures of the others (keys derived from older secret keys, during a key rotation).
 */
export class Signer {
  private readonly keys: Buffer[];

  constructor(key: Buffer, ...previous: Buffer[]) {
    this.keys = [key, ...previous];
  }

  sign(payload: string): string {
    return this.signWith(this.keys[0]!, payload);
  }

  verify(payload: string, signature: string): boolean {
    const given = Buffer.from(signature, 'base64url');
    return this.keys.some((key) => {
      const expected = Buffer.from(this.signWith(key, payload), 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  private signWith(key: Buffer, payload: string): string {
    return createHmac('sha256', key).update(payload, 'utf8').digest('base64url');
  }
}

/** A ciphertext names a key the keyring does not hold: the key was removed from the list too early. */
export class UnknownKeyError extends Error {
  constructor(
    readonly keyId: string,
    known: string[],
  ) {
    super(
      `a stored value was encrypted with key ${keyId}, which is not among the configured keys (${known.join(', ')}): ` +
        'add that key back to OMNIPORT_SECRET_KEYS (after the newest) and run `omniport keys rotate` before removing it',
    );
  }
}

/** The id a ciphertext carries: the first 6 bytes of the key's SHA-256, in hex (it reveals nothing of the key). */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** Parses one key: 64 hex characters or base64 of 32 bytes. */
function parseKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new Error('every secret key must be 32 bytes, given as 64 hex characters or base64 (openssl rand -hex 32)');
  }
  return key;
}

/**
 * AES-256-GCM with a fresh 96-bit IV per value, over a keyring (newest key first). Values are written
 * under the newest key as `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), so a value finds its
 * key after a rotation. Values written before key ids existed (`v1.<iv>.<tag>.<ciphertext>`) are tried
 * with each key, oldest first; GCM's tag tells the right one.
 */
export class SecretBox {
  private readonly keys: { id: string; key: Buffer }[];

  /** `keys`: one key, or several, newest first. */
  constructor(keys: Buffer | Buffer[]) {
    const list = Array.isArray(keys) ? keys : [keys];
    if (list.length === 0) throw new Error('at least one encryption key is needed');
    for (const key of list) if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
    this.keys = list.map((key) => ({ id: keyIdOf(key), key }));
    if (new Set(this.keys.map((k) => k.id)).size !== this.keys.length) throw new Error('the same secret key is listed twice');
  }

  /** Accepts keys separated by commas or white space (newest first), each 64 hex characters or base64 of 32 bytes. */
  static fromString(value: string): SecretBox {
    const parts = value.split(/[\s,]+/).filter(Boolean);
    if (parts.length === 0) throw new Error('no secret key given (openssl rand -hex 32)');
    return new SecretBox(parts.map(parseKey));
  }

  /** Ids of the keys, newest first. */
  get keyIds(): string[] {
    return this.keys.map((k) => k.id);
  }

  /** The key new values are encrypted with. */
  get currentKeyId(): string {
    return this.keys[0]!.id;
  }

  /** Whether a stored value is already under the newest key (key rotation skips it). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2.${this.currentKeyId}.`);
  }

  encrypt(plaintext: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', id, ...[iv, cipher.getAuthTag(), ciphertext].map((p) => p.toString('base64url'))].join('.');
  }

  decrypt(sealed: string): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const [, id, iv, tag, ciphertext] = parts as [string, string, string, string, string];
      const entry = this.keys.find((k) => k.id === id);
      if (!entry) throw new UnknownKeyError(id, this.keyIds);
      return open(entry.key, iv, tag, ciphertext);
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      const [, iv, tag, ciphertext] = parts as [string, string, string, string];
      for (const { key } of [...this.keys].reverse()) {
        try {
          return open(key, iv, tag, ciphertext);
        } catch {
          // Not this key: GCM refused the tag.
        }
      }
      throw new Error(`a stored value (written before key ids) decrypts with none of the configured keys (${this.keyIds.join(', ')})`);
    }
    throw new Error('unknown ciphertext format');
  }

  /**
   * A key for another purpose (signing OAuth `state`, …), derived from the newest encryption key with
   * HKDF-SHA256: one secret to configure, and a signature key that never doubles as the encryption key.
   */
  deriveKey(purpose: string): Buffer {
    return derive(this.keys[0]!.key, purpose);
  }

  /** Signs with the newest key's derived key, and accepts the older keys' (a state signed before a restart with a new key). */
  signer(purpose: string): Signer {
    const [newest, ...older] = this.keys.map((k) => derive(k.key, purpose));
    return new Signer(newest!, ...older);
  }

  encryptJson(value: unknown): string {
    return this.encrypt(JSON.stringify(value));
  }

  decryptJson<T = unknown>(sealed: string): T {
    return JSON.parse(this.decrypt(sealed)) as T;
  }
}

function open(key: Buffer, iv: string, tag: string, ciphertext: string): string {
  // A full 16-byte tag only: GCM would otherwise accept a truncated one.
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

function derive(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `omniport:${purpose}`, 32));
}
