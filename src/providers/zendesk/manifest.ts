import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Zendesk Support API v2. The account's own URL (`https://<subdomain>.zendesk.com`) is required as
 * `base_url`; there is no default. API-token connections authenticate with HTTP Basic
 * `{email}/token:{api_token}`; OAuth connections (hosted connect page) with a bearer token.
 */
export const zendeskManifest: ProviderManifest = {
  name: 'zendesk',
  displayName: 'Zendesk',
  vertical: 'ticketing',
  authKind: 'basic',
  credentials: z.strictObject({
    email: z.email().describe('Email address of the Zendesk agent or admin the API token acts as.'),
    api_token: z.string().min(1).describe('Zendesk API token (Admin Center → Apps and integrations → APIs → Zendesk API).'),
  }),
  oauth: {
    // The account's subdomain, `<subdomain>.zendesk.com`: the token endpoint is on it.
    hosts: ['*.zendesk.com'],
    authorizeUrl: '/oauth/authorizations/new',
    tokenUrl: '/oauth/tokens',
    scopes: ['read', 'write'],
    pkce: true,
  },
  rateLimitHeaders: { remaining: 'ratelimit-remaining', reset: 'ratelimit-reset', resetKind: 'seconds' },
  // https://developer.zendesk.com/api-reference/introduction/rate-limits/ — every request counts against the
  // plan's per-minute account limit (200 on Team, the lowest plan; 400, 700, 2,500 above), and the incremental
  // exports allow 10 requests a minute per account on top of it (30 with the High Volume add-on).
  budgets: [
    { name: 'account', requests: 200, perSeconds: 60, scope: 'account' },
    { name: 'incremental export', requests: 10, perSeconds: 60, path: /^\/api\/v2\/incremental\//, scope: 'account' },
  ],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync', 'incremental_sync'],
    'ticketing.contact': ['list', 'get', 'sync', 'incremental_sync'],
    'ticketing.account': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
  },
  limitations: [
    'No collections: Zendesk has no projects or boards (ticket project_id is refused with 422).',
    'A ticket has one assignee: assigned_to accepts at most one user.',
    'Ticket description is the opening comment: it can be set on create only, not changed by PATCH.',
    'completed_at is read-only (Zendesk records the solved time itself) and comes only from ticket metrics when Zendesk sideloads them.',
    'Ticket status CLOSED is written as "solved" (Zendesk closes solved tickets itself); IN_PROGRESS is "pending".',
    'Ticket type must be one of problem, incident, question, task; due_date only matters for tasks; parent_ticket (problem_id) only for incidents.',
    'Attachments are created only with a comment (uploaded through Zendesk uploads), not on their own.',
    'Comments cannot carry custom fields; a comment has exactly one author (user_id or contact_id).',
    'Sync uses Zendesk incremental exports, which need an admin; changes of the last minute appear in the next run.',
    'Team membership of users is their default group only.',
  ],
};
