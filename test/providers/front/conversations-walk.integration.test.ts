/**
 * Front's List conversations (`GET /conversations`) answers "in reverse chronological order (most recently
 * updated first)", respecting the company's bump settings (core API reference, operation "List
 * conversations"), in pages chained by `page_token`. A conversation that gets a message while a full run
 * pages moves to the top, onto a page already read: the run lists neither it nor its comments and
 * attachments. A full run infers deletions, so it must ask Front about each of them before marking it
 * deleted — a ticket by `GET /conversations/{id}`, a comment or attachment through its conversation's
 * messages and comments. Through the sync engine, on the test database (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrontAdapter } from '../../../src/providers/front';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startFrontSimulator, type FrontSimulator } from '../../simulators/front';

let server: TestServer;
let sim: FrontSimulator;
let connectionId: string;

beforeAll(async () => {
  sim = await startFrontSimulator();
  server = await startTestServer({ providers: new ProviderRegistry([createFrontAdapter({ conversationPageSize: 2, pageSize: 2 })]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'front', linked_user_origin_id: 'conversations-walk', credentials: { access_token: sim.token }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const stored = async () =>
  (await server.sql(`select object_type, remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type like 'ticketing.%'`, [connectionId])).map((r) => ({
    type: String(r.object_type),
    id: String(r.remote_id),
    deleted: r.remote_was_deleted as boolean,
  }));

describe('front conversations: a conversation active while a full run pages', () => {
  it('is not marked deleted (nor its comments and attachments) by the run that did not list it; the trashed one is', async () => {
    // Six conversations: two messages and a comment each; the first (the least recently active, on the last
    // page) also has a comment with a file.
    const seed = { messagesPerConversation: 2, commentsPerConversation: 1 };
    const [quiet] = sim.seedConversations(1, seed);
    const author = [...sim.state.teammates.keys()][0]!;
    sim.state.addComment(quiet!, { body: 'see the log', authorId: author, files: [{ filename: 'log.txt', contentType: 'text/plain', content: Buffer.from('log') }] });
    const made = [quiet!, ...sim.seedConversations(5, seed)];
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.ticket', { full: true })).toMatchObject({ outcome: 'done', markedDeleted: 0 });
    const before = await stored();
    const idsOf = (id: string) => new Set([id, ...sim.state.commentsOf(id).flatMap((c) => [c.id, ...c.attachmentIds]), ...sim.state.messagesOf(id).map((m) => m.id)]);
    const ofQuiet = <T extends { id: string }>(rows: T[]) => rows.filter((r) => idsOf(quiet!).has(r.id));
    expect(ofQuiet(before).map((r) => r.type).sort()).toEqual(['ticketing.attachment', 'ticketing.comment', 'ticketing.comment', 'ticketing.comment', 'ticketing.comment', 'ticketing.ticket']);
    expect(before.filter((r) => r.deleted)).toEqual([]);

    // One conversation is trashed (the list leaves it out: gone). The oldest one (the last page) gets a
    // message before page 2 is read: it moves to page 1, already read.
    const trashed = made[3]!;
    sim.state.trash(sim.state.conversation(trashed));
    const fault = sim.faults.add({
      method: 'GET',
      path: '/conversations',
      when: (req) => req.query.has('page_token'),
      before: () => sim.state.receiveMessage({ conversationId: quiet!, from: 'customer0@example.com', text: 'Any news?' }),
    });
    sim.clearRequests();
    const run = await sync.run(connectionId, 'ticketing.ticket', { full: true });
    expect(fault.hits).toBe(1);
    expect(run).toMatchObject({ outcome: 'done' });
    const after = await stored();
    // Nothing of the active conversation is marked deleted (the new message is the next run's).
    expect(ofQuiet(after.filter((r) => before.some((b) => b.id === r.id))).filter((r) => r.deleted)).toEqual([]);
    // The trashed conversation is, and so are its comments.
    const trashedRows = after.filter((r) => idsOf(trashed).has(r.id));
    expect(trashedRows.length).toBe(4);
    expect(trashedRows.every((r) => r.deleted)).toBe(true);
    expect(run.markedDeleted).toBe(4);
    // Asked once each: the two unlisted conversations, and the active one's messages and comments once for its children.
    const asked = sim.requests.filter((r) => r.method === 'GET' && r.path === `/conversations/${quiet}`);
    expect(asked).toHaveLength(1);
    expect(sim.requests.filter((r) => r.method === 'GET' && r.path === `/conversations/${quiet}/comments`)).toHaveLength(1);
    expect(sim.specViolations).toEqual([]);

    // The next incremental run reads the moved conversation with its new message.
    const next = await sync.run(connectionId, 'ticketing.ticket');
    expect(next).toMatchObject({ outcome: 'done', mode: 'incremental' });
    expect(ofQuiet(await stored()).filter((r) => !r.deleted).length).toBe(7);
  });
});

describe('front conversations: a conversation active while a deletion check pages', () => {
  it('is listed (the check reads the top of the list again after its walk), and the trashed one is marked deleted', async () => {
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.ticket', { full: true })).toMatchObject({ outcome: 'done' });
    const live = [...sim.state.conversations.values()].filter((c) => !c.trashed).sort((a, b) => a.bumped_at - b.bumped_at);
    // The least recently active conversation (the list's last page) gets a message before the second page is read.
    const quiet = live[0]!.id;
    const trashed = live[1]!.id;
    sim.state.trash(sim.state.conversation(trashed));
    const fault = sim.faults.add({
      method: 'GET',
      path: '/conversations',
      when: (req) => req.query.has('page_token'),
      before: () => sim.state.receiveMessage({ conversationId: quiet, from: 'customer0@example.com', text: 'Still there?' }),
    });
    const check = await sync.deletions.run(connectionId, 'ticketing.ticket#deletions');
    expect(fault.hits).toBe(1);
    expect(check).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    const tickets = (await stored()).filter((r) => r.type === 'ticketing.ticket');
    expect(tickets.find((r) => r.id === quiet)?.deleted).toBe(false);
    expect(tickets.find((r) => r.id === trashed)?.deleted).toBe(true);
  });
});
