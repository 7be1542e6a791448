import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * Salesforce (REST API v59.0, https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/).
 * Connected through the hosted connect page with OAuth 2.0 (web server flow with PKCE) on the login host —
 * production `login.salesforce.com`, sandboxes `test.salesforce.com`, or the org's My Domain — after which
 * the token answer's `instance_url` is the connection's base URL. `POST /connections` takes an access token
 * with the org's instance URL as `base_url`.
 */
export const salesforceManifest: ProviderManifest = {
  name: 'salesforce',
  displayName: 'Salesforce',
  vertical: 'crm',
  authKind: 'oauth2',
  credentials: z
    .object({
      access_token: z.string().min(1).describe('An OAuth access token (session id) of the org; give the org’s instance URL as base_url.'),
      refresh_token: z.string().min(1).optional().describe('OAuth only: renews the access token.'),
      instance_url: z.string().optional().describe('OAuth only: the org’s instance URL, as the token answer gave it.'),
    })
    .catchall(z.string()),
  oauth: {
    // The fixed login hosts and My Domain (`<org>.my.salesforce.com`, sandboxes `<org>--<box>.sandbox.my.salesforce.com`), where instance_url lives too.
    hosts: ['login.salesforce.com', 'test.salesforce.com', '*.my.salesforce.com'],
    // Relative to the login host chosen on the connect page (production, sandbox or My Domain).
    authorizeUrl: '/services/oauth2/authorize',
    tokenUrl: '/services/oauth2/token',
    // `api` for the REST API, `refresh_token` for a refresh token (Salesforce issues none without it).
    scopes: ['api', 'refresh_token'],
    pkce: true,
    loginUrls: [
      { label: 'Production or Developer Edition', url: 'https://login.salesforce.com' },
      { label: 'Sandbox', url: 'https://test.salesforce.com' },
    ],
    // Orgs that sign in only through their My Domain (login.salesforce.com refused by the org's policy).
    typedLoginHost: { label: 'Or your My Domain address', example: 'https://your-org.my.salesforce.com' },
    accountUrlFromToken: 'instance_url',
  },
  // https://developer.salesforce.com/docs/atlas.en-us.salesforce_app_limits_cheatsheet.meta/salesforce_app_limits_cheatsheet/salesforce_app_limits_platform_api.htm
  // Total API requests per rolling 24 hours: Enterprise and Professional (with API) editions 100,000 plus
  // 1,000 per user licence; Developer Edition 15,000. Counted per org (the instance URL names the org).
  // Every answer reports the org's use in `Sforce-Limit-Info: api-usage=used/max`; when the limit is spent
  // Salesforce answers 403 REQUEST_LIMIT_EXCEEDED (waited out as a rate limit, see http.ts).
  budgets: [{ name: 'daily api requests', requests: 100_000, perSeconds: 86_400, pacing: 'daily', scope: 'account' }],
  // The org's own count, whoever spent it (other integrations too): once used reaches the limit, calls are
  // held (and answered 503 with Retry-After) for 15 minutes at a time, the window being a rolling 24 hours.
  rateLimitHeaders: { remaining: 'sforce-limit-info', usage: { pattern: /api-usage=(\d+)\/(\d+)/, holdMs: 15 * 60_000 } },
  capabilities: fullCrmCapabilities(),
  limitations: [
    'Contacts need a last name and deals a name, a stage and a close date (Salesforce requires them): without them a create is refused with 400 naming the field.',
    'A contact has one email address (Email, read back as WORK) and at most one phone number of each type (Phone WORK, MobilePhone MOBILE, HomePhone HOME, OtherPhone OTHER, Fax FAX); its two addresses are Mailing (WORK) and Other (OTHER).',
    'Companies are Accounts: no email addresses; phone numbers Phone (WORK) and Fax (FAX); addresses Billing (BILLING) and Shipping (SHIPPING).',
    'Deal amounts keep at most two decimals; currency is the opportunity’s CurrencyIsoCode, which only multi-currency orgs have (elsewhere currency is refused with 422). Deal contacts are OpportunityContactRole records.',
    'Stages are the org’s OpportunityStage values; a stage’s remote_id is its API name (the value of Opportunity.StageName).',
    'Notes are enhanced notes (ContentNote) where the org has Notes enabled, classic Notes otherwise; both are synced. A note has one parent: a deal, a contact or a company — give only one of deal_id, contact_id, company_id. A ContentNote belongs to the user who writes it (user_id is refused). Notes have no custom fields here.',
    'Tasks are Task records other than calls and emails; a task is linked to one contact and to either a company or a deal (WhatId). finished_date is read only (CompletedDateTime).',
    'Engagements are Events (MEETING) and Tasks with TaskSubtype Call or Email (CALL, EMAIL); an engagement has at most one contact; a call or email keeps a date only (ActivityDate) and its duration. The type of an engagement cannot change.',
    'Custom fields (__c) of contacts, companies (Accounts) and deals (Opportunities) for field mapping.',
    'Incremental syncs read SystemModstamp with a compound (timestamp, Id) cursor through queryAll, which also reports deletions (records in the recycle bin, 15 days); full syncs mark what they no longer see as deleted.',
  ],
};
