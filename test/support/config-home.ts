import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The embedded mode keeps its generated key under the user's configuration directory ($XDG_CONFIG_HOME):
 * tests, and the processes they start, use a temporary one, never the real home directory.
 */
export default function setup() {
  const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-config-'));
  process.env.XDG_CONFIG_HOME = configHome;
  return () => fs.rmSync(configHome, { recursive: true, force: true });
}
