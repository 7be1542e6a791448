import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Intercom REST API, version 2.14 (`Intercom-Version` header). One host serves every workspace
 * (`https://api.intercom.io`; `https://api.eu.intercom.io` and `https://api.au.intercom.io` for workspaces
 * hosted there, as `base_url`). Access tokens: an app's own (Developer Hub → Authentication) or OAuth.
 *
 * Rate limit (REST API → Rate limiting): private apps 10,000 calls a minute per app and 25,000 per
 * workspace, public apps 10,000 per app per workspace, distributed over 10-second windows (a sixth of the
 * minute's calls each). Answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`
 * (UNIX seconds); a spent window answers 429.
 */
export const intercomManifest: ProviderManifest = {
  name: 'intercom',
  displayName: 'Intercom',
  vertical: 'ticketing',
  authKind: 'oauth2',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('Intercom access token (Developer Hub → your app → Authentication), or from OAuth.'),
  }),
  defaultBaseUrl: 'https://api.intercom.io',
  // Intercom's OAuth: consent at app.intercom.com/oauth, code exchange at /auth/eagle/token. Scopes are set
  // on the app in the Developer Hub, not asked for in the request; tokens do not expire.
  // The workspace's region (US, EU, Australia); the token endpoint is fixed.
  oauth: { hosts: ['api.intercom.io', 'api.eu.intercom.io', 'api.au.intercom.io'], authorizeUrl: 'https://app.intercom.com/oauth', tokenUrl: 'https://api.intercom.io/auth/eagle/token', scopes: [], pkce: false },
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'epoch' },
  budgets: [{ name: 'app', requests: 1666, perSeconds: 10, scope: 'connection' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.contact': ['list', 'get', 'sync'],
    'ticketing.account': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
  },
  limitations: [
    'Tickets only (conversations are not tickets here); ticket parts that are comments or notes are the comments.',
    'No priority, due date, tags, account or collection on a ticket: priority, due_date, tags, account_id, project_id and parent_ticket are refused with 422 (the 2.14 ticket object reports none of them).',
    'Status is the ticket state\'s category: submitted ↔ OPEN, in_progress ↔ IN_PROGRESS, waiting_on_customer ↔ ON_HOLD, resolved ↔ CLOSED; completed_at is not writable.',
    'Ticket type is the Intercom ticket type\'s name; tickets created without one use the first Customer ticket type.',
    'One admin assignee: assigned_to accepts at most one user. Tickets without contact_id are opened for the connection\'s admin\'s email (Intercom needs a contact).',
    'The description (_default_description_) can be changed; comments are admin replies (notes when private) or contact replies.',
    'Attachments are synced from ticket parts; Intercom replies only take files by public URL, so comments with attachments are refused with 422.',
    'Batch creation creates the tickets one by one.',
    'Custom fields: ticket type attributes (by name); comments cannot carry custom fields.',
    'Deleted tickets vanish (no trash): the deletion check or a full sync finds them.',
    'Admins, teams, tags, contacts and companies are listed in full every sync.',
  ],
};
