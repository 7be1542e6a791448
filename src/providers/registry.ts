import type { ProviderManifest } from './manifest';

/** Every provider Omniport can connect to. Each provider issue adds its manifest here. */
export class ProviderRegistry {
  private readonly byName = new Map<string, ProviderManifest>();

  constructor(manifests: ProviderManifest[]) {
    for (const m of manifests) this.byName.set(m.name, m);
  }

  get(name: string): ProviderManifest | undefined {
    return this.byName.get(name);
  }

  list(): ProviderManifest[] {
    return [...this.byName.values()];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

export function defaultProviders(): ProviderManifest[] {
  return [];
}
