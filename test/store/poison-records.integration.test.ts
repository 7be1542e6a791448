/**
 * Text PostgreSQL cannot store (U+0000, lone surrogates), typed by anyone into a provider's web form,
 * must neither stop a sync nor half-fail a write: it is stored as U+FFFD. A record the database still
 * refuses (an id too long for its index, a date out of its range) is skipped and named, the sync goes on.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderAdapter, UnifiedRecord } from '../../src/providers/types';
import { acmeTokenProvider } from '../support/connect-providers';
import { storable } from '../../src/store/storable';
import { startTestServer, type TestServer } from '../support/harness';
import { syncAndWait } from '../support/sync-wait';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';

const NUL = '\u0000';
const LONE = '\uD800';

describe('storable text', () => {
  it('replaces NUL and lone surrogates in values and keys, keeping surrogate pairs', () => {
    expect(storable({ [`k${NUL}`]: [`a${NUL}b`, `x${LONE}y`, '\uDC00z', 'ok 🎫'], n: 1, d: null })).toEqual({
      'k\uFFFD': ['a\uFFFDb', 'x\uFFFDy', '\uFFFDz', 'ok 🎫'],
      n: 1,
      d: null,
    });
    const clean = { a: 'plain' };
    expect(storable(clean)).toEqual(clean);
  });
});

describe('poison records from providers', () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  let hubspot: HubSpotSimulator;
  let zdToken: string;
  let hsToken: string;

  beforeAll(async () => {
    zendesk = await startZendeskSimulator({ validateSpec: false });
    hubspot = await startHubSpotSimulator({ accessTokens: ['hs-poison'] });
    server = await startTestServer();
    zdToken = await connectZendesk(server, zendesk, { origin: 'poison' });
    hsToken = await connectHubSpot(server, hubspot, 'hs-poison', { origin: 'poison' });
    await syncAndWait(server, zdToken);
    await syncAndWait(server, hsToken);
  });
  afterAll(async () => {
    await server?.close();
    await zendesk?.close();
    await hubspot?.close();
  });

  it('syncs a ticket and a contact carrying NUL and lone surrogates, and every stream ends idle', async () => {
    zendesk.createTicketRemotely({ subject: `poison${NUL}ticket`, comment: { body: `body ${LONE} with ${NUL}` } });
    hubspot.state.insert('contacts', { firstname: `poison${NUL}contact`, lastname: `half ${LONE}` });
    const zdStatus = await syncAndWait(server, zdToken);
    const hsStatus = await syncAndWait(server, hsToken);
    for (const s of [...zdStatus.streams, ...hsStatus.streams]) expect(s).toMatchObject({ status: 'idle' });

    const tickets = await server.call('GET', '/ticketing/tickets?limit=1000', { headers: { 'x-connection-token': zdToken } });
    expect(tickets.body.data.map((t: { name: string }) => t.name)).toContain('poison\uFFFDticket');
    const contacts = await server.call('GET', '/crm/contacts?limit=1000&remote_data=true', { headers: { 'x-connection-token': hsToken } });
    const poisoned = contacts.body.data.find((c: { first_name: string }) => c.first_name === 'poison\uFFFDcontact');
    expect(poisoned).toBeDefined();
    expect(poisoned.last_name).toBe('half \uFFFD');
  });

  it('keeps a client write that carries NUL consistent: refused before the provider, or created and stored', async () => {
    const before = hubspot.state.objects.contacts.size;
    const res = await server.call('POST', '/crm/contacts', { headers: { 'x-connection-token': hsToken }, body: { first_name: `client${NUL}poison` } });
    expect(res.status).toBeLessThan(500);
    if (res.status === 201) {
      expect(hubspot.state.objects.contacts.size).toBe(before + 1);
      expect(res.body.data.first_name).toBe('client\uFFFDpoison');
    } else {
      expect(res.status).toBe(400);
      expect(hubspot.state.objects.contacts.size).toBe(before);
    }
  });
});

describe('records the database refuses even after cleaning', () => {
  // A provider whose second page holds an id too long for the unique index (SQLSTATE 54000) and a
  // date outside PostgreSQL's range (22008), among good records.
  const record = (remoteId: string, updated = new Date('2026-01-01T00:00:00Z')): UnifiedRecord => ({
    objectType: 'crm.user',
    remoteId,
    data: { name: `user ${remoteId.slice(0, 8)}`, email: null },
    remoteData: { id: remoteId },
    remoteCreatedAt: updated,
    remoteUpdatedAt: updated,
  });
  const hugeId = randomBytes(9000).toString('base64');
  const pages = [
    [record('1'), record('2'), record('3')],
    [record('4'), record(hugeId), record('5'), record('6', new Date('-010000-01-01T00:00:00Z')), record('7')],
    [record('8'), record('9')],
  ];
  const poisonProvider: ProviderAdapter = {
    manifest: { ...acmeTokenProvider.manifest, name: 'poison-crm', displayName: 'Poison CRM', capabilities: { 'crm.user': ['sync'] } },
    http: acmeTokenProvider.http,
    verifyCredentials: async () => {},
    syncers: [
      {
        key: 'crm.user',
        objectTypes: ['crm.user'],
        incremental: false,
        reportsDeletions: false,
        async *run() {
          for (const [i, records] of pages.entries()) yield { records, resume: i < pages.length - 1 ? String(i + 1) : null };
        },
      },
    ],
  };

  it('skips them, names them in GET /sync/status, stores every other record and ends idle', async () => {
    const server = await startTestServer({ providers: new ProviderRegistry([poisonProvider]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const made = await server.call('POST', '/connections', {
        body: { provider: 'poison-crm', linked_user_origin_id: 'poison', credentials: { email: 'a@b.test', api_token: 't' }, base_url: 'http://127.0.0.1:9' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const status = await syncAndWait(server, made.body.data.connection_token);
      // The connection's first sync and the one asked for may both run the stream: read it once it is idle again.
      let stream = (await server.call('GET', '/sync/status', { headers: { 'x-connection-token': made.body.data.connection_token } })).body.data.streams[0];
      for (let i = 0; i < 100 && stream.status !== 'idle'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        stream = (await server.call('GET', '/sync/status', { headers: { 'x-connection-token': made.body.data.connection_token } })).body.data.streams[0];
      }
      expect(status.streams).toHaveLength(1);
      expect(stream).toMatchObject({ stream: 'crm.user', status: 'idle', last_error: null, records_in_run: 8, skipped_records: 2 });
      expect(stream.skipped).toEqual([
        { object_type: 'crm.user', remote_id: hugeId.slice(0, 200), sqlstate: '54000' },
        { object_type: 'crm.user', remote_id: '6', sqlstate: expect.stringMatching(/^22/) },
      ]);
      const stored = await server.sql(`select remote_id from unified_objects where object_type = 'crm.user' order by remote_id`);
      expect(stored.map((r) => r.remote_id)).toEqual(['1', '2', '3', '4', '5', '7', '8', '9']);
      // The next full run starts its count again.
      const again = await syncAndWait(server, made.body.data.connection_token, { full: true });
      expect(again.streams.find((s: { stream: string }) => s.stream === 'crm.user')).toMatchObject({ status: 'idle', skipped_records: 2 });
    } finally {
      await server.close();
    }
  });
});
