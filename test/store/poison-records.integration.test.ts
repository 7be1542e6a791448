/**
 * Text PostgreSQL cannot store (U+0000, lone surrogates), typed by anyone into a provider's web form,
 * must neither stop a sync nor half-fail a write: it is stored as U+FFFD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storable } from '../../src/core/unified/records';
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
