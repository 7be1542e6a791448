/**
 * Salesforce adapter (REST API v59.0): manifest, HTTP profile, syncers, CRM writes and custom fields.
 * Mapping tables and behaviour: docs/providers/salesforce.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, Describes, resolveOptions, type SalesforceAdapterOptions } from './api';
import { salesforceCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { salesforceHttpProfile } from './http';
import { salesforceManifest } from './manifest';
import { salesforceSyncers } from './sync';

export { salesforceManifest } from './manifest';
export { salesforceHttpProfile, salesforceAuthHeaders, salesforceErrorMessage } from './http';
export type { SalesforceAdapterOptions } from './api';

/** One cheap call: the org's limits (it also tells the daily API request budget left). */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get(`${API}/limits`);
}

/** An adapter with its own batch size and cache time (tests and benchmarks); `salesforceAdapter` uses the defaults. */
export function createSalesforceAdapter(options: SalesforceAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const describes = new Describes(o);
  return {
    manifest: salesforceManifest,
    http: salesforceHttpProfile,
    verifyCredentials,
    syncers: salesforceSyncers(o, describes),
    crm: salesforceCrmOperations(o, describes),
    customFields: customFieldSupport(describes),
  };
}

export const salesforceAdapter: ProviderAdapter = createSalesforceAdapter();
