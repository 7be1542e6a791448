/**
 * Zoho CRM adapter (REST API v8): manifest, HTTP profile, syncers, CRM writes and custom fields. Mapping
 * tables and behaviour: docs/providers/zoho.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, FieldDefinitions, resolveOptions, type ZohoAdapterOptions } from './api';
import { zohoCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { zohoHttpProfile } from './http';
import { zohoManifest } from './manifest';
import { zohoSyncers } from './sync';

export { zohoManifest } from './manifest';
export { zohoHttpProfile, zohoAuthHeaders, zohoErrorMessage } from './http';
export type { ZohoAdapterOptions } from './api';

/** One cheap call: the user the token acts as. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get(`${API}/users`, { query: { type: 'CurrentUser' } });
}

/** An adapter with its own page size and cache time (tests and benchmarks); `zohoAdapter` uses the defaults. */
export function createZohoAdapter(options: ZohoAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const defs = new FieldDefinitions(o);
  return {
    manifest: zohoManifest,
    http: zohoHttpProfile,
    verifyCredentials,
    syncers: zohoSyncers(o, defs),
    crm: zohoCrmOperations(defs),
    customFields: customFieldSupport(defs),
  };
}

export const zohoAdapter: ProviderAdapter = createZohoAdapter();
