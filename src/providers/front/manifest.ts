import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * Front Core API (https://api2.frontapp.com). Connections authenticate with a Front API token
 * (Settings → Developers → API tokens), sent as `Authorization: Bearer`; OAuth through the hosted connect
 * page comes later. Front rate-limits per company (50 to 200 requests a minute by plan) and answers 429
 * with `retry-after`; every answer carries `x-ratelimit-remaining` and `x-ratelimit-reset` (epoch seconds).
 */
export const frontManifest: ProviderManifest = {
  name: 'front',
  displayName: 'Front',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z
      .string()
      .min(1)
      .describe(
        'Front API token (Settings → Developers → API tokens) with the shared-resources scope and the permissions conversations, comments, messages, contacts, accounts, tags, teammates, inboxes and events (read; write for conversations, comments, messages and tags).',
      ),
    app_secret: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Optional, for real-time updates: the App secret of a Front app (Settings → Developers → your app → Basic information) whose application webhook calls this connection’s real_time_setup.url (docs/providers/front.md).',
      ),
  }),
  defaultBaseUrl: 'https://api2.frontapp.com',
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'epoch' },
  // https://dev.frontapp.com/docs/rate-limiting — per company, by plan: 50 requests a minute on Starter (the
  // lowest; 100 Professional, 200 Enterprise); partner apps on OAuth have their own 120 a minute.
  budgets: [{ name: 'company', requests: 50, perSeconds: 60, scope: 'connection' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
    'ticketing.contact': ['list', 'get', 'sync', 'incremental_sync'],
    'ticketing.account': ['list', 'get', 'sync'],
    'ticketing.team': ['list', 'get', 'sync'],
    'ticketing.tag': ['list', 'get', 'sync'],
    'ticketing.collection': ['list', 'get', 'sync'],
  },
  limitations: [
    'Tickets are Front conversations. A new ticket is a discussion (internal, comments only) in the inbox given as project_id, a task (type "task", with description and due date), or — with contact_id — a message sent to the contact from the inbox\'s channel (type "conversation"). A discussion or task needs project_id or one assignee.',
    'Front cannot rename a conversation: name is set on create only; a PATCH with name is refused with 422.',
    'No priority, parent ticket, account or completion time on conversations: these fields are refused with 422. due_date and a changed description exist on tasks only.',
    'A conversation has one assignee; its recipient (contact_id) and its type cannot change after creation.',
    'Status: unassigned → OPEN, assigned → IN_PROGRESS, archived → CLOSED; with Front ticketing statuses, waiting → ON_HOLD and resolved → CLOSED. IN_PROGRESS is written as open with an assignee; ON_HOLD needs Front ticketing.',
    'Tags are written by name; a name Front does not know yet is created as a company tag.',
    'Comments are internal comments (is_private true, the default) or message replies (is_private false, conversations with a channel only). Both are written as teammates: a comment as a contact is refused with 422.',
    'Mapped custom fields are conversation custom fields, addressed by their name; Front datetime fields hold epoch seconds.',
    'Each synced conversation costs three extra calls (inboxes, comments, messages) against Front\'s per-company rate limit.',
  ],
};
