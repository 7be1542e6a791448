import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config';
import { SecretBox } from './secrets';

/**
 * The key that encrypts credentials: OMNIPORT_SECRET_KEY, or in embedded mode a key file
 * generated next to the data (0600). A server database needs an explicit key so every
 * process of a deployment shares it.
 */
export function loadSecretBox(config: Config): SecretBox {
  if (config.secretKey) {
    try {
      return SecretBox.fromString(config.secretKey);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  if (config.databaseUrl) {
    throw new ConfigError(
      'OMNIPORT_SECRET_KEY is required with DATABASE_URL (every process must share it): set it to the output of `openssl rand -hex 32`.',
    );
  }
  const keyFile = path.join(config.dataDir, 'secret.key');
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(keyFile)) {
    try {
      fs.writeFileSync(keyFile, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const mode = fs.statSync(keyFile).mode & 0o777;
  if (mode & 0o077) throw new ConfigError(`${keyFile} is readable by other users (mode ${mode.toString(8)}); run chmod 600 on it.`);
  return SecretBox.fromString(fs.readFileSync(keyFile, 'utf8'));
}
