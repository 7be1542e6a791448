import { z } from 'zod';
import { READ_ONLY_SYNC, type ProviderManifest } from '../manifest';

/**
 * ServiceNow (Table API `/api/now/table/{table}`, Attachment API `/api/now/attachment`). Every customer has its
 * own instance (`https://<instance>.service-now.com`), so `base_url` is required. Connections authenticate with
 * HTTP Basic (an integration user's name and password) or OAuth 2.0 through the instance's own endpoints
 * (`/oauth_auth.do`, `/oauth_token.do`; an Application Registry entry of the instance holds the client id and
 * secret).
 *
 * Rate limits (Inbound REST API rate limiting): none is fixed by ServiceNow; an instance's administrators define
 * rules (per hour, for all users, users with a role, or one user, per REST resource) in `sys_rate_limit_rules`.
 * A request a rule covers is answered with `X-RateLimit-Limit` (requests per hour), `X-RateLimit-Reset` (UNIX
 * seconds) and `X-RateLimit-Rule`; one beyond it with 429 and `Retry-After` (seconds), which the HTTP client
 * waits out. ServiceNow sends no remaining-count header, and no budget is declared: there is no documented number
 * to pace to.
 */
export const servicenowManifest: ProviderManifest = {
  name: 'servicenow',
  displayName: 'ServiceNow',
  vertical: 'ticketing',
  authKind: 'basic',
  credentials: z.strictObject({
    username: z.string().min(1).describe('User name of the ServiceNow integration user (itil role, plus read access to sys_journal_field and sys_audit_delete).'),
    password: z.string().min(1).describe('Password of that user.'),
  }),
  // OAuth 2.0 authorization code against the instance (its base URL): System OAuth → Application Registry.
  // An instance is `<instance>.service-now.com`; an app registered on one instance may name it in its own URLs, and is then used for it only.
  oauth: { hosts: ['*.service-now.com'], authorizeUrl: '/oauth_auth.do', tokenUrl: '/oauth_token.do', scopes: [], pkce: false },
  capabilities: {
    'ticketing.ticket': ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.comment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.attachment': ['create', 'list', 'get', 'sync', 'incremental_sync'],
    'ticketing.user': [...READ_ONLY_SYNC],
    'ticketing.contact': [...READ_ONLY_SYNC],
    'ticketing.account': [...READ_ONLY_SYNC],
    'ticketing.team': [...READ_ONLY_SYNC],
  },
  limitations: [
    'Tickets are incidents. State New ↔ OPEN, In Progress ↔ IN_PROGRESS, On Hold ↔ ON_HOLD, Resolved, Closed and Canceled → CLOSED; CLOSED writes Resolved with a resolution code and notes; ON_HOLD writes the hold reason "Awaiting Caller".',
    'Priority is computed by ServiceNow from impact and urgency: Critical ↔ URGENT (impact 1, urgency 1), High ↔ HIGH (1, 2), Moderate ↔ MEDIUM (2, 2), Low and Planning → LOW (LOW writes 2, 3).',
    'Ticket type is the incident category (inquiry, software, hardware, network, database by default).',
    'One assignee (assigned_to); assignment groups are teams. Callers are sys_user records: every user is synced both as a user and as a contact, and contact_id is the caller.',
    'No tags or collections through Omniport: tags and project_id are refused with 422; completed_at is set by ServiceNow (write status CLOSED).',
    'Comments are journal entries: public comments are Additional comments, private ones Work notes. They are written as the connection\'s user: another user_id, contact_id and creator_type CONTACT are refused with 422.',
    'Attachments belong to the incident (Attachment API): a comment with files uploads them to its incident and answers them with the comment; sync lists them under the ticket.',
    'Batch creation creates the incidents one by one.',
    'Custom fields: the incident\'s u_ columns (sys_dictionary); comments cannot carry custom fields.',
    'Incidents, journal entries and attachments sync incrementally on sys_updated_on (journal entries on sys_created_on). Deleted incidents come from sys_audit_delete (incident is audited by default); a user without read access to it gets them from the deletion check and full runs.',
    'Users, group memberships, groups and companies are listed in full every sync.',
  ],
};
