import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * Close (REST API v1, https://developer.close.com). An API key sent as the user name of HTTP basic auth,
 * or an OAuth access token from the hosted connect page (sent as a bearer token).
 */
export const closeManifest: ProviderManifest = {
  name: 'close',
  displayName: 'Close',
  vertical: 'crm',
  authKind: 'api_token',
  credentials: z.strictObject({
    api_key: z.string().min(1).describe('API key (Close → Settings → Developer → API Keys).'),
  }),
  defaultBaseUrl: 'https://api.close.com',
  oauth: {
    hosts: ['api.close.com'],
    authorizeUrl: 'https://app.close.com/oauth2/authorize/',
    tokenUrl: 'https://api.close.com/oauth2/token/',
    // Close grants every OAuth app `all.full_access offline_access` (a refresh token included) and its
    // authorization request documents no `scope` parameter: none is sent.
    scopes: [],
    // Close's OAuth documentation describes the plain authorization-code flow, without PKCE.
    pkce: false,
  },
  // https://developer.close.com/api/overview/rate-limits — limits are per endpoint group, per API key, and
  // three times that per organization; Close publishes no fixed figures, only its example of 20 requests a
  // second per key. The 429 answers carry Retry-After and are waited out. The `RateLimit: limit=…,
  // remaining=…, reset=…` header is one structured field, which the HTTP client does not parse.
  budgets: [{ name: 'api key', requests: 20, perSeconds: 1, scope: 'connection' }],
  // Close has no batch-create API: batch calls create one object per request.
  capabilities: fullCrmCapabilities(),
  limitations: [
    'No batch-create API: POST …/batch creates the objects one request each, answered in order.',
    'Companies are Close leads; a contact always belongs to a lead: a contact created without company_id gets a new lead of its own (Close creates it).',
    'Contacts have no postal addresses and no owner in Close (addresses and user_id are refused with 422); leads (companies) have addresses but no owner, industry, employee count, email addresses or phone numbers.',
    'A contact has one name in Close: first_name is its first word, last_name the rest.',
    'Deal amounts are whole cents in Close: amounts with more than two decimals are refused with 422. A deal (opportunity) belongs to a lead (company_id required) and has at most one contact.',
    'Notes and tasks belong to a lead (company_id, or a contact whose lead is used); they cannot be linked to a deal. Tasks have no separate content and no finished date.',
    'Engagements are calls (created and updated) and meetings (read only: Close creates meetings from calendar sync). Email engagements are not synced.',
    'Custom fields (field mapping) on contacts, companies and deals.',
    'Incremental syncs read Close’s event log (kept 30 days), which also reports deletions; full syncs mark what they no longer see as deleted.',
  ],
};
