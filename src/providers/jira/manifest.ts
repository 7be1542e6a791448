import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Jira Cloud platform REST API v3 (`/rest/api/3`). The site's own URL (`https://<site>.atlassian.net`)
 * is required as `base_url`; there is no default. API-token connections authenticate with HTTP Basic
 * `{email}:{api_token}`; an OAuth 2.0 (3LO) access token (`{access_token}`, with base URL
 * `https://api.atlassian.com/ex/jira/<cloudId>`) is sent as a bearer token and renewed with the project's
 * Jira OAuth app. The hosted connect page obtains such tokens and finds the site (cloud id) they reach.
 */
export const jiraManifest: ProviderManifest = {
  name: 'jira',
  displayName: 'Jira',
  vertical: 'ticketing',
  authKind: 'basic',
  // An API token (typed in the connect page's form), or the tokens of an OAuth 2.0 (3LO) app: those the hosted
  // connect page obtains, or ones a developer obtained with the project's Jira OAuth app (base URL
  // `https://api.atlassian.com/ex/jira/<cloudId>`). Only OAuth connections can register dynamic webhooks.
  credentials: z.union([
    z.strictObject({
      email: z.email().describe('Email address of the Atlassian account the API token belongs to.'),
      api_token: z.string().min(1).describe('Atlassian API token (id.atlassian.com → Security → API tokens).'),
    }),
    z.strictObject({
      access_token: z.string().min(1).describe('OAuth 2.0 (3LO) access token of the project’s Jira OAuth app (PUT /oauth-apps/jira).'),
      refresh_token: z.string().min(1).optional().describe('Renews the access token (scope offline_access).'),
      expires_at: z.string().optional().describe('When the access token expires (ISO 8601).'),
    }),
  ]),
  // https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/ — the project's OAuth 2.0 (3LO) app
  // renews the tokens of OAuth connections (`offline_access`) and its client secret signs dynamic webhooks.
  oauth: {
    // The gateway the chosen site is reached through; the token endpoint is fixed.
    hosts: ['api.atlassian.com'],
    authorizeUrl: 'https://auth.atlassian.com/authorize',
    tokenUrl: 'https://auth.atlassian.com/oauth/token',
    scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'manage:jira-webhook', 'offline_access'],
    pkce: false,
    tokenRequestBody: 'json',
    // Atlassian's authorization server issues tokens for its API gateway; consent is asked every time.
    authorizeParams: { audience: 'api.atlassian.com', prompt: 'consent' },
    // Which Jira sites the grant reaches; API calls go through the gateway with the site's cloud id.
    sites: {
      resourcesUrl: 'https://api.atlassian.com/oauth/token/accessible-resources',
      apiBaseUrl: 'https://api.atlassian.com/ex/jira/{id}',
      scopeMarker: 'jira',
    },
  },
  // Jira answers 429 with Retry-After (seconds); X-RateLimit-Reset is an ISO timestamp, so only
  // the remaining count is declared here and Retry-After decides the wait.
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining' },
  // https://developer.atlassian.com/cloud/jira/platform/rate-limiting — API-token traffic is governed by
  // per-second burst limits per site and endpoint (token buckets); Atlassian publishes no figure for them,
  // so Omniport keeps to 10 requests a second per site and waits out any 429's Retry-After.
  budgets: [{ name: 'burst', requests: 10, perSeconds: 1, scope: 'account' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
    'ticketing.collection': ['list', 'get', 'sync'],
  },
  limitations: [
    'Creating a ticket requires project_id (a Jira project, synced as a collection).',
    'No contacts or accounts: Jira Software has neither (Jira Service Management customers and organizations are not covered); contact_id and account_id are refused with 422.',
    'A ticket has one assignee: assigned_to accepts at most one user.',
    'Status is changed through the workflow: Omniport executes a transition to a status of the requested category (To Do → OPEN, In Progress → IN_PROGRESS, Done → CLOSED; ON_HOLD needs a status named like "On hold", "Blocked" or "Waiting"); a status no transition reaches is refused with 422.',
    'due_date is a date in Jira: the time of day is not kept.',
    'completed_at is read-only (Jira sets the resolution date itself); moving a ticket to another project is not possible through PATCH.',
    'Comments are written as the connection\'s own user (user_id may only name that user; contact_id is refused) and are public (is_private: true is refused: Jira restricts visibility by role or group, which the unified model cannot express).',
    'Attachments belong to the issue in Jira: a comment with attachments uploads them to the issue and links them from the comment body.',
    'Incremental sync reads changes with JQL `updated >=` at minute precision (with an overlap); deleted issues are detected by full runs only.',
    'Teams are Jira groups; users, groups, labels and projects are re-read in full on every run.',
  ],
};
