import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Linear GraphQL API (`https://api.linear.app/graphql`). A personal API key is sent bare in
 * `Authorization`; OAuth access tokens (hosted connect page) as `Bearer`.
 */
export const linearManifest: ProviderManifest = {
  name: 'linear',
  displayName: 'Linear',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z
      .string()
      .min(1)
      .describe('Linear personal API key (Settings → Security & access → Personal API keys, `lin_api_…`) or an OAuth access token.'),
  }),
  defaultBaseUrl: 'https://api.linear.app',
  oauth: {
    hosts: ['api.linear.app'],
    authorizeUrl: 'https://linear.app/oauth/authorize',
    tokenUrl: 'https://api.linear.app/oauth/token',
    // Linear wants the scopes comma-separated (`scope=read,write`); the connect flow joins the list with spaces.
    scopes: ['read,write'],
    pkce: true,
  },
  // Two hourly budgets, requests and query complexity, each with its reset in epoch milliseconds
  // (https://linear.app/developers/rate-limiting).
  rateLimitHeaders: [
    { remaining: 'x-ratelimit-requests-remaining', reset: 'x-ratelimit-requests-reset', resetKind: 'epoch-ms' },
    { remaining: 'x-ratelimit-complexity-remaining', reset: 'x-ratelimit-complexity-reset', resetKind: 'epoch-ms' },
  ],
  // 5,000 requests an hour per API key or user, and 3,000,000 complexity points an hour for API keys (leaky
  // buckets refilled at limit / hour). A query's complexity is known from its answer (`x-complexity`): the last
  // one seen is reserved before a call (10,000, the most a query may cost, at first) and settled after it.
  budgets: [
    { name: 'requests', requests: 5000, perSeconds: 3600, scope: 'connection' },
    { name: 'complexity', requests: 3_000_000, perSeconds: 3600, pacing: 'bucket', scope: 'connection', cost: { header: 'x-complexity', estimate: 10_000 } },
  ],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.collection': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
  },
  limitations: [
    'Every issue belongs to a team: project_id (the Omniport id of a collection, i.e. a Linear team) is required to create a ticket.',
    'No contacts or accounts (Linear customers are out of scope): contact_id and account_id are refused with 422.',
    'Issues have no type and no custom fields: type and field_mappings are refused with 422.',
    'Status ON_HOLD has no Linear workflow state type and is refused; a written status moves the issue to the first state (by position) of the matching type in its team.',
    'An issue has one assignee: assigned_to accepts at most one user.',
    'due_date is a calendar day in Linear: the time of day is dropped (UTC).',
    'completed_at is read-only: Linear records it when the issue reaches a completed (or canceled) state.',
    'Tags are labels of the issue’s team or workspace; a tag name that does not exist yet is created as a label of the team.',
    'Comments are Markdown, public to the workspace and written by the connected user: html_body, is_private true, contact_id and another user_id are refused.',
    'Attachments are files uploaded to Linear’s storage and linked from the comment’s Markdown; Linear’s link attachments (pull requests, etc.) are not synced.',
    'Rate limiting is answered by Linear with HTTP 400 and the GraphQL error code RATELIMITED; Omniport retries it and then answers 503 with Retry-After.',
  ],
};
