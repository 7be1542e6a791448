import { z } from 'zod';
import { READ_ONLY_SYNC, type ProviderManifest } from '../manifest';

/**
 * Help Scout Mailbox API 2.0 (`https://api.helpscout.net`, paths under `/v2`). One host for every account; OAuth 2.0
 * only (Authentication): the authorization-code flow through the hosted connect page (an app created under Your
 * Profile → My Apps), tokens sent as `Authorization: Bearer`; access tokens expire after two days and are renewed
 * with the refresh token.
 *
 * Rate limit (Rate limiting): per account, by plan — 400 requests a minute assumed here, the figure the task
 * brief names; every user and app of the account counts against it, and write requests (POST, PUT, PATCH,
 * DELETE) count as two. Answers carry `X-RateLimit-Limit-Minute`, `X-RateLimit-Remaining-Minute`; a spent limit
 * answers 429 with `X-RateLimit-Retry-After` (seconds). The budget is a bucket charged 1 a read and 2 a write.
 */
export const helpscoutManifest: ProviderManifest = {
  name: 'helpscout',
  displayName: 'Help Scout',
  vertical: 'ticketing',
  authKind: 'oauth2',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('Help Scout OAuth 2.0 access token (from the connect page\'s OAuth flow, or a client-credentials token of your own app).'),
  }),
  defaultBaseUrl: 'https://api.helpscout.net',
  oauth: {
    hosts: ['api.helpscout.net'],
    authorizeUrl: 'https://secure.helpscout.net/authentication/authorizeClientApplication',
    tokenUrl: 'https://api.helpscout.net/v2/oauth2/token',
    scopes: [],
    pkce: false,
  },
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining-minute', reset: 'x-ratelimit-retry-after', resetKind: 'seconds' },
  budgets: [
    {
      name: 'account',
      requests: 400,
      perSeconds: 60,
      scope: 'connection',
      pacing: 'bucket',
      cost: { byEndpoint: [{ methods: ['POST', 'PUT', 'PATCH', 'DELETE'], cost: 2 }], default: 1 },
    },
  ],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': [...READ_ONLY_SYNC],
    'ticketing.contact': ['list', 'get', 'sync', 'incremental_sync'],
    'ticketing.team': [...READ_ONLY_SYNC],
    'ticketing.collection': [...READ_ONLY_SYNC],
    'ticketing.tag': [...READ_ONLY_SYNC],
  },
  limitations: [
    'Tickets are conversations; every conversation belongs to a mailbox, so project_id (a collection of type MAILBOX) is required on create; a patch of project_id moves the conversation.',
    'Status active ↔ OPEN, pending ↔ ON_HOLD, closed and spam → CLOSED (CLOSED writes closed); IN_PROGRESS is refused with 422.',
    'No priority, due date, accounts, parent tickets or completion time: priority, due_date, account_id, parent_ticket and completed_at are refused with 422.',
    'Ticket type is the conversation type (email, chat, phone), written on create only.',
    'The description is the first thread (a customer thread from the contact); a ticket without contact_id is created for the connection\'s user\'s own email as customer.',
    'One assignee (assignTo). Customers are contacts; users, teams, mailboxes (collections) and tags are read.',
    'Comments are threads: notes are private, replies public (from a user), customer threads are comments from a contact; attachments are sent inline (base64) with the thread.',
    'Batch creation creates the conversations one by one.',
    'Custom fields: the mailboxes\' custom fields (by field id); comments cannot carry custom fields.',
    'Conversations (with their threads) and customers sync incrementally with modifiedSince; Help Scout lists no deleted conversations, so deletions are found by the deletion check and full runs.',
  ],
};
