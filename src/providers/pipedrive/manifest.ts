import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * Pipedrive: API v2 for persons, organizations, deals, activities, stages and field definitions;
 * API v1 where v2 has no such object (users, notes). A personal API token (`x-api-token`) now; OAuth
 * (`access_token`, sent as a bearer token) through the hosted connect page later.
 */
export const pipedriveManifest: ProviderManifest = {
  name: 'pipedrive',
  displayName: 'Pipedrive',
  vertical: 'crm',
  authKind: 'api_token',
  // The form and POST /connections take the API token; OAuth connections store `access_token` (and its
  // refresh token) from the hosted connect page, which the HTTP profile sends as a bearer token.
  credentials: z.strictObject({
    api_token: z.string().min(1).describe('Personal API token (Pipedrive → Personal preferences → API).'),
  }),
  // API-token requests may use the shared host; OAuth tokens come with the company's `api_domain`.
  defaultBaseUrl: 'https://api.pipedrive.com',
  oauth: {
    // The token answer's api_domain is the company's own `<company>.pipedrive.com`.
    hosts: ['*.pipedrive.com'],
    authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
    tokenUrl: 'https://oauth.pipedrive.com/oauth/token',
    scopes: ['base', 'contacts:full', 'deals:full', 'activities:full', 'users:read'],
    // Pipedrive's marketplace OAuth documents no PKCE support.
    pkce: false,
    // https://developers.pipedrive.com/docs/api/v1/Oauth — the token endpoint takes the client's id and secret
    // as HTTP basic (`Authorization: Basic base64(client_id:client_secret)`, required), not as form parameters.
    clientAuth: 'basic',
    // https://pipedrive.readme.io/docs/marketplace-oauth-authorization — the token answer's `api_domain`
    // (`https://<company>.pipedrive.com`) is where that company's API calls go with the access token.
    accountUrlFromToken: 'api_domain',
  },
  // `x-ratelimit-reset` is the number of seconds until the current window resets.
  rateLimitHeaders: { remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'seconds' },
  // https://pipedrive.readme.io/docs/core-api-concepts-rate-limiting — a 2-second burst window per token: 20
  // requests with an api_token on Essential, the lowest plan (up to 120; OAuth tokens 80 to 480), search 10.
  // The daily token budget (30,000 base tokens × plan multiplier × seats; the lowest, one Essential seat, here)
  // is counted per UTC day in tokens, each call charged its endpoint's cost: search 40, a list 20, one object
  // 2, a write 10 (Pipedrive's published costs for API v1; v2 endpoints cost less, so this errs on the safe side).
  // Once spent, a sync waits for the next day (waiting_for_rate_limit).
  budgets: [
    { name: 'burst', requests: 20, perSeconds: 2, scope: 'connection' },
    {
      name: 'daily',
      requests: 30_000,
      perSeconds: 86_400,
      pacing: 'daily',
      scope: 'connection',
      cost: {
        byEndpoint: [
          { path: /\/search$/, cost: 40 },
          { methods: ['GET'], path: /\/\d+$/, cost: 2 },
          { methods: ['GET'], cost: 20 },
        ],
        default: 10,
      },
    },
    { name: 'search', requests: 10, perSeconds: 2, path: /\/search$/, scope: 'connection' },
  ],
  // No batch-create API in Pipedrive: batch calls create one object per request (bounded parallelism).
  capabilities: fullCrmCapabilities(),
  limitations: [
    'No batch-create API: POST …/batch creates the objects one request each (at most 8 at a time per connection), answered in order.',
    'A contact has one postal address, and only when the Pipedrive company has contact sync enabled (otherwise addresses are refused with 422).',
    'A company has one address and no email addresses or phone numbers (refused with 422).',
    'Phone type FAX does not exist in Pipedrive (refused with 422). The first email/phone is the primary one.',
    'A deal has no description (refused with 422) and one contact person: contact_ids accepts at most one id.',
    'Deal amounts are JSON numbers in Pipedrive: decimals that a double cannot hold exactly (more than 15 significant digits) are refused with 422.',
    'Engagements have no direction in Pipedrive (refused with 422); task finished_date is set by Pipedrive when the task is marked done.',
    'Activity times have minute precision; an engagement lasts less than 24 hours.',
    'Custom fields (field mapping) on contacts, companies and deals only.',
    'Deletions of contacts, companies, tasks, engagements, notes and stages are detected by full syncs; deleted deals also by incremental syncs.',
  ],
};
