/**
 * Front application webhooks in through the real server, job queue and simulator (steps:
 * test/support/provider-webhooks.ts). Front's API cannot create them: the connection carries the Front app's
 * App secret, and the admin pastes `real_time_setup.url` as the app's webhook (Front checks it with a challenge).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createLink, request } from '../support/connect-flow';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { FrontHooks, frontHookHeaders, startFrontSimulator, type FrontSimulator } from '../simulators/front';

const APP_SECRET = FrontHooks.newAppSecret();
const ROTATED_SECRET = FrontHooks.newAppSecret();
let conversations: string[] = [];
let changes = 0;

describeWebhooksIn<FrontSimulator>({
  provider: 'front',
  mode: 'manual',
  async start() {
    const sim = await startFrontSimulator();
    conversations = sim.seedConversations(3);
    return sim;
  },
  async close(sim) {
    // Every request the adapter sent (and every answer) matched Front's OpenAPI description.
    if (sim.specViolations.length) throw new Error(`Front simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  async connect(server, sim) {
    const token = await connect(server, { provider: 'front', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.token, app_secret: APP_SECRET }, base_url: sim.url });
    const id = (await server.call('GET', '/connections')).body.data[0].id_connection as string;
    const connection = await server.call('GET', `/connections/${id}`);
    const setup = connection.body.data.real_time_setup as { url: string; signed_with: string };
    expect(setup.signed_with).toMatch(/App secret/);
    // The secret is never shown back.
    expect(JSON.stringify(connection.body)).not.toContain(APP_SECRET);
    // Saving the webhook with another app's secret: Omniport does not answer Front's challenge, Front refuses it.
    expect(await sim.hooks.install({ url: setup.url, secret: FrontHooks.newAppSecret() })).toBe(false);
    expect(await sim.hooks.install({ url: setup.url, secret: APP_SECRET })).toBe(true);
    return token;
  },
  registered: (sim) => sim.hooks.webhooks.map((h) => ({ url: h.url, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    // A teammate comments in Front's UI: the comment event reaches the app's webhook.
    const marker = `Commented in Front ${++changes} ${randomUUID().slice(0, 8)}`;
    const comment = sim.state.addComment(conversations[0]!, { body: marker, authorId: [...sim.state.teammates.keys()][0] ?? null });
    return { remoteId: comment.id, eventType: 'ticketing.comment.created', marker };
  },
  remove(sim) {
    // Moved to the trash in Front's UI (a `trash` event); the conversation comes back with status `deleted`.
    sim.state.trash(sim.state.conversation(conversations[1]!));
    return { remoteId: conversations[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: 'cnv_1',
  signsTime: true,
  body: (remoteId, deliveryId, at = new Date()) =>
    JSON.stringify({
      type: 'tag_added',
      authorization: { id: 'cmp_1a2b3' },
      payload: { _links: { self: `https://api2.frontapp.com/events/${deliveryId}` }, id: deliveryId, type: 'tag', emitted_at: at.getTime() / 1000, conversation: { id: remoteId } },
    }),
  sign: (secret, body, at) => frontHookHeaders(secret, body, at.getTime()),
  providerCalls: (sim) => sim.requests.length,
  // A change reads the conversation the event names (with its comments and messages), not the ticket stream's
  // conversation list and event feed.
  readsById: (sim) => ({
    reads: sim.requests.filter((r) => r.method === 'GET' && /^\/conversations\/[^/]+$/.test(r.path)).length,
    runs: sim.requests.filter((r) => r.method === 'GET' && (r.path === '/conversations' || r.path === '/events')).length,
  }),
  more(get) {
    it('a rotated App secret given when the connection is authorised again replaces the stored one (same address)', async () => {
      const { server, sim, connectionId } = get();
      const url = sim.hooks.webhooks[0]!.url;
      // The admin regenerates the app's secret in Front, then re-authorises through a magic link with it.
      const link = await createLink(server, { linked_user_origin_id: 'webhooks-in' });
      const res = await request(`${link.url}/providers/front/credentials`, { form: { base_url: sim.url, access_token: sim.token, app_secret: ROTATED_SECRET } });
      expect(res.status, res.text).toBe(303);
      expect((await server.call('GET', '/connections')).body.data.map((c: { id_connection: string }) => c.id_connection)).toEqual([connectionId]);
      expect((await server.call('GET', `/connections/${connectionId}`)).body.data.real_time_setup.url).toBe(url);
      const body = JSON.stringify({ type: 'tag_added', authorization: { id: 'cmp_1a2b3' }, payload: { id: `evt_rot_${randomUUID()}`, type: 'tag', conversation: { id: conversations[0] } } });
      const post = (secret: string) => fetch(url, { method: 'POST', headers: frontHookHeaders(secret, body, Date.now()), body }).then((r) => r.status);
      expect(await post(APP_SECRET)).toBe(401);
      expect(await post(ROTATED_SECRET)).toBe(202);
      sim.hooks.webhooks[0]!.secret = ROTATED_SECRET;
    });
  },
});
