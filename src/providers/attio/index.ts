/**
 * Attio adapter (REST API v2): manifest, HTTP profile, syncers, CRM writes and custom attributes. Mapping
 * tables and behaviour: docs/providers/attio.md.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, ProviderAdapter } from '../types';
import { Cache, resolveOptions, type AttioAdapterOptions } from './api';
import { attioCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { attioHttpProfile } from './http';
import { attioManifest } from './manifest';
import { attioSyncers } from './sync';
import { attioWebhooks } from './webhooks';

export { attioManifest } from './manifest';
export { attioHttpProfile } from './http';
export type { AttioAdapterOptions } from './api';

/** One cheap call: what the token is (`active` false when Attio no longer takes it). */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  const res = await ctx.http.get<{ active?: boolean }>('/v2/self');
  if (res.data?.active !== true) throw new ProviderError('attio', 401, 'the access token is not active', res.data);
}

export function createAttioAdapter(options: AttioAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const cache = new Cache(o.cacheMs);
  return {
    manifest: attioManifest,
    http: attioHttpProfile,
    verifyCredentials,
    syncers: attioSyncers(o, cache),
    crm: attioCrmOperations(cache),
    customFields: customFieldSupport(cache),
    webhooks: attioWebhooks(cache),
  };
}

export const attioAdapter: ProviderAdapter = createAttioAdapter();
