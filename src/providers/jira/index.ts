/**
 * Jira Cloud (REST API v3) adapter: manifest, HTTP profile, syncers, ticketing writes and custom fields.
 * Mapping tables and behaviour: docs/providers/jira.md.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, ProviderAdapter } from '../types';
import { API, resolveOptions, type JiraAdapterOptions } from './api';
import { jiraCustomFields } from './custom-fields';
import { jiraHttpProfile } from './http';
import { jiraManifest } from './manifest';
import { jiraSyncers } from './sync';
import { jiraTicketOperations } from './tickets';
import type { JiraUser } from './types';
import { jiraWebhooks } from './webhooks';

export { jiraManifest } from './manifest';
export { jiraHttpProfile, jiraAuthHeaders, jiraErrorMessage } from './http';
export type { JiraAdapterOptions } from './api';

/**
 * `GET /rest/api/3/myself` names the account the credentials act as. Jira answers bad credentials
 * with 401; a Jira Service Management customer account cannot use the platform API.
 */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  const me = (await ctx.http.get<JiraUser>(`${API}/myself`)).data;
  if (!me?.accountId) throw new AppError('provider_error', 'Jira accepted the credentials but named no account', { provider: 'jira', provider_status: 200 });
  if (me.accountType === 'customer') {
    throw new AppError('provider_error', 'Jira accepted the credentials, but they belong to a Jira Service Management customer; connect with a licensed user', {
      provider: 'jira',
      provider_status: 403,
    });
  }
}

/** An adapter with its own page sizes and cache time (tests and benchmarks); `jiraAdapter` uses the defaults. */
export function createJiraAdapter(options: JiraAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: jiraManifest,
    http: jiraHttpProfile,
    verifyCredentials,
    syncers: jiraSyncers(o),
    ticketing: jiraTicketOperations(o),
    customFields: jiraCustomFields(o),
    webhooks: jiraWebhooks,
  };
}

export const jiraAdapter: ProviderAdapter = createJiraAdapter();
