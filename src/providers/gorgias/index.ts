/**
 * Gorgias REST API adapter: manifest, HTTP profile, syncers, ticketing writes and ticket custom fields.
 * Mapping tables and behaviour: docs/providers/gorgias.md.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, ProviderAdapter } from '../types';
import { resolveOptions, type GorgiasAdapterOptions } from './api';
import { gorgiasCustomFields } from './custom-fields';
import { gorgiasHttpProfile } from './http';
import { gorgiasManifest } from './manifest';
import { gorgiasSyncers } from './sync';
import { gorgiasTicketOperations } from './tickets';
import type { GgUser } from './types';
import { gorgiasWebhooks } from './webhooks';

export { gorgiasManifest } from './manifest';
export { gorgiasHttpProfile, gorgiasAuthHeaders, gorgiasErrorMessage, parseCallLimit } from './http';
export type { GorgiasAdapterOptions } from './api';

/** `GET /api/users/0` answers the user the credentials belong to; anything else means they were not accepted. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  const res = await ctx.http.get<GgUser>('/api/users/0');
  if (!res.data || typeof res.data.id !== 'number') {
    throw new ProviderError('gorgias', 401, 'the credentials were not accepted (Gorgias did not name the current user)', undefined);
  }
}

/** An adapter with its own page size and pacing (tests and benchmarks); `gorgiasAdapter` uses the defaults. */
export function createGorgiasAdapter(options: GorgiasAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: gorgiasManifest,
    http: gorgiasHttpProfile,
    verifyCredentials,
    syncers: gorgiasSyncers(o),
    ticketing: gorgiasTicketOperations(o),
    customFields: gorgiasCustomFields(o),
    webhooks: gorgiasWebhooks,
  };
}

export const gorgiasAdapter: ProviderAdapter = createGorgiasAdapter();
