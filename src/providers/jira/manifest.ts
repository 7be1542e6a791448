import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Jira Cloud platform REST API v3 (`/rest/api/3`). The site's own URL (`https://<site>.atlassian.net`)
 * is required as `base_url`; there is no default. API-token connections authenticate with HTTP Basic
 * `{email}:{api_token}`; an OAuth 2.0 (3LO) access token (`{access_token}`, with base URL
 * `https://api.atlassian.com/ex/jira/<cloudId>`) is sent as a bearer token. OAuth through the hosted
 * connect page is not offered yet (it needs Atlassian's `audience` parameter and the cloud-id lookup).
 */
export const jiraManifest: ProviderManifest = {
  name: 'jira',
  displayName: 'Jira',
  vertical: 'ticketing',
  authKind: 'basic',
  credentials: z.strictObject({
    email: z.email().describe('Email address of the Atlassian account the API token belongs to.'),
    api_token: z.string().min(1).describe('Atlassian API token (id.atlassian.com → Security → API tokens).'),
  }),
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
