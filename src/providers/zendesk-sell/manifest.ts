import { z } from 'zod';
import { fullCrmCapabilities, READ_ONLY_SYNC, WRITE_AND_SYNC, type ProviderManifest } from '../manifest';

/**
 * Zendesk Sell (Sell Core API v2, https://developer.zendesk.com/api-reference/sales-crm/introduction/).
 * A personal access token (Sell → Settings → Integrations → OAuth → Access Tokens) or an OAuth access
 * token from the hosted connect page, sent as a bearer token to https://api.getbase.com.
 */
export const zendeskSellManifest: ProviderManifest = {
  name: 'zendesk-sell',
  displayName: 'Zendesk Sell',
  vertical: 'crm',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('Personal access token (Sell → Settings → Integrations → OAuth → Access Tokens).'),
  }),
  defaultBaseUrl: 'https://api.getbase.com',
  oauth: {
    hosts: ['api.getbase.com'],
    // https://developers.getbase.com/docs/rest/articles/oauth2/requests (authorization code flow)
    authorizeUrl: 'https://api.getbase.com/oauth2/authorize',
    tokenUrl: 'https://api.getbase.com/oauth2/token',
    scopes: ['read', 'write', 'profile'],
    // Sell documents the authorization-code grant without PKCE.
    pkce: false,
    // https://developers.getbase.com/docs/rest/articles/oauth2/requests — "Every request to the OAuth token
    // endpoint requires client authentication": HTTP basic with the client id and secret.
    clientAuth: 'basic',
  },
  // https://developer.zendesk.com/api-reference/sales-crm/rate-limits/ — 36,000 requests an hour per
  // access token; beyond it Sell answers 429.
  budgets: [{ name: 'access token', requests: 36_000, perSeconds: 3_600, scope: 'connection' }],
  capabilities: {
    ...fullCrmCapabilities(),
    // Calls are always listed newest first by made_at, with no change order: every run reads them whole.
    'crm.engagement': WRITE_AND_SYNC.filter((v) => v !== 'incremental_sync'),
    'crm.stage': [...READ_ONLY_SYNC],
  },
  limitations: [
    'No batch-create API: POST …/batch creates the objects one request each, answered in order.',
    'Contacts are Sell person contacts and companies are organization contacts; a person belongs to one organization (contact_id).',
    'A contact has one email address, phone numbers WORK (phone), MOBILE (mobile) and FAX (fax), and one address; a company the same, and no employee count.',
    'Deal amounts keep at most two decimals. A deal has one contact (its primary contact, a person or an organization); its company is the primary contact’s organization, set by Sell.',
    'Notes and tasks belong to one contact, company or deal. A task has one text (content): subject and content cannot differ.',
    'Engagements are calls (CALL), linked to one contact; meetings and emails are not in the Core API. A call’s contact is the only field Sell lets an update change.',
    'Custom fields of contacts, companies and deals for field mapping (by custom field name).',
    'Incremental syncs read each list newest first (sort_by=updated_at:desc) down to the last run; the Core API lists no deletions, so they are seen by full syncs (objects a full run no longer lists, confirmed gone one by one).',
  ],
};
