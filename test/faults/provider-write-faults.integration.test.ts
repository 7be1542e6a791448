/**
 * Fault injection on provider writes, through the real HTTP server: a seeded proxy between Omniport and
 * the Zendesk and HubSpot simulators fails 20 % of write calls (500, 502, 503, reset, no answer), half of
 * them after the provider did the work. Every object is tagged with a unique name, so the simulators tell
 * what really happened. Asserted: no lost write (a success whose object does not exist), no duplicated
 * object, no silently unreported write (an error other than `outcome_unknown` for an object that exists),
 * and after a sync the store holds every provider object once. Every create sent again with its
 * Idempotency-Key gets its first answer back and creates nothing.
 */
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { syncAndWait } from '../support/sync-wait';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';

const SEED = 20261124;
const HS_TOKEN = 'hs-fault-token';

interface Outcome {
  /** The unique name given to the object. */
  tag: string;
  ok: boolean;
  code?: string;
  remoteId?: string;
}

interface Tally {
  writes: number;
  succeeded: number;
  lost: number;
  duplicated: number;
  unknownExisting: number;
  unknownAbsent: number;
  /** Errors other than outcome_unknown, by code. */
  definiteErrors: Record<string, number>;
  silentlyUnreported: number;
}

/** Compares what the API answered with what the provider holds. */
function tally(outcomes: Outcome[], countOf: (tag: string) => { count: number; ids: string[] }): Tally {
  const t: Tally = { writes: outcomes.length, succeeded: 0, lost: 0, duplicated: 0, unknownExisting: 0, unknownAbsent: 0, definiteErrors: {}, silentlyUnreported: 0 };
  for (const o of outcomes) {
    const { count, ids } = countOf(o.tag);
    if (count > 1) t.duplicated++;
    if (o.ok) {
      t.succeeded++;
      if (count === 0 || (o.remoteId !== undefined && !ids.includes(o.remoteId))) t.lost++;
    } else if (o.code === 'outcome_unknown') {
      if (count > 0) t.unknownExisting++;
      else t.unknownAbsent++;
    } else {
      t.definiteErrors[o.code ?? 'none'] = (t.definiteErrors[o.code ?? 'none'] ?? 0) + 1;
      if (count > 0) t.silentlyUnreported++;
    }
  }
  return t;
}

const single = (tag: string, res: { status: number; body: any }): Outcome => // eslint-disable-line @typescript-eslint/no-explicit-any
  res.status === 201 ? { tag, ok: true, remoteId: res.body.data.remote_id } : { tag, ok: false, code: res.body?.details?.code ?? `status ${res.status}` };

const elements = (tags: string[], res: { status: number; body: any }): Outcome[] => // eslint-disable-line @typescript-eslint/no-explicit-any
  tags.map((tag, k) => {
    const item = res.body?.data?.[k];
    if (!Array.isArray(res.body?.data)) return { tag, ok: false, code: res.body?.details?.code ?? `status ${res.status}` };
    return item?.id ? { tag, ok: true, remoteId: item.remote_id } : { tag, ok: false, code: item?.details?.code ?? item?.error };
  });

