/**
 * GitLab REST API v4 adapter: manifest, HTTP profile, syncers and ticketing writes (issues, notes,
 * uploads). No custom fields: GitLab issues have none in the REST API on Free, so `customFields` is
 * left out and field mappings on GitLab tickets are refused with 422.
 * Mapping tables and behaviour: docs/providers/gitlab.md.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, ProviderAdapter } from '../types';
import { apiRoot, resolveOptions, type GitlabAdapterOptions } from './api';
import { gitlabHttpProfile } from './http';
import { gitlabManifest } from './manifest';
import { gitlabSyncers } from './sync';
import { gitlabTicketOperations } from './tickets';
import type { GlCurrentUser } from './types';
import { gitlabWebhooks } from './webhooks';

export { gitlabManifest } from './manifest';
export { gitlabHttpProfile, gitlabAuthHeaders, gitlabErrorMessage } from './http';
export type { GitlabAdapterOptions } from './api';

/** `GET /user` must name the token's user (a revoked or mistyped token answers 401). */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  const res = await ctx.http.get<GlCurrentUser>(`${apiRoot(ctx)}/user`);
  if (!res.data || typeof res.data.id !== 'number') {
    throw new ProviderError('gitlab', 401, 'the token was not accepted (GitLab named no user)', undefined);
  }
}

/** An adapter with its own page size and timings (tests and benchmarks); `gitlabAdapter` uses the defaults. */
export function createGitlabAdapter(options: GitlabAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: gitlabManifest,
    http: gitlabHttpProfile,
    verifyCredentials,
    syncers: gitlabSyncers(o),
    ticketing: gitlabTicketOperations(o),
    webhooks: gitlabWebhooks(o),
  };
}

export const gitlabAdapter: ProviderAdapter = createGitlabAdapter();
