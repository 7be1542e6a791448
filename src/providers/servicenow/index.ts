/**
 * ServiceNow adapter (Table API and Attachment API): manifest, HTTP profile, syncers, incident writes and incident
 * custom fields. Mapping tables and behaviour: docs/providers/servicenow.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { currentUser, resolveOptions, type ServiceNowAdapterOptions } from './api';
import { servicenowCustomFields } from './custom-fields';
import { servicenowHttpProfile } from './http';
import { servicenowManifest } from './manifest';
import { servicenowSyncers } from './sync';
import { servicenowTicketOperations } from './tickets';

export { servicenowManifest } from './manifest';
export { servicenowHttpProfile, servicenowAuthHeaders, servicenowErrorMessage } from './http';
export type { ServiceNowAdapterOptions } from './api';

/** An adapter with its own page size (tests and benchmarks); `servicenowAdapter` uses the defaults. */
export function createServiceNowAdapter(options: ServiceNowAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: servicenowManifest,
    http: servicenowHttpProfile,
    // The connection's own sys_user (refused credentials answer 401).
    verifyCredentials: async (ctx: AdapterContext) => void (await currentUser(ctx, { ...o, selfCacheMs: 0 })),
    syncers: servicenowSyncers(o),
    ticketing: servicenowTicketOperations(o),
    customFields: servicenowCustomFields,
  };
}

export const servicenowAdapter: ProviderAdapter = createServiceNowAdapter();
