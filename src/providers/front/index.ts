/**
 * Front Core API adapter: manifest, HTTP profile, syncers, ticketing writes and custom fields.
 * Mapping tables and behaviour: docs/providers/front.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { resolveOptions, type FrontAdapterOptions } from './api';
import { frontCustomFields } from './custom-fields';
import { frontHttpProfile } from './http';
import { frontManifest } from './manifest';
import { frontSyncers } from './sync';
import { frontTicketOperations } from './tickets';
import { frontWebhooks } from './webhooks';

export { frontManifest } from './manifest';
export { frontHttpProfile, frontAuthHeaders, frontErrorMessage } from './http';
export type { FrontAdapterOptions } from './api';

/** `GET /me` names the company the API token belongs to; a refused token answers 401. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  await ctx.http.get('/me');
}

/** An adapter with its own page sizes and timings (tests and benchmarks); `frontAdapter` uses the defaults. */
export function createFrontAdapter(options: FrontAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: frontManifest,
    http: frontHttpProfile,
    verifyCredentials,
    syncers: frontSyncers(o),
    ticketing: frontTicketOperations(o),
    customFields: frontCustomFields(),
    webhooks: frontWebhooks(o),
  };
}

export const frontAdapter: ProviderAdapter = createFrontAdapter();
