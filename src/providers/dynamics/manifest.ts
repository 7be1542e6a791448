import { z } from 'zod';
import { fullCrmCapabilities, type ProviderManifest } from '../manifest';

/**
 * Microsoft Dynamics 365 Sales through the Dataverse Web API (OData v4, `/api/data/v9.2`,
 * https://learn.microsoft.com/power-apps/developer/data-platform/webapi/overview). Connected through the
 * hosted connect page with OAuth 2.0 on the Microsoft identity platform (authorization code with PKCE,
 * refresh tokens through `offline_access`): the linked user types the environment URL
 * (`https://<org>.crm.dynamics.com`), which is the connection's base URL and the resource the token is for
 * (scope `<environment>/.default`). A single-tenant app registration sets its tenant-specific authority
 * (`https://login.microsoftonline.com/<tenant id>/oauth2/v2.0/authorize|token`) as the OAuth app's
 * authorize and token URLs; the default `organizations` authority serves multi-tenant apps.
 * `POST /connections` takes an access token with the environment URL as `base_url`.
 */
export const dynamicsManifest: ProviderManifest = {
  name: 'dynamics',
  displayName: 'Microsoft Dynamics 365 Sales',
  vertical: 'crm',
  authKind: 'oauth2',
  accountUrlExample: 'https://your-org.crm.dynamics.com',
  credentials: z
    .object({
      access_token: z.string().min(1).describe('A Microsoft Entra access token for the environment; give the environment URL (https://<org>.crm.dynamics.com) as base_url.'),
      refresh_token: z.string().min(1).optional().describe('OAuth only: renews the access token.'),
    })
    .catchall(z.string()),
  oauth: {
    // Dataverse environments: `<org>.crm.dynamics.com`, `<org>.crm4.dynamics.com` … (the token endpoint is Microsoft's own).
    hosts: ['*.dynamics.com'],
    // https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow
    authorizeUrl: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/token',
    // The environment as resource (its origin, from the base URL typed on the connect page), and a refresh token.
    scopes: ['{base_url}/.default', 'offline_access'],
    pkce: true,
    // The identity platform issues a token for one resource: the refresh names the environment again.
    tokenRequestScope: true,
  },
  // https://learn.microsoft.com/power-apps/developer/data-platform/api-limits — service protection limits,
  // per user (the connection's) and web server: 6,000 requests in a 5-minute sliding window (also 20 minutes
  // of execution time and 52 concurrent requests). Beyond them Dataverse answers 429 with Retry-After.
  budgets: [{ name: 'service protection (requests per user)', requests: 6000, perSeconds: 300, scope: 'connection' }],
  capabilities: fullCrmCapabilities(),
  limitations: [
    'Contacts and companies have up to three email addresses (written in order to emailaddress1–3, read back as WORK, PERSONAL, OTHER). A contact has one phone number of each type (telephone1 WORK, telephone2 HOME, telephone3 OTHER, mobilephone MOBILE, fax FAX); its two addresses are address1 (WORK) and address2 (OTHER). Accounts likewise, with telephone1 WORK, telephone2 OTHER and fax, address1 BILLING and address2 SHIPPING.',
    'A company’s industry is an option set (industrycode): read as its label, written by label among the environment’s options (an unknown label is refused with 422).',
    'Deal amounts are estimatedvalue (Money) with at most two decimals; currency is the transaction currency by ISO code (one the environment has, else 422). A deal has one contact (parentcontactid): more than one contact_ids is refused with 422.',
    'Stages are the opportunity’s sales stage option set (salesstage: Qualify, Develop, Propose, Close by default); a stage’s remote_id is the option’s value.',
    'Notes are annotations with one parent (objectid): a deal, a contact or a company — give only one of deal_id, contact_id, company_id. Notes have no custom fields here.',
    'Tasks are task activities regarding one record (a contact, a company or a deal): give only one. Engagements are phone calls (CALL, with direction) and appointments (MEETING), regarding one contact or company; EMAIL engagements are refused with 422, and the type of an engagement cannot change.',
    'Custom columns (publisher-prefixed, IsCustomAttribute) of contacts, accounts and opportunities for field mapping.',
    'A contact belongs to one company (parentcustomerid); every record has an owner (user_id cannot be null).',
    'Incremental syncs follow the table’s change tracking (Prefer: odata.track-changes, @odata.deltaLink), which also reports deletions; change tracking must be on for each table (it is for these tables by default in Dynamics 365 Sales). Users and stages are read whole.',
  ],
};
