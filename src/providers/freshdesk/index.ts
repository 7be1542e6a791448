/**
 * Freshdesk API v2 adapter: manifest, HTTP profile, syncers, ticketing writes and ticket custom fields.
 * Mapping tables and behaviour: docs/providers/freshdesk.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { currentAgentId, resolveOptions, type FreshdeskAdapterOptions } from './api';
import { freshdeskCustomFields } from './custom-fields';
import { freshdeskHttpProfile } from './http';
import { freshdeskManifest } from './manifest';
import { freshdeskSyncers } from './sync';
import { freshdeskTicketOperations } from './tickets';

export { freshdeskManifest } from './manifest';
export { freshdeskHttpProfile, freshdeskAuthHeaders, freshdeskErrorMessage } from './http';
export type { FreshdeskAdapterOptions } from './api';

/** An adapter with its own page size (tests and benchmarks); `freshdeskAdapter` uses the defaults. */
export function createFreshdeskAdapter(options: FreshdeskAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: freshdeskManifest,
    http: freshdeskHttpProfile,
    // `GET /api/v2/agents/me` answers the agent the key belongs to; a refused key answers 401.
    verifyCredentials: async (ctx: AdapterContext) => void (await currentAgentId(ctx, { ...o, selfCacheMs: 0 })),
    syncers: freshdeskSyncers(o),
    ticketing: freshdeskTicketOperations(o),
    customFields: freshdeskCustomFields,
  };
}

export const freshdeskAdapter: ProviderAdapter = createFreshdeskAdapter();
