/**
 * Zendesk Support API v2 adapter: manifest, HTTP profile, syncers, ticketing writes and custom fields.
 * Mapping tables and behaviour: docs/providers/zendesk.md.
 */
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext, ProviderAdapter } from '../types';
import { resolveOptions, type ZendeskAdapterOptions } from './api';
import { zendeskCustomFields } from './custom-fields';
import { zendeskHttpProfile } from './http';
import { zendeskManifest } from './manifest';
import { zendeskSyncers } from './sync';
import { zendeskTicketOperations } from './tickets';
import { zendeskWebhooks } from './webhooks';
import type { ZdUser } from './types';

export { zendeskManifest } from './manifest';
export { zendeskHttpProfile, zendeskAuthHeaders, zendeskErrorMessage } from './http';
export type { ZendeskAdapterOptions } from './api';

/**
 * `GET /api/v2/users/me` must name a signed-in user: Zendesk answers bad credentials on some accounts
 * with 200 and an anonymous user (`id: null`) instead of 401.
 */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  const res = await ctx.http.get<{ user?: ZdUser }>('/api/v2/users/me');
  const user = res.data?.user;
  if (!user || user.id === null || user.id === undefined) {
    throw new ProviderError('zendesk', 401, 'the credentials were not accepted (Zendesk answered as an anonymous user)', undefined);
  }
  if (user.role === 'end-user') {
    throw new AppError('provider_error', 'Zendesk accepted the credentials, but they belong to an end-user; connect with an agent or admin', {
      provider: 'zendesk',
      provider_status: 403,
    });
  }
}

/** An adapter with its own page sizes and timings (tests and benchmarks); `zendeskAdapter` uses the defaults. */
export function createZendeskAdapter(options: ZendeskAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: zendeskManifest,
    http: zendeskHttpProfile,
    verifyCredentials,
    syncers: zendeskSyncers(o),
    ticketing: zendeskTicketOperations(o),
    customFields: zendeskCustomFields(o),
    webhooks: zendeskWebhooks,
  };
}

export const zendeskAdapter: ProviderAdapter = createZendeskAdapter();
