/**
 * Reads through the real server: how many statements a list and a get by id cost once the caches are warm,
 * field filters on lists (validated, exact, through their indexes), compressed answers, and caches that
 * forget a revoked key, a deleted connection or a new field mapping at once.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';
import { unifiedId } from '../../src/core/unified/ids';
import type { UnifiedInsert } from '../../src/store/unified.repo';

let server: TestServer;
let zendesk: ZendeskSimulator;
let hubspot: HubSpotSimulator;
let ticketToken: string;
let crmToken: string;
let ticketConnection: string;
let crmConnection: string;
const id = (connection: string, type: string, remote: string | number) => unifiedId(connection, type, String(remote));

/** Objects written straight to the store (no sync runs in this file, so nothing else queries meanwhile). */
async function store(connectionId: string, objectType: string, n: number, data: (i: number) => Record<string, unknown>) {
  const rows: UnifiedInsert[] = Array.from({ length: n }, (_, i) => ({
    id: id(connectionId, objectType, i),
    projectId: server.tenant.projectId,
    connectionId,
    objectType,
    remoteId: String(i),
    data: data(i),
    remoteData: { id: i, raw: `provider object ${i}` },
    remoteCreatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    remoteUpdatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  }));
  await server.omniport.services.objects.repo.upsert(rows);
}

