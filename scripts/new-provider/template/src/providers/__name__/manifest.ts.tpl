import { z } from 'zod';
import type { ProviderManifest } from '../manifest';

/**
 * __Display__ (TODO(new-provider): the API reference's address). Describe here, with the reference's section
 * names, how accounts are addressed (`base_url`), how calls authenticate and the documented rate limits:
 * `budgets` pace calls to them, `rateLimitHeaders` names the header telling what is left.
 */
export const __camel__Manifest: ProviderManifest = {
  name: '__name__',
  displayName: '__Display__',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({
    api_token: z.string().min(1).describe('__Display__ API token (TODO(new-provider): where an admin finds it).'),
  }),
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining' },
  // TODO(new-provider): the documented limit, its window and who it is counted for.
  budgets: [{ name: 'account', requests: 100, perSeconds: 60, scope: 'account' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': ['list', 'get', 'sync'],
  },
  limitations: [
    'Status: open ↔ OPEN, pending ↔ ON_HOLD, closed ↔ CLOSED; IN_PROGRESS cannot be written (422).',
    'Priority, tags, contacts, accounts, collections, due dates and attachments are refused with 422.',
    'A ticket has one assignee: assigned_to accepts at most one user.',
    'Tickets deleted in __Display__ are detected by a full sync or the deletion check.',
  ],
};
