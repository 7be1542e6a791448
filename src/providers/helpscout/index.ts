/**
 * Help Scout Mailbox API 2.0 adapter: manifest, HTTP profile, syncers, conversation writes, mailbox custom
 * fields and webhooks. Mapping tables and behaviour: docs/providers/helpscout.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { currentUser, resolveOptions, type HelpScoutAdapterOptions } from './api';
import { helpscoutCustomFields } from './custom-fields';
import { helpscoutHttpProfile } from './http';
import { helpscoutManifest } from './manifest';
import { helpscoutSyncers } from './sync';
import { helpscoutTicketOperations } from './tickets';
import { helpscoutWebhooks } from './webhooks';

export { helpscoutManifest } from './manifest';
export { helpscoutHttpProfile, helpscoutAuthHeaders, helpscoutErrorMessage } from './http';
export type { HelpScoutAdapterOptions } from './api';

export function createHelpScoutAdapter(options: HelpScoutAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: helpscoutManifest,
    http: helpscoutHttpProfile,
    // `GET /v2/users/me`: the user the token belongs to (a refused token answers 401).
    verifyCredentials: async (ctx: AdapterContext) => void (await currentUser(ctx, { ...o, selfCacheMs: 0 })),
    syncers: helpscoutSyncers(),
    ticketing: helpscoutTicketOperations(o),
    customFields: helpscoutCustomFields,
    // Real-time updates: a webhook created per connection (docs/providers/helpscout.md).
    webhooks: helpscoutWebhooks,
  };
}

export const helpscoutAdapter: ProviderAdapter = createHelpScoutAdapter();
