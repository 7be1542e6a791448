import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * Zoho CRM (REST API v8, https://www.zoho.com/crm/developer/docs/api/v8/). Connected through the hosted
 * connect page with OAuth 2.0 on the accounts server of the account's data centre (US `accounts.zoho.com`,
 * EU `.eu`, India `.in`, Australia `.com.au`, Japan `.jp`, Canada `zohocloud.ca`, Saudi Arabia `.sa`, United Kingdom `.uk`,
 * China `.com.cn`); the token answer's `api_domain` (`https://www.zohoapis.eu`, …) becomes the connection's
 * base URL, and renewals go back to the accounts server the flow used. `POST /connections` takes an access
 * token with the data centre's API domain as `base_url`.
 */
export const zohoManifest: ProviderManifest = {
  name: 'zoho',
  displayName: 'Zoho CRM',
  vertical: 'crm',
  authKind: 'oauth2',
  credentials: z
    .object({
      access_token: z.string().min(1).describe('An OAuth access token; give the data centre’s API domain (https://www.zohoapis.com, …) as base_url.'),
      refresh_token: z.string().min(1).optional().describe('OAuth only: renews the access token.'),
      api_domain: z.string().optional().describe('OAuth only: the API domain, as the token answer gave it.'),
    })
    .catchall(z.string()),
  defaultBaseUrl: 'https://www.zohoapis.com',
  oauth: {
    hosts: [
      // https://www.zoho.com/accounts/protocol/oauth/multi-dc.html — each data centre's accounts server and API domain.
      ...['com', 'eu', 'in', 'com.au', 'jp', 'uk', 'sa', 'com.cn'].flatMap((tld) => [`accounts.zoho.${tld}`, `www.zohoapis.${tld}`]),
      'accounts.zohocloud.ca',
      'www.zohoapis.ca',
    ],
    // Relative to the data centre's accounts server chosen on the connect page.
    authorizeUrl: '/oauth/v2/auth',
    tokenUrl: '/oauth/v2/token',
    // https://www.zoho.com/crm/developer/docs/api/v8/scopes.html — records of every module, the field
    // definitions (custom fields, stages) and the users. Zoho separates scopes with commas.
    scopes: ['ZohoCRM.modules.ALL', 'ZohoCRM.settings.fields.READ', 'ZohoCRM.users.READ'],
    scopeSeparator: ',',
    // A refresh token comes only with access_type=offline; prompt=consent issues one on every authorisation.
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    // Zoho's documentation of the server-based flow describes no PKCE.
    pkce: false,
    loginUrls: [
      { label: 'United States', url: 'https://accounts.zoho.com' },
      { label: 'Europe', url: 'https://accounts.zoho.eu' },
      { label: 'India', url: 'https://accounts.zoho.in' },
      { label: 'Australia', url: 'https://accounts.zoho.com.au' },
      { label: 'Japan', url: 'https://accounts.zoho.jp' },
      { label: 'Canada', url: 'https://accounts.zohocloud.ca' },
      { label: 'Saudi Arabia', url: 'https://accounts.zoho.sa' },
      { label: 'United Kingdom', url: 'https://accounts.zoho.uk' },
      { label: 'China', url: 'https://accounts.zoho.com.cn' },
    ],
    accountUrlFromToken: 'api_domain',
    loginUrlCredential: 'accounts_server',
  },
  // https://www.zoho.com/crm/developer/docs/api/v8/api-limits.html — API credits per rolling 24 hours, per
  // organization: 50,000 plus 250 (Standard), 500 (Professional), 1,000 (Enterprise) or 2,000 (Ultimate)
  // per user licence (Free edition: 5,000). Each call here costs one credit. The API domain serves every
  // organization of the data centre, so the budget is counted per connection. A spent budget answers 429.
  budgets: [{ name: 'daily api credits', requests: 50_000, perSeconds: 86_400, pacing: 'daily', scope: 'connection' }],
  capabilities: fullCrmCapabilities(),
  limitations: [
    'Contacts need a last name and deals a name, a stage and a closing date (Zoho requires them): without them a create is refused with 400 naming the field.',
    'A contact has two email addresses (Email, then Secondary_Email) and one phone number of each type (Phone WORK, Mobile MOBILE, Home_Phone HOME, Other_Phone OTHER, Fax FAX); its addresses are Mailing (WORK) and Other (OTHER).',
    'Companies are Accounts: no email addresses; phone numbers Phone (WORK) and Fax (FAX); addresses Billing (BILLING) and Shipping (SHIPPING).',
    'Deal amounts keep at most two decimals; currency is the deal’s Currency, which only multi-currency organizations have (elsewhere currency is refused with 422). A deal has at most one contact (Contact_Name).',
    'Stages are the values of the Deals Stage picklist; a stage’s remote_id is its actual value.',
    'A note has one parent: a deal, a contact or a company — give only one of deal_id, contact_id, company_id; it cannot move. Notes have no custom fields here.',
    'Tasks are linked to one contact (Who_Id) and to a company or a deal (What_Id). finished_date is read only (Closed_Time).',
    'Engagements are Calls (CALL) and Meetings, the Events module (MEETING); there are no EMAIL engagements. A call has at most one contact; a meeting’s contacts are its contact participants. The type of an engagement cannot change.',
    'Custom fields of contacts, companies (Accounts) and deals for field mapping.',
    'Incremental syncs read records modified since the last run (If-Modified-Since, walked by Modified_Time with a (time, ids) cursor) and the Deleted Records API, which lists deletions from the recycle bin (60 days) and permanent ones; Notes have no If-Modified-Since list and are read newest first down to the last run. Full syncs mark what they no longer see as deleted.',
  ],
};
