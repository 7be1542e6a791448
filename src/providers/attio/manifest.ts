import { z } from 'zod';
import { READ_ONLY_SYNC, type ProviderManifest, type Verb } from '../manifest';

/** Written one by one (Attio has no batch API) and read whole on every sync (Attio has no change filter). */
const WRITE_FULL_SYNC: readonly Verb[] = ['create', 'batch_create', 'update', 'list', 'get', 'sync'];
/** Attio's write requests: every POST, PATCH, PUT and DELETE but the record and entry queries, which read. */
export const ATTIO_WRITES = { methods: ['POST', 'PATCH', 'PUT', 'DELETE'], path: /^\/v2\/(?!.*\/query$)/ };

/**
 * Attio (REST API v2, https://docs.attio.com/rest-api). An access token (workspace API key, or an OAuth
 * token from the hosted connect page) sent as a bearer token.
 */
export const attioManifest: ProviderManifest = {
  name: 'attio',
  displayName: 'Attio',
  vertical: 'crm',
  authKind: 'api_token',
  credentials: z.strictObject({
    access_token: z.string().min(1).describe('An access token (Attio → Workspace settings → Developers → Access tokens), with record, object configuration, note, task and user management read-write scopes.'),
  }),
  defaultBaseUrl: 'https://api.attio.com',
  oauth: {
    hosts: ['api.attio.com'],
    authorizeUrl: 'https://app.attio.com/authorize',
    tokenUrl: 'https://app.attio.com/oauth/token',
    // Attio grants the scopes configured on the app; its authorize request takes none.
    scopes: [],
    pkce: false,
  },
  // https://docs.attio.com/rest-api/guides/rate-limiting — 100 read requests and 25 write requests a second
  // per workspace token; 429 answers carry Retry-After. Queries (`…/query`) are POSTs that read: reads.
  budgets: [
    { name: 'reads', requests: 100, perSeconds: 1, except: ATTIO_WRITES, scope: 'connection' },
    { name: 'writes', requests: 25, perSeconds: 1, ...ATTIO_WRITES, scope: 'connection' },
  ],
  capabilities: {
    'crm.contact': [...WRITE_FULL_SYNC],
    'crm.company': [...WRITE_FULL_SYNC],
    'crm.deal': [...WRITE_FULL_SYNC],
    'crm.stage': [...READ_ONLY_SYNC],
    'crm.user': [...READ_ONLY_SYNC],
    'crm.note': ['create', 'batch_create', 'list', 'get', 'sync'],
    'crm.task': [...WRITE_FULL_SYNC],
  },
  limitations: [
    'No incremental sync: Attio records carry no last-modified time and their query takes no change filter; every sync reads everything, and a complete run marks what it no longer sees as deleted. Between runs, changes come through Attio’s webhooks (registered with the connection when OMNIPORT_PUBLIC_URL is public) and are read by id.',
    'No batch API: POST …/batch creates the objects one request each. No engagements (Attio’s calls and meetings are not in its REST API).',
    'Contacts are people: no owner; email and phone types are not kept (read back as WORK); one address (primary_location, a country as ISO 3166 code).',
    'Companies have a name and one address only (industry, employee count, owner, emails and phones are refused with 422).',
    'Deals: name, stage and owner are required; no description and no close date; the currency is the one Attio keeps on the value attribute (another is refused with 422); at most four decimals.',
    'Notes belong to one record (a deal, a contact or a company) and cannot be updated; their author is the token. Tasks have one text (subject, which cannot change after creation) and no finished date.',
    'Custom attributes (by slug) of people, companies and deals for field mapping.',
  ],
};
