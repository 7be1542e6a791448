import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

const PER_MINUTE = 60;

/**
 * Freshdesk API v2 (https://developers.freshdesk.com/api/). Every account has its own host
 * (`https://<domain>.freshdesk.com`), so `base_url` is required; paths start with `/api/v2/`. API keys
 * authenticate with HTTP Basic (key as username).
 *
 * Rate limit (API v2 → Rate limit): per account, per minute, by plan — Growth 200, Pro 400, Enterprise 700
 * calls, with sub-limits on some endpoints (Growth: ticket create 80, ticket update 80, tickets list 20,
 * contacts list 20). The budgets below are Growth's, the lowest plan with API access. Answers carry
 * `X-RateLimit-Total`, `X-RateLimit-Remaining` and `X-RateLimit-Used-CurrentRequest`; an exhausted limit
 * answers 429 with `Retry-After` (seconds), which the HTTP client honours.
 */
export const freshdeskManifest: ProviderManifest = {
  name: 'freshdesk',
  displayName: 'Freshdesk',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    api_key: z.string().min(1).describe('Freshdesk API key of the agent to act as (Profile settings → View API key).'),
  }),
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining' },
  budgets: [
    { name: 'account', requests: 200, perSeconds: PER_MINUTE, scope: 'account' },
    { name: 'tickets list', requests: 20, perSeconds: PER_MINUTE, path: /^\/api\/v2\/tickets\/?$/, methods: ['GET'], scope: 'account' },
    { name: 'ticket create', requests: 80, perSeconds: PER_MINUTE, path: /^\/api\/v2\/tickets\/?$/, methods: ['POST'], scope: 'account' },
    { name: 'ticket update', requests: 80, perSeconds: PER_MINUTE, path: /^\/api\/v2\/tickets\/\d+\/?$/, methods: ['PUT'], scope: 'account' },
    { name: 'contacts list', requests: 20, perSeconds: PER_MINUTE, path: /^\/api\/v2\/contacts\/?$/, methods: ['GET'], scope: 'account' },
  ],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.contact': ['list', 'get', 'sync'],
    'ticketing.account': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync', 'incremental_sync'],
  },
  limitations: [
    'No collections: project_id is refused with 422.',
    'Status: Open ↔ OPEN, Pending ↔ ON_HOLD, Resolved and Closed → CLOSED (CLOSED writes Closed); IN_PROGRESS cannot be written (422). The default custom statuses 6 and 7 (waiting on customer / third party) read as ON_HOLD.',
    'Priority Low, Medium, High, Urgent ↔ LOW, MEDIUM, HIGH, URGENT.',
    'Ticket type is the account\'s ticket type (Question, Incident, Problem, Feature Request, Refund by default).',
    'A ticket has one responder: assigned_to accepts at most one user. Tickets without contact_id are requested by the connection\'s own agent.',
    'Parent tickets and completion time cannot be written: parent_ticket and completed_at are refused with 422.',
    'Public comments from users are replies (emailed to the requester); private ones are private notes; comments from a contact are incoming public notes.',
    'Attachments of the ticket\'s description are kept in its remote_data; attachments of replies and notes are synced as attachments.',
    'Batch creation creates the tickets one by one (Freshdesk has no bulk ticket creation).',
    'Custom fields: ticket custom fields only (by their cf_ name); comments cannot carry custom fields.',
    'Tags have no list of their own in Freshdesk: they are the tags of the synced tickets.',
    'Agents, groups, contacts and companies have no updated-since listing used here: each sync lists them in full.',
    'Tickets deleted from the trash for good, and deleted replies and notes, are only detected by a full sync or the deletion check (tickets).',
  ],
};
