/**
 * GitHub adapter (REST API, issues): manifest, HTTP profile, syncers and ticketing writes.
 * GitHub issues have no custom fields through REST (Projects v2 fields are GraphQL-only), so the
 * adapter has no `customFields`. Mapping tables and behaviour: docs/providers/github.md.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, ProviderAdapter } from '../types';
import { resolveOptions, type GithubAdapterOptions } from './api';
import { githubWebhooks } from './webhooks';
import { githubHttpProfile } from './http';
import { githubManifest } from './manifest';
import { githubSyncers } from './sync';
import { githubTicketOperations } from './tickets';
import type { GhUser } from './types';

export { githubManifest } from './manifest';
export { githubHttpProfile, githubAuthHeaders, githubErrorMessage } from './http';
export type { GithubAdapterOptions } from './api';

/** An adapter with its own page size and timings (tests and benchmarks); `githubAdapter` uses the defaults. */
export function createGithubAdapter(options: GithubAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: githubManifest,
    http: githubHttpProfile,
    /** `GET /user` must name the token's user (401 Bad credentials otherwise). */
    async verifyCredentials(ctx: AdapterContext): Promise<void> {
      const res = await ctx.http.request<GhUser>('GET', '/user');
      if (!res.data || typeof res.data.login !== 'string') {
        throw new AppError('provider_error', 'GitHub accepted the token but did not name its user', { provider: 'github', provider_status: res.status });
      }
    },
    syncers: githubSyncers(o),
    ticketing: githubTicketOperations(o),
    webhooks: githubWebhooks(o),
  };
}

export const githubAdapter: ProviderAdapter = createGithubAdapter();