/** The statements the server's database handle sends while `fn` runs. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = server.omniport.database.observeQueries((text) => seen.push(text));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}

const STATUSES = ['OPEN', 'IN_PROGRESS', 'ON_HOLD', 'CLOSED'];
const PRIORITIES = ['URGENT', 'HIGH', 'MEDIUM', 'LOW'];

beforeAll(async () => {
  zendesk = await startZendeskSimulator({ validateSpec: false });
  hubspot = await startHubSpotSimulator({ accessTokens: ['hs-reads'] });
  server = await startTestServer({ work: false });
  ticketToken = await connectZendesk(server, zendesk, { origin: 'reads' });
  crmToken = await connectHubSpot(server, hubspot, 'hs-reads', { origin: 'reads' });
  const connections = await server.call('GET', '/connections');
  ticketConnection = connections.body.data.find((c: { provider: string }) => c.provider === 'zendesk').id_connection;
  crmConnection = connections.body.data.find((c: { provider: string }) => c.provider === 'hubspot').id_connection;
  const user = (i: number) => id(ticketConnection, 'ticketing.user', i);
  await store(ticketConnection, 'ticketing.ticket', 200, (i) => ({
    name: `Ticket ${i}`,
    status: STATUSES[i % 4],
    priority: PRIORITIES[i % 4],
    description: [`Description of ticket ${i}`],
    due_date: null,
    type: 'incident',
    parent_ticket: null,
    tags: ['reads'],
    completed_at: null,
    assigned_to: i % 10 === 0 ? [user(1), user(2)] : [user(i % 3)],
    project_id: id(ticketConnection, 'ticketing.collection', i % 5),
    account_id: id(ticketConnection, 'ticketing.account', i % 7),
    contact_id: id(ticketConnection, 'ticketing.contact', i % 20),
  }));
  await store(crmConnection, 'crm.contact', 30, (i) => ({
    first_name: `Contact ${i}`,
    last_name: null,
    email_addresses: [{ email_address: `c${i}@acme.test`, email_address_type: 'WORK', owner_type: 'CONTACT' }],
    phone_numbers: [],
    addresses: [],
    company_id: id(crmConnection, 'crm.company', i % 3),
    user_id: id(crmConnection, 'crm.user', i % 2),
  }));
  await store(crmConnection, 'crm.deal', 30, (i) => ({
    name: `Deal ${i}`,
    description: null,
    amount: '100.00',
    currency: 'EUR',
    close_date: null,
    company_id: id(crmConnection, 'crm.company', i % 3),
    stage_id: id(crmConnection, 'crm.stage', i % 5),
    user_id: id(crmConnection, 'crm.user', i % 2),
    contact_ids: [],
  }));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await zendesk?.close();
  await hubspot?.close();
});

const tickets = (query: string, headers: Record<string, string> = {}) =>
  server.call('GET', `/ticketing/tickets${query}`, { headers: { 'x-connection-token': ticketToken, ...headers } });

describe('statements per request', () => {
  it('a list costs at most 2 statements and a get by id at most 2, once the caches are warm', async () => {
    await tickets('?limit=50'); // warms the key, the connection and its (empty) field mappings
    const listed = await statementsOf(() => tickets('?limit=50'));
    expect(listed.length, listed.join('\n')).toBeLessThanOrEqual(2);
    expect(listed.length).toBeGreaterThanOrEqual(1); // the page itself: the hook does see the query path

    const ticketId = id(ticketConnection, 'ticketing.ticket', 7);
    await server.call('GET', `/ticketing/tickets/${ticketId}`);
    let got: Awaited<ReturnType<typeof tickets>> | undefined;
    const read = await statementsOf(async () => (got = await server.call('GET', `/ticketing/tickets/${ticketId}`)));
    expect(got!.status).toBe(200);
    expect(got!.body.data.name).toBe('Ticket 7');
    expect(read.length, read.join('\n')).toBeLessThanOrEqual(2);
  });

  it('a list reads remote_data only when asked for (else the stored view)', async () => {
    const page = (statements: string[]) => statements.find((text) => text.includes('"unified_objects"'))!;
    const plain = page(await statementsOf(() => tickets('?limit=5')));
    expect(plain).toMatch(/"view_json"/); // the stored view, without remote_data
    expect(plain).not.toMatch(/"remote_data"/);
    const full = page(await statementsOf(() => tickets('?limit=5&remote_data=true')));
    expect(full).toMatch(/"remote_data"/);
    expect(full).not.toMatch(/'\{\}'::jsonb/);
    expect((await tickets('?limit=1&remote_data=true')).body.data[0].remote_data).toEqual({ id: 0, raw: 'provider object 0' });
    expect((await tickets('?limit=1')).body.data[0].remote_data).toBeUndefined();
  });
});

describe('plain pages (prepared statements)', () => {
  it('walks every ticket forwards, then backwards from the last page, through the same pages', async () => {
    const names = (res: Awaited<ReturnType<typeof tickets>>) => res.body.data.map((t: { name: string }) => t.name) as string[];
    const forwards: { names: string[]; prev: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const res = await tickets(`?limit=30${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      forwards.push({ names: names(res), prev: res.body.prev_cursor });
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(forwards.flatMap((p) => p.names)).toEqual(Array.from({ length: 200 }, (_, i) => `Ticket ${i}`));
    expect(forwards[0]!.prev).toBeNull();
    // From the last page back to the first, each previous page as it was seen going forwards.
    let prev = forwards.at(-1)!.prev;
    for (let i = forwards.length - 2; i >= 0; i--) {
      const res = await tickets(`?limit=30&cursor=${prev}`);
      expect(names(res)).toEqual(forwards[i]!.names);
      prev = res.body.prev_cursor;
    }
    expect(prev).toBeNull();
  });
});

describe('field filters on lists', () => {
  /** Every page of a filtered list, followed to the end. */
  async function all(path: string, token: string): Promise<{ name?: string; first_name?: string }[]> {
    const out: { name?: string; first_name?: string }[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await server.call('GET', `${path}${sep}limit=7${cursor ? `&cursor=${cursor}` : ''}`, { headers: { 'x-connection-token': token } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      out.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    return out;
  }
  const names = (objects: { name?: string; first_name?: string }[]) => objects.map((o) => o.name ?? o.first_name);
  const expected = (n: number, keep: (i: number) => boolean, prefix = 'Ticket') =>
    Array.from({ length: n }, (_, i) => i).filter(keep).map((i) => `${prefix} ${i}`);

  it('filters tickets by status, priority, assignee, collection, account and contact, combined with AND', async () => {
    expect(names(await all('/ticketing/tickets?status=ON_HOLD', ticketToken))).toEqual(expected(200, (i) => i % 4 === 2));
    expect(names(await all('/ticketing/tickets?priority=URGENT&status=OPEN', ticketToken))).toEqual(expected(200, (i) => i % 4 === 0));
    const user2 = id(ticketConnection, 'ticketing.user', 2);
    expect(names(await all(`/ticketing/tickets?assigned_to=${user2}`, ticketToken))).toEqual(expected(200, (i) => i % 10 === 0 || i % 3 === 2));
    const collection = id(ticketConnection, 'ticketing.collection', 3);
    expect(names(await all(`/ticketing/tickets?project_id=${collection}`, ticketToken))).toEqual(expected(200, (i) => i % 5 === 3));
    const account = id(ticketConnection, 'ticketing.account', 4);
    const contact = id(ticketConnection, 'ticketing.contact', 11);
    expect(names(await all(`/ticketing/tickets?account_id=${account}`, ticketToken))).toEqual(expected(200, (i) => i % 7 === 4));
    expect(names(await all(`/ticketing/tickets?contact_id=${contact}&status=CLOSED`, ticketToken))).toEqual(expected(200, (i) => i % 20 === 11 && i % 4 === 3));
    expect(names(await all(`/ticketing/tickets?account_id=${id(crmConnection, 'crm.company', 1)}`, ticketToken))).toEqual([]);
  });

  it('filters CRM contacts by email, company and owner, deals by company, stage and owner', async () => {
    expect(names(await all('/crm/contacts?email=c17@acme.test', crmToken))).toEqual(['Contact 17']);
    expect(names(await all('/crm/contacts?email=C17@acme.test', crmToken))).toEqual([]);
    const company = id(crmConnection, 'crm.company', 2);
    const owner = id(crmConnection, 'crm.user', 1);
    expect(names(await all(`/crm/contacts?company_id=${company}&user_id=${owner}`, crmToken))).toEqual(expected(30, (i) => i % 3 === 2 && i % 2 === 1, 'Contact'));
    const stage = id(crmConnection, 'crm.stage', 4);
    expect(names(await all(`/crm/deals?stage_id=${stage}`, crmToken))).toEqual(expected(30, (i) => i % 5 === 4, 'Deal'));
    expect(names(await all(`/crm/deals?company_id=${company}&user_id=${owner}`, crmToken))).toEqual(expected(30, (i) => i % 3 === 2 && i % 2 === 1, 'Deal'));
  });

  it('refuses bad filter values and filters a list does not have with a 400 naming them', async () => {
    const status = await tickets('?status=open');
    expect(status.status).toBe(400);
    expect(status.body.details.code).toBe('validation_failed');
    expect(status.body.message).toMatch(/status/);
    expect(status.body.message).toMatch(/OPEN, IN_PROGRESS, ON_HOLD, CLOSED/);
    const notAnId = await tickets('?assigned_to=42');
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.message).toMatch(/assigned_to/);
    const notHere = await server.call('GET', '/crm/stages?company_id=' + id(crmConnection, 'crm.company', 1), { headers: { 'x-connection-token': crmToken } });
    expect(notHere.status).toBe(400);
    expect(notHere.body.message).toMatch(/company_id/);
  });

  it('walks the filter indexes', async () => {
    const contact = id(ticketConnection, 'ticketing.contact', 11);
    const stage = id(crmConnection, 'crm.stage', 4);
    const plans: [index: string, connection: string, objectType: string, condition: string][] = [
      ['unified_objects_status_idx', ticketConnection, 'ticketing.ticket', `(data ->> 'status') = 'OPEN'`],
      ['unified_objects_contact_idx', ticketConnection, 'ticketing.ticket', `(data ->> 'contact_id') = '${contact}'`],
      ['unified_objects_stage_idx', crmConnection, 'crm.deal', `(data ->> 'stage_id') = '${stage}'`],
    ];
    // The planner prefers a sequential scan on a table this small: ask it what it would do without one.
    for (const [index, connection, objectType, condition] of plans) {
      const plan = await server.omniport.database.db.transaction(async (tx) => {
        await tx.execute(sql.raw('set local enable_seqscan = off'));
        return tx.execute(
          sql.raw(`explain (format json) select id from unified_objects where connection_id = '${connection}' and object_type = '${objectType}'
                     and remote_was_deleted = false and ${condition} order by seq, id limit 51`),
        );
      });
      expect(JSON.stringify(plan), JSON.stringify(plan)).toContain(index);
    }
  });
});

describe('compression', () => {
  it('compresses a page when the client accepts it, and only then', async () => {
    const headers = { 'x-api-key': server.tenant.apiKey, 'x-connection-token': ticketToken };
    const zipped = await request(`${server.url}/ticketing/tickets?limit=200`, { headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const compressed = Buffer.from(await zipped.body.arrayBuffer());
    const plain = await request(`${server.url}/ticketing/tickets?limit=200`, { headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const body = Buffer.from(await plain.body.arrayBuffer());
    expect(JSON.parse(gunzipSync(compressed).toString()).data).toEqual(JSON.parse(body.toString()).data);
    expect(compressed.length).toBeLessThan(body.length / 4);
  });
});
