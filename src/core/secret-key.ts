import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config';
import { SecretBox } from './secrets';

/** Where the embedded mode kept its key before: inside the data directory. */
const LEGACY_KEY_FILE = 'secret.key';

export interface LoadedKeys {
  box: SecretBox;
  /** The key file used (embedded mode without keys in the environment). */
  keyFile?: string;
  /** The key file was created just now: an existing database it cannot read means the real key is elsewhere. */
  generated: boolean;
}

/**
 * The keys that encrypt credentials: OMNIPORT_SECRET_KEYS (or OMNIPORT_SECRET_KEY), or in embedded mode a
 * key file generated outside the data directory (OMNIPORT_SECRET_KEY_FILE, 0600), so that a backup of the
 * data holds no key. A key file left in the data directory by an older version is moved there, once.
 * A server database needs explicit keys so every process of a deployment shares them.
 */
export function loadSecretKeys(config: Config, warn: (message: string) => void = (m) => console.warn(`omniport: ${m}`)): LoadedKeys {
  if (config.secretKeys) return { box: parse(config.secretKeys, 'OMNIPORT_SECRET_KEYS'), generated: false };
  if (config.databaseUrl) {
    throw new ConfigError(
      'OMNIPORT_SECRET_KEYS (or OMNIPORT_SECRET_KEY) is required with DATABASE_URL (every process must share it): set it to the output of `openssl rand -hex 32`.',
    );
  }
  const keyFile = config.secretKeyFile;
  const legacy = path.join(config.dataDir, LEGACY_KEY_FILE);
  let generated = false;
  try {
    if (legacy !== keyFile && fs.existsSync(legacy)) {
      moveLegacyKeyFile(legacy, keyFile, warn);
    } else if (!fs.existsSync(keyFile)) {
      fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(keyFile, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      generated = true;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Another process created it first: use theirs.
    if (code !== 'EEXIST') {
      if (err instanceof ConfigError || !code) throw err;
      throw new ConfigError(`cannot write the key file ${keyFile} (${code}): set OMNIPORT_SECRET_KEY_FILE to a writable place, or OMNIPORT_SECRET_KEYS.`);
    }
  }
  assertPrivate(keyFile);
  return { box: parse(fs.readFileSync(keyFile, 'utf8'), keyFile), keyFile, generated };
}

/**
 * Copies the key next to the other keys (never overwriting a different one), then removes it from the
 * data directory: from now on a backup of the data directory holds no key.
 */
function moveLegacyKeyFile(legacy: string, keyFile: string, warn: (message: string) => void): void {
  assertPrivate(legacy);
  const key = fs.readFileSync(legacy, 'utf8');
  if (fs.existsSync(keyFile)) {
    if (fs.readFileSync(keyFile, 'utf8').trim() !== key.trim()) {
      throw new ConfigError(
        `two different key files: ${legacy} (in the data directory, from an older version) and ${keyFile}. ` +
          'Keep the one that decrypts this data directory and delete the other (or list both in OMNIPORT_SECRET_KEYS and run `omniport keys rotate`).',
      );
    }
  } else {
    fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' });
  }
  fs.rmSync(legacy);
  warn(`moved the encryption key from ${legacy} to ${keyFile} (OMNIPORT_SECRET_KEY_FILE), out of the data directory: back it up separately from the data.`);
}

function assertPrivate(file: string): void {
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) throw new ConfigError(`${file} is readable by other users (mode ${mode.toString(8)}); run chmod 600 on it.`);
}

function parse(value: string, source: string): SecretBox {
  try {
    return SecretBox.fromString(value);
  } catch (err) {
    throw new ConfigError(`${source}: ${(err as Error).message}`);
  }
}
