/**
 * Microsoft Dynamics 365 Sales adapter (Dataverse Web API v9.2): manifest, HTTP profile, syncers, CRM
 * writes and custom columns. Mapping tables and behaviour: docs/providers/dynamics.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, Metadata, resolveOptions, type DynamicsAdapterOptions } from './api';
import { dynamicsCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { dynamicsHttpProfile } from './http';
import { dynamicsManifest } from './manifest';
import { dynamicsSyncers } from './sync';

export { dynamicsManifest } from './manifest';
export { dynamicsHttpProfile, dynamicsAuthHeaders, dynamicsErrorMessage } from './http';
export type { DynamicsAdapterOptions } from './api';

/** One cheap call: WhoAmI (the signed-in user, business unit and organization). */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get(`${API}/WhoAmI`);
}

/** An adapter with its own page size and cache time (tests and benchmarks); `dynamicsAdapter` uses the defaults. */
export function createDynamicsAdapter(options: DynamicsAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const metadata = new Metadata(o);
  return {
    manifest: dynamicsManifest,
    http: dynamicsHttpProfile,
    verifyCredentials,
    syncers: dynamicsSyncers(o, metadata),
    crm: dynamicsCrmOperations(metadata),
    customFields: customFieldSupport(metadata),
  };
}

export const dynamicsAdapter: ProviderAdapter = createDynamicsAdapter();
