/**
 * Zendesk Sell adapter (Sell Core API v2): manifest, HTTP profile, syncers, CRM writes and custom fields.
 * Mapping tables and behaviour: docs/providers/zendesk-sell.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, CustomFieldDefinitions, resolveOptions, type ZendeskSellAdapterOptions } from './api';
import { zendeskSellCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { zendeskSellHttpProfile } from './http';
import { zendeskSellManifest } from './manifest';
import { zendeskSellSyncers } from './sync';

export { zendeskSellManifest } from './manifest';
export { zendeskSellHttpProfile, zendeskSellAuthHeaders, zendeskSellErrorMessage } from './http';
export type { ZendeskSellAdapterOptions } from './api';

/** One cheap call: the user the token acts as. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get(`${API}/users/self`);
}

export function createZendeskSellAdapter(options: ZendeskSellAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const defs = new CustomFieldDefinitions(o);
  return {
    manifest: zendeskSellManifest,
    http: zendeskSellHttpProfile,
    verifyCredentials,
    syncers: zendeskSellSyncers(o),
    crm: zendeskSellCrmOperations(defs),
    customFields: customFieldSupport(defs),
  };
}

export const zendeskSellAdapter: ProviderAdapter = createZendeskSellAdapter();
