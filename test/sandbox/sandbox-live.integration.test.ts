import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { waitForSync } from '../support/sync-wait';
import { createLink, request } from '../support/connect-flow';

/**
 * A sandbox that shows its events (issue 30, row 5): the changes the sandbox makes on its own reach the events
 * feed within a minute (Zendesk's through its webhooks to Omniport's receiver, HubSpot's through a sync queued
 * after each change), and the connect page asks nothing of a sandbox. The change interval is 2 s here
 * (OMNIPORT_SANDBOX_CHANGE_SECONDS); the scheduled sync (60 minutes) never runs during the test.
 */
describe('the sandbox, live', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { OMNIPORT_SANDBOX: 'true', OMNIPORT_SANDBOX_CHANGE_SECONDS: '2' } });
  });
  afterAll(async () => server?.close());

  /** Every event after `cursor` (all of them without one), and the cursor to ask from next. */
  const eventsAfter = async (cursor: string | undefined) => {
    const events: { type: string; timestamp: string; data: Record<string, unknown> }[] = [];
    for (;;) {
      const page = await server.call('GET', `/events?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      events.push(...page.body.data);
      if (!page.body.next_cursor || page.body.data.length === 0) return { events, cursor };
      cursor = page.body.next_cursor;
    }
  };

  it('a change the sandbox makes on its own is an event within a minute, for Zendesk and HubSpot', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const tokens: Record<string, string> = {};
    const ids: Record<string, string> = {};
    for (const provider of ['sandbox_zendesk', 'sandbox_hubspot']) {
      const res = await server.call('POST', '/connections', { body: { provider, linked_user_origin_id: 'live' } });
      expect(res.status).toBe(201);
      tokens[provider] = res.body.data.connection_token;
      ids[provider] = res.body.data.id_connection;
    }
    for (const token of Object.values(tokens)) await waitForSync(server, token, started);
    let { cursor } = await eventsAfter(undefined);
    const changedAt = Date.now();

    // What the sandbox changed on its own since: nothing else writes to these accounts during the test.
    const accounts = server.omniport.sandbox!.accountsOf(server.tenant.projectId)!;
    const changedSince = (provider: string): Set<string> => {
      if (provider === 'sandbox_zendesk') return new Set([...accounts.zendesk.state.tickets.values()].filter((t) => t.updated_at >= changedAt).map((t) => String(t.id)));
      return new Set((['contacts', 'deals'] as const).flatMap((type) => accounts.hubspot.records(type).filter((r) => r.updatedAt >= changedAt).map((r) => r.id)));
    };
    const seen = new Map<string, number>();
    while (seen.size < 2 && Date.now() - changedAt < 60_000) {
      await new Promise((r) => setTimeout(r, 500));
      const next = await eventsAfter(cursor);
      cursor = next.cursor;
      for (const e of next.events) {
        const provider = Object.keys(ids).find((p) => e.data.id_connection === ids[p]);
        if (!provider || seen.has(provider) || !/^(ticketing\.ticket|crm\.contact|crm\.deal)\.(created|updated)$/.test(e.type)) continue;
        // An event that carries a change made after changedAt (the provider's time is in whole seconds).
        const object = e.data.object as { remote_id?: string; modified_at?: string } | undefined;
        if (Date.parse(e.timestamp) < changedAt || Date.parse(object?.modified_at ?? '') < changedAt - 1000) continue;
        if (changedSince(provider).has(String(object?.remote_id))) seen.set(provider, Date.now() - changedAt);
      }
    }
    expect([...seen.keys()].sort()).toEqual(['sandbox_hubspot', 'sandbox_zendesk']);
    for (const ms of seen.values()) expect(ms).toBeLessThan(60_000);
    console.log(`sandbox change → event (changes every 2 s): ${[...seen].map(([p, ms]) => `${p} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    // Zendesk's came as webhooks to this Omniport.
    const status = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': tokens.sandbox_zendesk! } });
    expect(status.body.data.real_time.last_received_at).not.toBeNull();
  });

  it('the connect page asks nothing of a sandbox, and connects it', async () => {
    const providers = await server.call('GET', '/providers');
    const listed = (providers.body.data as { name: string; credential_fields: string[] }[]).find((p) => p.name === 'sandbox_zendesk');
    expect(listed?.credential_fields).toEqual([]);

    const link = await createLink(server, { linked_user_origin_id: 'connect-page-sandbox' });
    const list = await request(link.url);
    expect(list.text).toMatch(/Sandbox Zendesk<\/span><br><span class="meta">Ticketing · Demo account/);
    const page = await request(`${link.url}/providers/sandbox_zendesk`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<input/);
    expect(page.text).not.toContain('Admin Center');
    expect(page.text).toContain('there is nothing to enter');
    const connected = await request(`${link.url}/providers/sandbox_zendesk/credentials`, { form: {} });
    expect(connected.status, connected.text).toBe(303);
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'sandbox_zendesk', status: 'valid' }]);
  });
});
