import type { ProviderManifest } from './manifest';
import type { ProviderAdapter } from './types';
import { generatedProviders } from './registry.generated';

/** Every provider Omniport can connect to: a provider folder is listed by `npm run providers:generate`. */
export class ProviderRegistry {
  private readonly byName = new Map<string, ProviderAdapter>();

  constructor(adapters: ProviderAdapter[]) {
    for (const a of adapters) this.byName.set(a.manifest.name, a);
  }

  get(name: string): ProviderManifest | undefined {
    return this.byName.get(name)?.manifest;
  }

  adapter(name: string): ProviderAdapter | undefined {
    return this.byName.get(name);
  }

  list(): ProviderManifest[] {
    return [...this.byName.values()].map((a) => a.manifest);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/** The adapters of every provider folder (src/providers/registry.generated.ts), sorted by name. */
export function defaultProviders(): ProviderAdapter[] {
  return [...generatedProviders];
}
