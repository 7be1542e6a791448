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
  // A comment (what `change` makes) is named by a `comment` event on its conversation; a conversation by a `tag` event.
  body: (remoteId, deliveryId, at = new Date()) =>
    JSON.stringify({
      type: remoteId.startsWith('com_') ? 'new_comment_added' : 'tag_added',
      authorization: { id: 'cmp_1a2b3' },
      payload: {
        _links: { self: `https://api2.frontapp.com/events/${deliveryId}` },
        id: deliveryId,
        emitted_at: at.getTime() / 1000,
        ...(remoteId.startsWith('com_')
          ? { type: 'comment', target: { _meta: { type: 'comment' }, data: { id: remoteId } }, conversation: { id: conversations[0] } }
          : { type: 'tag', conversation: { id: remoteId } }),
      },
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
    /** Front calls made for one change in Front: from the change until its read is saved, and a moment after (a stream run would start then). */
    const callsFor = async (act: () => void, saved: () => Promise<boolean>) => {
      const { sim } = get();
      const before = sim.requests.length;
      act();
      for (const end = Date.now() + 60_000; !(await saved()); ) {
        if (Date.now() > end) throw new Error('the change was not saved');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1500));
      return sim.requests
        .slice(before)
        .map((r) => `${r.method} ${r.path}`)
        .sort();
    };
    const stored = async (objectType: string, remoteId: string) => {
      const { server, connectionId } = get();
      const rows = await server.sql('select data, remote_was_deleted from unified_objects where connection_id = $1 and object_type = $2 and remote_id = $3', [connectionId, objectType, remoteId]);
      return rows[0] as { data: Record<string, unknown>; remote_was_deleted: boolean } | undefined;
    };

    it('a status change reads the conversation alone: one Front call, its description and inbox kept', async () => {
      const { sim } = get();
      const id = conversations[2]!;
      const before = (await stored('ticketing.ticket', id))!.data;
      expect(before.status).not.toBe('CLOSED');
      expect(before.description).toEqual([expect.stringContaining('Question')]);
      expect(before.project_id).toEqual(expect.any(String));
      const calls = await callsFor(
        () => sim.state.updateConversation(id, { status: 'archived' }),
        async () => (await stored('ticketing.ticket', id))?.data.status === 'CLOSED',
      );
      expect(calls).toEqual([`GET /conversations/${id}`]);
      const after = (await stored('ticketing.ticket', id))!.data;
      expect(after.description).toEqual(before.description);
      expect(after.project_id).toBe(before.project_id);
    });

    it('a comment event reads the conversation and that comment: two Front calls', async () => {
      const { sim } = get();
      const id = conversations[2]!;
      let comment = '';
      const calls = await callsFor(
        () => (comment = sim.state.addComment(id, { body: `Noted ${randomUUID()}`, authorId: [...sim.state.teammates.keys()][0] ?? null }).id),
        async () => Boolean(await stored('ticketing.comment', comment)),
      );
      expect(calls).toEqual([`GET /comments/${comment}`, `GET /conversations/${id}`]);
    });

    it('a message received reads the conversation and that message; a move reads its inboxes', async () => {
      const { sim } = get();
      const id = conversations[2]!;
      let message = '';
      const received = await callsFor(
        () => (message = sim.state.receiveMessage({ conversationId: id, from: 'customer2@example.com', text: `Any news? ${randomUUID()}` }).id),
        async () => Boolean(await stored('ticketing.comment', message)),
      );
      // Received in an archived conversation, Front reopens it too (a `reopen` event of the same burst).
      expect(received).toEqual([`GET /conversations/${id}`, `GET /messages/${message}`]);
      const before = (await stored('ticketing.ticket', id))!.data;
      const inbox = sim.state.addInbox(`Escalations ${randomUUID().slice(0, 6)}`);
      const moved = await callsFor(
        () => sim.state.updateConversation(id, { inbox_id: inbox.id }),
        async () => (await stored('ticketing.ticket', id))!.data.project_id !== before.project_id,
      );
      expect(moved).toEqual([`GET /conversations/${id}`, `GET /conversations/${id}/inboxes`]);
      expect((await stored('ticketing.ticket', id))!.data.description).toEqual(before.description);
    });

    it('a conversation not stored yet is read in full (its description and inbox come from its messages and inboxes)', async () => {
      const { sim } = get();
      let conversation = '';
      const calls = await callsFor(
        () =>
          (conversation = sim.state.receiveMessage({ inboxId: sim.state.conversation(conversations[0]!).inboxIds[0]!, from: 'newcomer@example.com', subject: 'First contact', text: 'Hello from a newcomer' }).conversationId),
        async () => Boolean(await stored('ticketing.ticket', conversation)),
      );
      expect(calls).toEqual([
        `GET /conversations/${conversation}`,
        `GET /conversations/${conversation}/comments`,
        `GET /conversations/${conversation}/inboxes`,
        `GET /conversations/${conversation}/messages`,
      ]);
      expect((await stored('ticketing.ticket', conversation))!.data).toMatchObject({ description: ['Hello from a newcomer'], project_id: expect.any(String) });
    });

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
