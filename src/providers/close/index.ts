/**
 * Close adapter (REST API v1): manifest, HTTP profile, syncers, CRM writes and custom fields. Mapping
 * tables and behaviour: docs/providers/close.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, FieldDefinitions, bodyOf, resolveOptions, type CloseAdapterOptions } from './api';
import { closeCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { closeHttpProfile } from './http';
import { closeManifest } from './manifest';
import { closeSyncers } from './sync';
import { closeWebhooks } from './webhooks';

export { closeManifest } from './manifest';
export { closeHttpProfile, closeAuthHeaders, closeErrorMessage } from './http';
export type { CloseAdapterOptions } from './api';

/** One cheap call: the user the key acts as. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  bodyOf(await ctx.http.get<{ id?: string }>(`${API}/me/`), 'user');
}

/** An adapter with its own page size and cache time (tests and benchmarks); `closeAdapter` uses the defaults. */
export function createCloseAdapter(options: CloseAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const defs = new FieldDefinitions(o);
  return {
    manifest: closeManifest,
    http: closeHttpProfile,
    verifyCredentials,
    syncers: closeSyncers(o),
    crm: closeCrmOperations(defs),
    customFields: customFieldSupport(defs),
    webhooks: closeWebhooks,
  };
}

export const closeAdapter: ProviderAdapter = createCloseAdapter();
