import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * HubSpot CRM (api.hubapi.com): CRM objects v3, associations v4, owners, pipelines and properties.
 * Connections authenticate with a private-app access token now; OAuth connections (hosted connect page)
 * store the same `access_token` with a `refresh_token` and `expires_at`.
 */
export const hubspotManifest: ProviderManifest = {
  name: 'hubspot',
  displayName: 'HubSpot',
  vertical: 'crm',
  authKind: 'oauth2',
  credentials: z
    .object({
      access_token: z.string().min(1).describe('A HubSpot private-app access token (Settings → Integrations → Private apps), or an OAuth access token.'),
      refresh_token: z.string().min(1).optional().describe('OAuth only: renews the access token.'),
      expires_at: z.string().optional().describe('OAuth only: when the access token expires (ISO 8601).'),
    })
    .catchall(z.string()),
  defaultBaseUrl: 'https://api.hubapi.com',
  oauth: {
    hosts: ['api.hubapi.com'],
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
    scopes: [
      'oauth',
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.companies.read',
      'crm.objects.companies.write',
      'crm.objects.deals.read',
      'crm.objects.deals.write',
      'crm.objects.owners.read',
      'crm.schemas.contacts.read',
      'crm.schemas.companies.read',
      'crm.schemas.deals.read',
    ],
    // HubSpot's (legacy public app) authorization server does not take PKCE parameters.
    pkce: false,
  },
  // HubSpot gives what is left of the rolling window (X-HubSpot-RateLimit-Remaining, -Max,
  // -Interval-Milliseconds, -Daily, -Daily-Remaining) but no reset time: a 429 is retried with
  // exponential backoff and jitter unless it carries Retry-After.
  rateLimitHeaders: { remaining: 'x-hubspot-ratelimit-remaining' },
  // https://developers.hubspot.com/docs/api/usage-details — 100 requests every 10 seconds per app and account
  // on Free and Starter (190 on Professional and Enterprise), and the CRM search endpoints 5 a second per account.
  // The daily limit (250,000 on Free and Starter, 500,000 and up on higher plans) is counted per UTC day,
  // spent as calls come; once spent, a sync waits for the next day (waiting_for_rate_limit).
  budgets: [
    { name: 'burst', requests: 100, perSeconds: 10, scope: 'connection' },
    { name: 'daily', requests: 250_000, perSeconds: 86_400, pacing: 'daily', scope: 'connection' },
    { name: 'search', requests: 5, perSeconds: 1, path: /\/search\/?$/, scope: 'connection' },
  ],
  capabilities: fullCrmCapabilities(),
  limitations: [
    'A contact has one writable email (email); further addresses (hs_additional_emails) are read-only in the CRM API: more than one email address on a write is refused with 422.',
    'HubSpot does not type email addresses or postal addresses: their types are accepted on writes but not stored, and read back as null.',
    'Phones are typed by property: contacts WORK → phone, MOBILE → mobilephone, FAX → fax; companies WORK → phone only. Other types are refused with 422.',
    'A contact has one address without a second street line (street_2 refused); a company has one address (street_2 → address2). Companies have no email addresses.',
    'Stages and users (owners) are read-only; pipelines are not a unified object (a stage carries pipeline_id and pipeline_name).',
    'Task finished_date is read-only (HubSpot sets hs_task_completion_date itself); task status PENDING is written as NOT_STARTED, and every open HubSpot status reads as PENDING.',
    'Engagements are HubSpot calls, meetings and emails; an engagement cannot change its type. Meetings have no direction, emails no end_time.',
    'Deletions: archived records are reported by every sync; records purged for good (GDPR delete) are detected by a full sync only.',
  ],
};