describe('provider writes under injected faults', { timeout: 600_000 }, () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  let hubspot: HubSpotSimulator;
  let zdProxy: FaultProxy;
  let hsProxy: FaultProxy;
  let zdToken: string;
  let hsToken: string;
  const zdOutcomes: Outcome[] = [];
  const hsOutcomes: Outcome[] = [];
  const figures: Record<string, unknown> = {};

  const zdTickets = (tag: string) => {
    const found = [...zendesk.state.tickets.values()].filter((t) => t.subject === tag && !t.deleted);
    return { count: found.length, ids: found.map((t) => String(t.id)) };
  };
  const hsContacts = (tag: string) => {
    const found = [...hubspot.state.objects.contacts.values()].filter((c) => c.properties.firstname === tag && !c.archived);
    return { count: found.length, ids: found.map((c) => c.id) };
  };
  const contact = (tag: string, withEmail: boolean) => ({
    first_name: tag,
    last_name: 'Fault',
    ...(withEmail ? { email_addresses: [{ email_address: `${tag}@faults.example`, email_address_type: 'WORK' }] } : {}),
  });

  beforeAll(async () => {
    zendesk = await startZendeskSimulator({ validateSpec: false });
    hubspot = await startHubSpotSimulator({ accessTokens: [HS_TOKEN] });
    zdProxy = await startFaultProxy({ target: zendesk.url, rate: 0.2, seed: SEED, holdMs: 2_500 });
    hsProxy = await startFaultProxy({ target: hubspot.url, rate: 0.2, seed: SEED + 1, holdMs: 2_500 });
    // A short provider timeout, so "no answer" faults cost two seconds each.
    server = await startTestServer({ httpTuning: { retryBaseMs: 10, maxRetries: 3, timeoutMs: 2_000, maxRetryAfterMs: 2_000 } });
    zdProxy.enabled = false;
    hsProxy.enabled = false;
    zdToken = await connectZendesk(server, zendesk, { origin: 'faults', baseUrl: zdProxy.url });
    hsToken = await connectHubSpot(server, hubspot, HS_TOKEN, { origin: 'faults', baseUrl: hsProxy.url });
    await syncAndWait(server, zdToken);
    await syncAndWait(server, hsToken);
    zdProxy.enabled = true;
    hsProxy.enabled = true;
  });

  afterAll(async () => {
    // The figures quoted in the closing note.
    console.log('fault-injection figures', JSON.stringify(figures, null, 1));
    await server?.close();
    await zdProxy?.close();
    await hsProxy?.close();
    await zendesk?.close();
    await hubspot?.close();
  });

  it('creates 300 single objects: none lost, none duplicated, every unknown outcome said', async () => {
    const limit = pLimit(8);
    const firstAnswers: { request: { path: string; headers: Record<string, string>; body: unknown }; res: { status: number; body: unknown } }[] = [];
    await Promise.all([
      ...Array.from({ length: 200 }, (_, i) =>
        limit(async () => {
          const tag = `fault-ticket-${i}`;
          const request = { path: '/ticketing/tickets', headers: { 'x-connection-token': zdToken, 'idempotency-key': `key-${tag}` }, body: { name: tag, description: 'injected faults' } };
          const res = await server.call('POST', request.path, request);
          zdOutcomes.push(single(tag, res));
          firstAnswers.push({ request, res });
        }),
      ),
      ...Array.from({ length: 100 }, (_, i) =>
        limit(async () => {
          const tag = `fault-contact-${i}`;
          const request = { path: '/crm/contacts', headers: { 'x-connection-token': hsToken, 'idempotency-key': `key-${tag}` }, body: contact(tag, i % 4 !== 0) };
          const res = await server.call('POST', request.path, request);
          hsOutcomes.push(single(tag, res));
          firstAnswers.push({ request, res });
        }),
      ),
    ]);
    const zdT = tally(zdOutcomes, zdTickets);
    const hsT = tally(hsOutcomes, hsContacts);
    figures.singleTickets = zdT;
    figures.singleContacts = hsT;
    for (const t of [zdT, hsT]) {
      expect(t.lost).toBe(0);
      expect(t.duplicated).toBe(0);
      expect(t.silentlyUnreported).toBe(0);
    }
    // Zendesk's idempotency key makes every ticket creation certain; HubSpot contacts with an email are found by it.
    expect(zdT.unknownExisting + zdT.unknownAbsent).toBe(0);
    expect(zdT.succeeded).toBe(200);

    // Every create sent again with its Idempotency-Key: the first answer (success or error), nothing created.
    const counts = [zendesk.state.tickets.size, hubspot.state.objects.contacts.size];
    const writesBefore = zdProxy.writes + hsProxy.writes;
    let replayed = 0;
    await Promise.all(
      firstAnswers.map(({ request, res }) =>
        limit(async () => {
          const again = await server.call('POST', request.path, request);
          if (again.status === res.status && JSON.stringify(again.body) === JSON.stringify(res.body)) replayed++;
        }),
      ),
    );
    figures.idempotentRetries = { sent: firstAnswers.length, sameAnswer: replayed };
    expect(replayed).toBe(firstAnswers.length);
    expect([zendesk.state.tickets.size, hubspot.state.objects.contacts.size]).toEqual(counts);
    expect(zdProxy.writes + hsProxy.writes).toBe(writesBefore);
  });

  it('creates 20 ticket batches and 30 contact batches: each element answers its real outcome', async () => {
    const ticketOutcomes: Outcome[] = [];
    const contactOutcomes: Outcome[] = [];
    const limit = pLimit(4);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, b) =>
        limit(async () => {
          const tags = Array.from({ length: 10 }, (_, k) => `fault-batch-${b}-ticket-${k}`);
          const res = await server.call('POST', '/ticketing/tickets/batch', {
            headers: { 'x-connection-token': zdToken },
            body: tags.map((name) => ({ name, description: 'batch under faults' })),
          });
          ticketOutcomes.push(...elements(tags, res));
        }),
      ),
      ...Array.from({ length: 30 }, (_, b) =>
        limit(async () => {
          const tags = Array.from({ length: 10 }, (_, k) => `fault-batch-${b}-contact-${k}`);
          const res = await server.call('POST', '/crm/contacts/batch', {
            headers: { 'x-connection-token': hsToken },
            body: tags.map((tag, k) => contact(tag, k % 5 !== 0)),
          });
          contactOutcomes.push(...elements(tags, res));
        }),
      ),
    ]);
    const zdT = tally(ticketOutcomes, zdTickets);
    const hsT = tally(contactOutcomes, hsContacts);
    figures.ticketBatches = zdT;
    figures.contactBatches = hsT;
    for (const t of [zdT, hsT]) {
      expect(t.lost).toBe(0);
      expect(t.duplicated).toBe(0);
      expect(t.silentlyUnreported).toBe(0);
    }
    // Only contacts without an email can stay unknown once HubSpot was asked by email.
    const unknownWithEmail = contactOutcomes.filter((o) => o.code === 'outcome_unknown' && !/-contact-[05]$/.test(o.tag));
    expect(unknownWithEmail).toEqual([]);
    zdOutcomes.push(...ticketOutcomes);
    hsOutcomes.push(...contactOutcomes);
  });

  it('stores every provider object once after the next sync (unknown outcomes reconciled)', async () => {
    zdProxy.enabled = false;
    hsProxy.enabled = false;
    figures.injected = { zendesk: zdProxy.injected.length, hubspot: hsProxy.injected.length, zendeskWrites: zdProxy.writes, hubspotWrites: hsProxy.writes };
    expect(zdProxy.injected.length + hsProxy.injected.length).toBeGreaterThan(50);
    await syncAndWait(server, zdToken);
    await syncAndWait(server, hsToken);
    const stored = async (objectType: string, field: string) =>
      (await server.sql(`select data->>'${field}' as tag, count(*)::int as n from unified_objects where object_type = $1 and not remote_was_deleted group by 1`, [objectType])) as {
        tag: string;
        n: number;
      }[];
    const tickets = new Map((await stored('ticketing.ticket', 'name')).map((r) => [r.tag, r.n]));
    const contacts = new Map((await stored('crm.contact', 'first_name')).map((r) => [r.tag, r.n]));
    for (const o of zdOutcomes) expect(tickets.get(o.tag) ?? 0, o.tag).toBe(zdTickets(o.tag).count);
    for (const o of hsOutcomes) expect(contacts.get(o.tag) ?? 0, o.tag).toBe(hsContacts(o.tag).count);
  });
});
