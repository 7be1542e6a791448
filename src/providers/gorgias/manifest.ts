import { z } from 'zod';
import type { ProviderManifest } from '../manifest';
import { CALL_LIMIT_HEADERS } from './http';

/**
 * Gorgias REST API (https://developers.gorgias.com/reference). Every account has its own host
 * (`https://<account>.gorgias.com`), so `base_url` is required and there is no default; paths start with
 * `/api/`. API-key connections authenticate with HTTP Basic (email + REST API key).
 *
 * Rate limit: a leaky bucket per account — 40 calls per 20 s for API keys (80 for OAuth apps, a 10 s
 * window on Enterprise). Every answer carries `X-Gorgias-Account-Api-Call-Limit: <used>/<limit>`; an
 * exhausted bucket answers 429 with `Retry-After` (seconds), which the HTTP client honours. The header
 * holds the calls *used*, not the calls left: it is read as use against a limit (the dashboard shows
 * limit − used left, a full bucket holds the connection briefly), and list syncs read it themselves
 * (api.ts `pace`) to slow down before the bucket overflows.
 */
export const gorgiasManifest: ProviderManifest = {
  name: 'gorgias',
  displayName: 'Gorgias',
  vertical: 'ticketing',
  authKind: 'basic',
  credentials: z.strictObject({
    email: z.email().describe('Email address of the Gorgias user the REST API key belongs to.'),
    api_token: z.string().min(1).describe('Gorgias REST API key (Settings → REST API → Password / API key).'),
  }),
  rateLimitHeaders: CALL_LIMIT_HEADERS,
  // https://developers.gorgias.com/reference/limitations — a leaky bucket per account: API-key integrations
  // 40 requests in a 20-second window (OAuth apps 80; Enterprise accounts a 10-second window).
  budgets: [{ name: 'account', requests: 40, perSeconds: 20, scope: 'account' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.contact': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
  },
  limitations: [
    'No accounts and no collections: account_id and project_id are refused with 422.',
    'Ticket status is open or closed: IN_PROGRESS and ON_HOLD cannot be written (422); a snoozed ticket (snooze_datetime set) reads as ON_HOLD.',
    'Priority critical, high, normal, low ↔ URGENT, HIGH, MEDIUM, LOW.',
    'Ticket type is the Gorgias channel (email, chat, api …); tickets created through Omniport default to the api channel.',
    'No due dates, parent tickets or writable completion time: due_date, parent_ticket and completed_at are refused with 422.',
    'A ticket has one assignee user: assigned_to accepts at most one user.',
    'A ticket needs a first message: the description (or the first comment) becomes it; it cannot be changed afterwards.',
    'Comments are ticket messages on the api channel (internal notes when is_private); Gorgias does not deliver them by email.',
    'Attachments are uploaded through POST /api/upload and attached to the message; they cannot be created on their own.',
    'Batch creation creates the tickets one by one (Gorgias has no bulk ticket endpoint).',
    'Custom fields: ticket custom fields only; comments cannot carry custom fields.',
    'Users, contacts (customers), teams and tags have no updated-since filter: each sync lists them in full.',
    'Tickets deleted for good (not trashed) are only detected by a full sync.',
  ],
};
