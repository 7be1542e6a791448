import { z } from 'zod';
import { READ_ONLY_SYNC, type ProviderManifest } from '../manifest';

/**
 * ClickUp API v2 (`https://api.clickup.com/api`, paths under `/v2`). One host for every workspace ("team" in
 * API v2). Tokens: a personal token (`pk_…`, Settings → Apps) or OAuth 2.0 (authorization code; tokens do not
 * expire).
 *
 * Rate limits (Rate Limits, https://developer.clickup.com/docs/rate-limits): per token, by the workspace's
 * plan — Free Forever, Unlimited and Business 100 requests a minute, Business Plus 1,000, Enterprise 10,000.
 * Answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (UNIX seconds); a spent
 * limit answers 429. The budget below is the lowest plan's.
 */
export const clickupManifest: ProviderManifest = {
  name: 'clickup',
  displayName: 'ClickUp',
  vertical: 'ticketing',
  authKind: 'oauth2',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('ClickUp personal token (pk_…, Settings → Apps), or from OAuth.'),
    workspace_id: z.string().regex(/^\d+$/).optional().describe('The workspace (team id) to connect (default: the token\'s first workspace).'),
  }),
  defaultBaseUrl: 'https://api.clickup.com/api',
  // OAuth (Authentication; GetAccessToken): consent at app.clickup.com/api, code exchange at /v2/oauth/token with a
  // JSON body (client_id, client_secret, code); no scopes, no refresh.
  oauth: { hosts: ['api.clickup.com'], authorizeUrl: 'https://app.clickup.com/api', tokenUrl: 'https://api.clickup.com/api/v2/oauth/token', scopes: [], pkce: false, tokenRequestBody: 'json' },
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'epoch' },
  budgets: [{ name: 'token', requests: 100, perSeconds: 60, scope: 'connection' }],
  capabilities: {
    'ticketing.ticket': ['create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': [...READ_ONLY_SYNC],
    'ticketing.team': [...READ_ONLY_SYNC],
    'ticketing.tag': [...READ_ONLY_SYNC],
    'ticketing.collection': [...READ_ONLY_SYNC],
  },
  limitations: [
    'Tickets are the tasks of one workspace; a task is created in a list, so project_id (a collection of type LIST) is required. Spaces, folders and lists are collections (parent_id: the space or folder).',
    'Status follows the list\'s status types: open ↔ OPEN, custom ↔ IN_PROGRESS (the first custom status on write), closed and done ↔ CLOSED; ON_HOLD is refused with 422.',
    'Priority urgent, high, normal, low ↔ URGENT, HIGH, MEDIUM, LOW.',
    'No contacts or accounts: contact_id and account_id are refused with 422; completed_at is set by ClickUp (write status CLOSED).',
    'Comments are public and written as the token\'s user: is_private, contact_id and another user_id are refused with 422.',
    'Attachments belong to the task: a comment with files uploads them to its task and answers them; sync lists them under the ticket.',
    'Batch creation creates the tasks one by one.',
    'Custom fields: task custom fields of the workspace\'s lists (text, number, checkbox, date, drop-down by option name); comments cannot carry custom fields.',
    'Tickets sync incrementally with date_updated_gt; ClickUp lists no deleted tasks, so deletions are found by the deletion check and full runs.',
    'Members, user groups (teams), spaces, folders, lists and tags are listed in full every sync.',
  ],
};
