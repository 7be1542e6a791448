/**
 * Linear GraphQL API adapter: manifest, HTTP profile, syncers and ticketing writes. Linear issues have
 * no custom fields, so there is no field-mapping support. Mapping tables and behaviour:
 * docs/providers/linear.md.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, ProviderAdapter } from '../types';
import { gql, resolveOptions, type LinearAdapterOptions, type ResolvedOptions } from './graphql';
import { linearHttpProfile } from './http';
import { linearManifest } from './manifest';
import { VIEWER } from './queries';
import { linearSyncers } from './sync';
import { linearTicketOperations } from './tickets';
import { linearWebhooks } from './webhooks';

export { linearManifest } from './manifest';
export { linearHttpProfile, linearAuthHeaders, linearErrorMessage } from './http';
export type { LinearAdapterOptions } from './graphql';

/** `viewer` names the user the key or token acts as; Linear refuses bad credentials with AUTHENTICATION_ERROR. */
async function verifyCredentials(ctx: AdapterContext, o: ResolvedOptions): Promise<void> {
  const data = await gql<{ viewer?: { id?: string; active?: boolean } }>(ctx, o, VIEWER);
  if (!data.viewer?.id) throw new AppError('provider_error', 'Linear accepted the credentials but named no user', { provider: 'linear' });
}

/** An adapter with its own page size, timings and storage hosts (tests); `linearAdapter` uses the defaults. */
export function createLinearAdapter(options: LinearAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: linearManifest,
    http: linearHttpProfile,
    verifyCredentials: (ctx) => verifyCredentials(ctx, o),
    syncers: linearSyncers(o),
    ticketing: linearTicketOperations(o),
    webhooks: linearWebhooks(o),
  };
}

export const linearAdapter: ProviderAdapter = createLinearAdapter();
