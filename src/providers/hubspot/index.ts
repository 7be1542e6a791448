/**
 * HubSpot CRM adapter: manifest, HTTP profile, syncers, CRM writes and field mapping.
 * Mapping tables and behaviour: docs/providers/hubspot.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { resolveOptions, type HubSpotAdapterOptions } from './api';
import { hubspotCrmOperations } from './crm';
import { hubspotHttpProfile } from './http';
import { hubspotManifest } from './manifest';
import { PropertyCatalog, hubspotCustomFields } from './properties';
import { hubspotSyncers } from './sync';
import { hubspotAppWebhooks } from './webhooks';

export { hubspotManifest } from './manifest';
export { hubspotHttpProfile, hubspotAuthHeaders, hubspotErrorMessage } from './http';
export type { HubSpotAdapterOptions } from './api';

/** One cheap read that needs the contacts scope every CRM call needs. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get('/crm/v3/objects/contacts', { query: { limit: 1, properties: 'hs_object_id' } });
}

/** An adapter with its own page sizes and timings (tests and benchmarks); `hubspotAdapter` uses the defaults. */
export function createHubSpotAdapter(options: HubSpotAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const catalog = new PropertyCatalog(o.propertiesTtlMs);
  return {
    manifest: hubspotManifest,
    http: hubspotHttpProfile,
    verifyCredentials,
    syncers: hubspotSyncers(o, catalog),
    crm: hubspotCrmOperations(catalog),
    customFields: hubspotCustomFields(catalog),
    appWebhooks: hubspotAppWebhooks,
  };
}

export const hubspotAdapter: ProviderAdapter = createHubSpotAdapter();
