import { z } from 'zod';
import { READ_ONLY_SYNC, type ProviderManifest } from '../manifest';

/**
 * Asana REST API 1.0 (`https://app.asana.com/api/1.0`): one host for every workspace. Tokens: a personal
 * access token (My settings → Apps → Developer apps) or OAuth 2.0 (authorization code with PKCE; access
 * tokens last an hour and are refreshed with the refresh token).
 *
 * Rate limits (Rate limits, https://developers.asana.com/docs/rate-limits): per token, minute-long windows —
 * 150 requests a minute in a free domain, 1,500 in a paid one; 50 concurrent GETs and 15 concurrent writes;
 * search 60 a minute. The budget below is the free domain's (the lowest). Asana sends no remaining-budget
 * headers: a spent window answers 429 with `Retry-After` (seconds), which the HTTP client honours.
 */
export const asanaManifest: ProviderManifest = {
  name: 'asana',
  displayName: 'Asana',
  vertical: 'ticketing',
  authKind: 'oauth2',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('Asana personal access token (My settings → Apps → Developer apps), or from OAuth.'),
    workspace_gid: z.string().regex(/^\d+$/).optional().describe('The workspace to connect (default: the first workspace of the token\'s user).'),
  }),
  defaultBaseUrl: 'https://app.asana.com/api/1.0',
  // OAuth (https://developers.asana.com/docs/oauth): consent at /-/oauth_authorize, code exchange at /-/oauth_token;
  // `default` asks for the permissions the app is registered with.
  oauth: { hosts: ['app.asana.com'], authorizeUrl: 'https://app.asana.com/-/oauth_authorize', tokenUrl: 'https://app.asana.com/-/oauth_token', scopes: ['default'], pkce: true },
  budgets: [{ name: 'token', requests: 150, perSeconds: 60, scope: 'connection' }],
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': [...READ_ONLY_SYNC],
    'ticketing.team': [...READ_ONLY_SYNC],
    'ticketing.tag': [...READ_ONLY_SYNC],
    'ticketing.collection': [...READ_ONLY_SYNC],
  },
  limitations: [
    'Tickets are the tasks of the workspace\'s projects (collections); a ticket is created in one project, so project_id is required.',
    'Status is completion only: OPEN ↔ not completed, CLOSED ↔ completed; IN_PROGRESS and ON_HOLD are refused with 422 (Asana tasks have no such states).',
    'No priority, contacts or accounts: priority, contact_id and account_id are refused with 422; completed_at is set by Asana (write status CLOSED).',
    'One assignee: assigned_to accepts at most one user. Tags are written by name (created in the workspace when missing).',
    'Ticket type is the task\'s resource_subtype (default_task, milestone, approval), chosen on create only.',
    'Comments are public stories of the task (no private comments: is_private true is refused with 422); their author is the token\'s user.',
    'Attachments belong to the task, not to a comment: a comment with files uploads them to its task and answers them, and sync lists them under the ticket.',
    'Batch creation goes through the Batch API, 10 tasks a request; an element Asana refuses fails alone.',
    'Custom fields: task custom fields of the workspace (text, number, enum by option name, date); comments cannot carry custom fields.',
    'Incremental sync reads each project\'s event stream (sync tokens); an expired token (412) re-reads that project in full. Deletions come from the events; a full run also infers them.',
    'Users, teams (organisations only), projects and tags are listed in full every sync; users carry no teams.',
  ],
};
