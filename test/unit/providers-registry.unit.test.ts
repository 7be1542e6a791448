import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerFolders, registryFile, registrySource } from '../../scripts/providers-generate';
import { defaultProviders } from '../../src/providers/registry';

describe('the provider registry generated from the folders', () => {
  it('is what `npm run providers:generate` produces from src/providers', () => {
    expect(fs.readFileSync(registryFile, 'utf8') === registrySource(), 'src/providers/registry.generated.ts is stale: run npm run providers:generate').toBe(true);
  });

  it('lists every provider folder once, by its manifest name, and no shared folder', () => {
    const folders = providerFolders().map((p) => p.folder);
    expect(folders).not.toContain('kit');
    expect(folders.length).toBeGreaterThanOrEqual(21);
    const names = defaultProviders().map((a) => a.manifest.name);
    expect(names).toEqual(folders);
    expect(new Set(names).size).toBe(names.length);
  });

  it('takes a new folder exporting an adapter and leaves out one that does not', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-providers-'));
    try {
      fs.mkdirSync(path.join(dir, 'acme'));
      fs.writeFileSync(path.join(dir, 'acme', 'index.ts'), 'export const acmeAdapter: ProviderAdapter = createAcmeAdapter();\n');
      fs.mkdirSync(path.join(dir, 'kit'));
      fs.writeFileSync(path.join(dir, 'kit', 'index.ts'), "export * from './values';\n");
      fs.mkdirSync(path.join(dir, 'no-index'));
      expect(providerFolders(dir)).toEqual([{ folder: 'acme', adapter: 'acmeAdapter' }]);
      expect(registrySource(providerFolders(dir))).toContain("import { acmeAdapter } from './acme';");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
