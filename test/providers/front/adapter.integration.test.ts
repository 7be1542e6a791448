/**
 * The Front adapter driven directly (no Omniport server, no database) against the Front simulator:
 * creates (discussion, task, message to a contact), updates, comments and replies with attachments,
 * refusals, and every syncer run to the last page, full then incremental, with spec validation.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createFrontAdapter } from '../../../src/providers/front';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, TicketWrite, UnifiedRecord } from '../../../src/providers/types';
import { formatViolation } from '../../support/openapi-validator';
import { startFrontSimulator, type FrontSimulator } from '../../simulators/front';

const ids = idFactory('conn-1');

function context(sim: FrontSimulator, adapter: ProviderAdapter, token = sim.token, connectionId = 'conn-1'): AdapterContext {
  const credentials = { access_token: token };
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 3,
    maxRetryAfterMs: 2_000,
  });
  return { connectionId, baseUrl: sim.url, credentials, http, ids };
}

async function collect(syncer: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of syncer.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] => batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

function expectNoSpecViolations(sim: FrontSimulator) {
  if (!sim.specAvailable) {
    console.warn('front core-api.json not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a failure').toBeInstanceOf(AppError);
  return err as AppError;
}

const file = (name: string, text: string, type = 'text/plain') => ({ fileName: name, contentType: type, content: Buffer.from(text) });

describe('front adapter: writes', () => {
  let sim: FrontSimulator;
  let ctx: AdapterContext;
  const adapter = createFrontAdapter({ messagePollIntervalMs: 5, messageTimeoutMs: 2_000 });
  const ops = adapter.ticketing!;
  const seed = () => sim.seed!;

  beforeAll(async () => {
    sim = await startFrontSimulator();
    ctx = context(sim, adapter);
  });
  afterAll(async () => {
    expectNoSpecViolations(sim);
    await sim?.close();
  });

  it('verifies credentials, and refuses an unknown token with 401', async () => {
    await expect(adapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    const err = await adapter.verifyCredentials(context(sim, adapter, 'wrong', 'conn-bad')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(401);
    expect((err as ProviderError).message).toContain('Invalid token');
  });

  it('creates a discussion in an inbox with tags (creating unknown ones), assignee, custom fields, later comments and status', async () => {
    const r = await ops.createTicket(ctx, {
      name: 'Printer on fire',
      description: ['It started smoking.', 'Then flames.'],
      comment: ['Calling the fire brigade.'],
      project_id: seed().supportInbox,
      tags: ['billing', 'hardware'],
      assigned_to: [seed().sam],
      status: 'CLOSED',
      customFields: [
        { remoteFieldId: 'Order number', value: 'ORD-1' },
        { remoteFieldId: 'Renewal date', value: '2030-01-15T10:00:00.000Z' },
      ],
    });
    const c = sim.state.conversation(r.record.remoteId);
    expect(c).toMatchObject({ type: 'discussion', subject: 'Printer on fire', inboxIds: [seed().supportInbox], assigneeId: seed().sam, archived: true });
    expect(c.tagIds.map((t) => sim.state.tags.get(t)!.name).sort()).toEqual(['billing', 'hardware']);
    expect(sim.state.tagByName('hardware')).toBeDefined();
    expect(c.custom_fields).toEqual({ 'Order number': 'ORD-1', 'Renewal date': Date.parse('2030-01-15T10:00:00.000Z') / 1000 });
    expect(sim.state.commentsOf(c.id).map((x) => x.body).sort()).toEqual(['Calling the fire brigade.', 'It started smoking.\n\nThen flames.']);
    expect(r.record.data).toMatchObject({
      name: 'Printer on fire',
      status: 'CLOSED',
      type: 'discussion',
      description: ['It started smoking.\n\nThen flames.'],
      project_id: ids('ticketing.collection', seed().supportInbox),
      assigned_to: [ids('ticketing.user', seed().sam)],
      contact_id: null,
    });
    expect((r.record.data.tags as string[]).sort()).toEqual(['billing', 'hardware']);
    expect(r.related?.filter((x) => x.objectType === 'ticketing.comment')).toHaveLength(2);
  });

  it('shares a discussion without an inbox with its assignee', async () => {
    const r = await ops.createTicket(ctx, { name: 'Private', description: ['Just us'], assigned_to: [seed().alex] });
    expect(sim.state.conversation(r.record.remoteId)).toMatchObject({ teammateIds: [seed().alex], inboxIds: [], assigneeId: seed().alex });
    expect(r.record.data).toMatchObject({ project_id: null, status: 'IN_PROGRESS' });
  });

  it('creates a task with its description and due date', async () => {
    const r = await ops.createTicket(ctx, { name: 'Call Casey back', type: 'task', description: ['About the refund'], due_date: '2031-03-01T09:00:00.000Z', project_id: seed().salesInbox });
    expect(sim.state.conversation(r.record.remoteId)).toMatchObject({ type: 'task', description: 'About the refund', due_at: Date.parse('2031-03-01T09:00:00.000Z') / 1000 });
    expect(r.record.data).toMatchObject({ type: 'task', description: ['About the refund'], due_date: '2031-03-01T09:00:00.000Z' });
  });

  it('sends a message to a contact from the inbox channel, without archiving, and waits for Front to create it', async () => {
    const r = await ops.createTicket(ctx, {
      name: 'Your refund',
      description: ['Hello Casey,', 'your refund is on its way.'],
      contact_id: seed().casey,
      project_id: seed().supportInbox,
      tags: ['vip'],
      assigned_to: [seed().alex],
      customFields: [{ remoteFieldId: 'Escalated', value: true }],
    });
    const c = sim.state.conversation(r.record.remoteId);
    expect(c).toMatchObject({ type: 'conversation', archived: false, assigneeId: seed().alex, channelId: seed().supportChannel, custom_fields: { Escalated: true } });
    const [message] = sim.state.messagesOf(c.id);
    expect(message!.recipients.find((x) => x.role === 'to')).toMatchObject({ handle: 'casey@customer.example' });
    expect(message!.body).toBe('<p>Hello Casey,</p><p>your refund is on its way.</p>');
    expect(r.record.data).toMatchObject({
      type: 'conversation',
      status: 'IN_PROGRESS',
      tags: ['vip'],
      contact_id: ids('ticketing.contact', seed().casey),
      description: ['Hello Casey,\n\nyour refund is on its way.'],
    });
    const sent = sim.requests.find((q) => q.method === 'POST' && q.path === `/channels/${seed().supportChannel}/messages`);
    expect(sent?.body).toMatchObject({ to: ['casey@customer.example'], options: { archive: false } });
    expect(sent?.headers.authorization).toBe('Bearer [redacted]');
  });

  it('refuses before writing anything: unknown custom field, over-long tag, inbox without channel', async () => {
    const before = sim.state.conversations.size;
    const cf = await failure(ops.createTicket(ctx, { name: 'x', description: ['y'], project_id: seed().supportInbox, customFields: [{ remoteFieldId: 'Nope', value: 1 }] }));
    expect(cf.details.field).toBe('field_mappings');
    const tag = await failure(ops.createTicket(ctx, { name: 'x', description: ['y'], project_id: seed().supportInbox, tags: ['t'.repeat(65)] }));
    expect(tag.details.field).toBe('tags');
    const channel = await failure(ops.createTicket(ctx, { name: 'x', description: ['y'], project_id: seed().salesInbox, contact_id: seed().casey }));
    expect(channel.details.field).toBe('project_id');
    expect(sim.state.conversations.size).toBe(before);
  });

  it('answers Front refusals as provider errors with Front\'s message', async () => {
    const err = await failure(ops.createTicket(ctx, { name: 'x', description: ['y'], project_id: 'inb_doesnotexist' }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(404);
    expect(err.message).toContain('Unknown inbox');
  });

  it('updates assignee, tags, inbox, status and custom fields, keeping the custom fields it does not change', async () => {
    const created = await ops.createTicket(ctx, {
      name: 'Update me',
      description: ['x'],
      project_id: seed().supportInbox,
      customFields: [{ remoteFieldId: 'Order number', value: 'ORD-9' }],
    });
    const id = created.record.remoteId;
    let r = await ops.updateTicket(ctx, id, {
      assigned_to: [seed().sam],
      tags: ['vip'],
      project_id: seed().salesInbox,
      status: 'ON_HOLD',
      customFields: [{ remoteFieldId: 'Escalated', value: true }],
    });
    expect(sim.state.conversation(id)).toMatchObject({ assigneeId: seed().sam, inboxIds: [seed().salesInbox], custom_fields: { 'Order number': 'ORD-9', Escalated: true } });
    expect(r.record.data).toMatchObject({ status: 'ON_HOLD', tags: ['vip'], project_id: ids('ticketing.collection', seed().salesInbox) });

    r = await ops.updateTicket(ctx, id, { status: 'IN_PROGRESS' });
    expect(r.record.data).toMatchObject({ status: 'IN_PROGRESS' });
    r = await ops.updateTicket(ctx, id, { status: 'CLOSED' });
    expect(sim.state.conversation(id).archived).toBe(true);
    expect(r.record.data).toMatchObject({ status: 'CLOSED' });
    r = await ops.updateTicket(ctx, id, { status: 'OPEN', assigned_to: [], tags: [] });
    expect(r.record.data).toMatchObject({ status: 'OPEN', assigned_to: [], tags: [] });

    const refused: Array<[TicketWrite, string]> = [
      [{ name: 'Renamed' }, 'name'],
      [{ description: ['new'] }, 'description'],
      [{ status: 'IN_PROGRESS' }, 'status'],
      [{ priority: 'HIGH' }, 'priority'],
      [{ type: 'task' }, 'type'],
    ];
    for (const [patch, field] of refused) {
      expect((await failure(ops.updateTicket(ctx, id, patch))).details.field).toBe(field);
    }
  });

  it('updates a task description and due date', async () => {
    const created = await ops.createTicket(ctx, { name: 'Task', type: 'task', project_id: seed().salesInbox });
    const r = await ops.updateTicket(ctx, created.record.remoteId, { description: ['Now with details'], due_date: '2032-01-01T00:00:00.000Z' });
    expect(r.record.data).toMatchObject({ description: ['Now with details'], due_date: '2032-01-01T00:00:00.000Z' });
  });

  it('adds an internal comment with attachments (multipart) as a teammate', async () => {
    const r = await ops.createComment(ctx, {
      ticket_id: seed().inboundConversation,
      body: 'Warehouse says Tuesday.',
      user_id: seed().sam,
      files: [file('notes.txt', 'hello'), file('log.json', '{"a":1}', 'application/json')],
    });
    const stored = sim.state.comments.get(r.record.remoteId)!;
    expect(stored).toMatchObject({ body: 'Warehouse says Tuesday.', authorId: seed().sam });
    expect(stored.attachmentIds.map((a) => sim.state.attachments.get(a)!.content.toString())).toEqual(['hello', '{"a":1}']);
    expect(r.record.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', seed().sam) });
    expect(r.related?.map((a) => a.data.file_name)).toEqual(['notes.txt', 'log.json']);
    const sent = sim.requests.find((q) => q.method === 'POST' && q.path === `/conversations/${seed().inboundConversation}/comments` && q.headers['content-type']?.startsWith('multipart/'));
    expect(sent).toBeDefined();
  });

  it('replies with a message (is_private false) that keeps the conversation open, with attachments', async () => {
    const r = await ops.createComment(ctx, {
      ticket_id: seed().inboundConversation,
      body: 'It ships Tuesday.',
      is_private: false,
      user_id: seed().sam,
      files: [file('label.txt', 'tracking 123')],
    });
    const m = sim.state.messages.get(r.record.remoteId)!;
    expect(m).toMatchObject({ is_inbound: false, authorId: seed().sam, text: 'It ships Tuesday.', body: '<p>It ships Tuesday.</p>' });
    expect(sim.state.conversation(seed().inboundConversation).archived).toBe(false);
    expect(r.record.data).toMatchObject({ is_private: false, creator_type: 'USER', body: 'It ships Tuesday.', html_body: '<p>It ships Tuesday.</p>' });
    expect(r.related?.map((a) => a.data.file_name)).toEqual(['label.txt']);
  });

  it('writes and reads back a comment holding an out-of-range character reference (was a 500)', async () => {
    const r = await ops.createComment(ctx, { ticket_id: seed().inboundConversation, html_body: '<p>a &#1114112; b &eacute;</p>', is_private: false, files: [] });
    expect(r.record.data).toMatchObject({ body: 'a \ufffd b é' });
  });

  it('refuses a message on a discussion, a contact author and too many bytes', async () => {
    const d = await ops.createTicket(ctx, { name: 'Internal', description: ['x'], project_id: seed().supportInbox });
    expect((await failure(ops.createComment(ctx, { ticket_id: d.record.remoteId, body: 'hi', is_private: false, files: [] }))).details.field).toBe('is_private');
    expect((await failure(ops.createComment(ctx, { ticket_id: d.record.remoteId, body: 'hi', contact_id: seed().casey, files: [] }))).details.field).toBe('contact_id');
    const big = { fileName: 'big.bin', contentType: 'application/octet-stream', content: Buffer.alloc(25 * 1024 * 1024 + 1) };
    expect((await failure(ops.createComment(ctx, { ticket_id: d.record.remoteId, body: 'hi', files: [big] }))).details.field).toBe('attachments');
  });

  it('answers a message Front never creates with a timeout', async () => {
    const slow = createFrontAdapter({ messagePollIntervalMs: 5, messageTimeoutMs: 60 });
    sim.state.messageDelayMs = 10_000;
    try {
      const err = await failure(slow.ticketing!.createComment(context(sim, slow), { ticket_id: seed().inboundConversation, body: 'x', is_private: false, files: [] }));
      expect(err.code).toBe('provider_timeout');
    } finally {
      sim.state.messageDelayMs = 20;
      sim.state.flushPending();
    }
  });
});

describe('front adapter: statuses without ticketing', () => {
  let sim: FrontSimulator;
  let ctx: AdapterContext;
  const adapter = createFrontAdapter({ messagePollIntervalMs: 5 });

  beforeAll(async () => {
    sim = await startFrontSimulator({ ticketing: false });
    ctx = context(sim, adapter);
  });
  afterAll(async () => {
    expectNoSpecViolations(sim);
    await sim?.close();
  });

  it('archives and reopens, and refuses ON_HOLD', async () => {
    const created = await adapter.ticketing!.createTicket(ctx, { name: 'x', description: ['y'], project_id: sim.seed!.supportInbox });
    const id = created.record.remoteId;
    expect((await adapter.ticketing!.updateTicket(ctx, id, { status: 'CLOSED' })).record.data.status).toBe('CLOSED');
    expect(sim.state.conversation(id).archived).toBe(true);
    expect((await adapter.ticketing!.updateTicket(ctx, id, { status: 'OPEN' })).record.data.status).toBe('OPEN');
    expect((await failure(adapter.ticketing!.updateTicket(ctx, id, { status: 'ON_HOLD' }))).details.field).toBe('status');
    const patches = sim.requests.filter((q) => q.method === 'PATCH').map((q) => q.body);
    expect(patches).toEqual([{ status: 'archived' }, { status: 'open' }]);
  });
});

describe('front adapter: sync', () => {
  let sim: FrontSimulator;
  let ctx: AdapterContext;
  const adapter = createFrontAdapter({ pageSize: 2, conversationPageSize: 3, eventPageSize: 4, messagePollIntervalMs: 5 });
  const syncer = (key: string) => adapter.syncers.find((s) => s.key === key)!;
  const seed = () => sim.seed!;
  let t0: number;

  beforeEach(async () => {
    sim = await startFrontSimulator();
    ctx = context(sim, adapter);
    const st = sim.state;
    // A bigger company: more contacts, tags, accounts and conversations than one page holds.
    for (let i = 0; i < 5; i++) st.addContact({ name: `Contact ${i}`, handles: [{ handle: `c${i}@example.com`, source: 'email' }] });
    const acc = st.addAccount({ name: 'Second Co', contactIds: [[...st.contacts.values()][1]!.id] });
    void acc;
    for (let i = 0; i < 3; i++) st.addTag(`tag-${i}`);
    for (let i = 0; i < 10; i++) {
      st.receiveMessage({ inboxId: seed().supportInbox, from: `c${i % 5}@example.com`, subject: `Question ${i}`, text: `Body ${i}` });
    }
    const disc = st.createDiscussion({ type: 'discussion', subject: 'Team chat', inbox_id: seed().salesInbox, comment: { body: 'Kick-off', author_id: seed().alex } });
    st.addComment(disc.id, { body: 'with a file', authorId: seed().sam, files: [{ filename: 'plan.txt', contentType: 'text/plain', content: Buffer.from('plan') }] });
    const trashed = st.receiveMessage({ inboxId: seed().supportInbox, from: 'spam@example.com', subject: 'Spam', text: 'buy' });
    st.trash(st.conversation(trashed.conversationId));
    t0 = sim.clock.now();
  });
  afterEach(async () => {
    expectNoSpecViolations(sim);
    await sim?.close();
  });

  it('syncs the directory: inboxes, teams, teammates with teams, accounts, contacts with their account, tags — to the last page', async () => {
    const collections = recordsOf(await collect(syncer('ticketing.collection'), ctx));
    expect(collections.map((c) => c.data.name).sort()).toEqual(['Sales', 'Support']);
    const teams = recordsOf(await collect(syncer('ticketing.team'), ctx));
    expect(teams.map((t) => t.data.name)).toEqual(['Customer Care']);
    const users = recordsOf(await collect(syncer('ticketing.user'), ctx));
    expect(users.find((u) => u.remoteId === seed().sam)?.data).toMatchObject({ name: 'Sam Agent', teams: [ids('ticketing.team', seed().team)] });
    const accounts = await collect(syncer('ticketing.account'), ctx);
    expect(recordsOf(accounts)).toHaveLength(2);
    const contacts = await collect(syncer('ticketing.contact'), ctx);
    expect(contacts.length).toBeGreaterThan(3);
    const byName = new Map(recordsOf(contacts).map((c) => [c.data.name, c]));
    expect(byName.size).toBe(sim.state.contacts.size);
    expect(byName.get('Casey Customer')?.data).toMatchObject({ email_address: 'casey@customer.example', phone_number: '+15550100', account_id: ids('ticketing.account', seed().account) });
    const tags = await collect(syncer('ticketing.tag'), ctx);
    expect(recordsOf(tags).map((t) => t.data.name).sort()).toEqual(['billing', 'tag-0', 'tag-1', 'tag-2', 'vip']);
    expect(tags.at(-1)!.resume).toBeNull();
  });

  it('syncs every conversation with its messages, comments and attachments (trashed ones left out), then resumes from a saved position', async () => {
    const batches = await collect(syncer('ticketing.ticket'), ctx);
    expect(batches.length).toBeGreaterThan(3);
    const tickets = recordsOf(batches, 'ticketing.ticket');
    expect(tickets).toHaveLength(12);
    expect(new Set(tickets.map((t) => t.remoteId)).size).toBe(12);
    expect(tickets.some((t) => t.data.name === 'Spam')).toBe(false);

    const seeded = tickets.find((t) => t.remoteId === seed().inboundConversation)!;
    expect(seeded.data).toMatchObject({
      name: 'Where is my order?',
      status: 'IN_PROGRESS',
      description: ['It has been two weeks.'],
      tags: ['billing'],
      project_id: ids('ticketing.collection', seed().supportInbox),
      contact_id: ids('ticketing.contact', seed().casey),
      assigned_to: [ids('ticketing.user', seed().sam)],
    });
    const discussion = tickets.find((t) => t.data.name === 'Team chat')!;
    expect(discussion.data).toMatchObject({ type: 'discussion', description: ['Kick-off'] });
    const comments = recordsOf(batches, 'ticketing.comment');
    expect(comments.filter((c) => c.parent?.remoteId === seed().inboundConversation).map((c) => c.data.creator_type).sort()).toEqual(['CONTACT', 'USER']);
    const attachment = recordsOf(batches, 'ticketing.attachment')[0]!;
    expect(attachment.data).toMatchObject({ file_name: 'plan.txt', ticket_id: ids('ticketing.ticket', discussion.remoteId) });
    expect(batches.at(-1)!.resume).toBeNull();

    // Resume after the first batch: the rest, without the first batch's conversations.
    const rest = await collect(syncer('ticketing.ticket'), ctx, { resume: batches[0]!.resume! });
    const restIds = recordsOf(rest, 'ticketing.ticket').map((t) => t.remoteId);
    expect(restIds).toEqual(tickets.slice(recordsOf([batches[0]!], 'ticketing.ticket').length).map((t) => t.remoteId));
  });

  it('incremental: bumped conversations from the list, quiet changes (tags, assignee, custom fields, trash) from the event feed', async () => {
    const st = sim.state;
    const all = [...st.conversations.values()].filter((c) => !c.trashed);
    const old = all[0]!; // the seeded conversation: deep in the list
    sim.clock.advance(3_600_000);
    const since = new Date(t0 + 1_800_000);
    st.setTags(old, []); // no bump
    st.updateConversation(all[2]!.id, { custom_fields: { 'Order number': 'ORD-42' } });
    st.trash(all[3]!);
    st.receiveMessage({ conversationId: all[4]!.id, from: 'c0@example.com', text: 'Any news?' }); // bumps
    const fresh = st.receiveMessage({ inboxId: seed().supportInbox, from: 'new@example.com', subject: 'New one', text: 'Hi' });

    const batches = await collect(syncer('ticketing.ticket'), ctx, { since });
    const tickets = recordsOf(batches, 'ticketing.ticket');
    const changed = new Set(tickets.map((t) => t.remoteId));
    expect([...changed].sort()).toEqual([old.id, all[2]!.id, all[3]!.id, all[4]!.id, fresh.conversationId].sort());
    expect(tickets.length).toBe(changed.size);
    expect(tickets.find((t) => t.remoteId === old.id)?.data.tags).toEqual([]);
    expect(tickets.find((t) => t.remoteId === all[3]!.id)?.deleted).toBe(true);
    expect(recordsOf(batches, 'ticketing.comment').some((c) => c.data.body === 'Any news?')).toBe(true);
    // The list stopped at the first conversation updated before `since`; the rest came from events.
    const listCalls = sim.requests.filter((q) => q.path === '/conversations' && q.method === 'GET');
    expect(listCalls).toHaveLength(1);
    expect(sim.requests.some((q) => q.path === '/events' && q.query['q[after]'] === String(since.getTime() / 1000))).toBe(true);
  });

  it('incremental without the events scope: the conversation list alone', async () => {
    sim.addToken('no-events', { events: false });
    const limited = context(sim, adapter, 'no-events', 'conn-2');
    sim.clock.advance(3_600_000);
    const since = new Date(t0 + 1_800_000);
    const conv = [...sim.state.conversations.values()][0]!;
    sim.state.setTags(conv, []);
    const fresh = sim.state.receiveMessage({ inboxId: seed().supportInbox, from: 'new@example.com', subject: 'New one', text: 'Hi' });
    const tickets = recordsOf(await collect(syncer('ticketing.ticket'), limited, { since }), 'ticketing.ticket');
    expect(tickets.map((t) => t.remoteId)).toEqual([fresh.conversationId]);
  });

  it('incremental contacts with q[updated_after]', async () => {
    sim.clock.advance(3_600_000);
    const since = new Date(t0 + 1_800_000);
    const casey = sim.state.updateContact(seed().casey, { description: 'Moved to Berlin' });
    const contacts = recordsOf(await collect(syncer('ticketing.contact'), ctx, { since }));
    expect(contacts.map((c) => c.remoteId)).toEqual([casey.id]);
    expect(contacts[0]!.data.details).toBe('Moved to Berlin');
  });

  it('reports a conversation deleted for good (404) from its event, and survives a rate limit mid-run', async () => {
    sim.clock.advance(3_600_000);
    const since = new Date(t0 + 1_800_000);
    const conv = [...sim.state.conversations.values()].find((c) => !c.trashed)!;
    sim.state.trash(conv);
    sim.state.deleteForGood(conv.id);
    sim.rateLimited(1);
    const tickets = recordsOf(await collect(syncer('ticketing.ticket'), ctx, { since }), 'ticketing.ticket');
    expect(tickets.find((t) => t.remoteId === conv.id)?.deleted).toBe(true);
    expect(sim.requests.some((q) => q.status === 429)).toBe(true);
  });

  it('syncs a few hundred conversations with the default page sizes, every message and comment', async () => {
    const big = createFrontAdapter();
    const bigCtx = context(sim, big, sim.token, 'conn-big');
    sim.seedConversations(180, { messagesPerConversation: 3, commentsPerConversation: 1 });
    const batches = await collect(big.syncers.find((s) => s.key === 'ticketing.ticket')!, bigCtx);
    const tickets = recordsOf(batches, 'ticketing.ticket');
    expect(tickets).toHaveLength(sim.state.conversations.size - 1); // the trashed one is left out
    expect(batches).toHaveLength(Math.ceil(tickets.length / 50));
    const comments = recordsOf(batches, 'ticketing.comment');
    const expected = [...sim.state.conversations.values()].filter((c) => !c.trashed).reduce((n, c) => n + sim.state.commentsOf(c.id).length + sim.state.messagesOf(c.id).length, 0);
    expect(comments).toHaveLength(expected);
    expect(tickets.find((t) => t.data.name === 'Seeded 7')?.data.description).toEqual(['Question 7']);
  });

  it('lists remote custom fields by name', async () => {
    const fields = await adapter.customFields!.list(ctx, 'ticketing.ticket');
    expect(fields.map((f) => [f.id, f.type])).toEqual([
      ['Order number', 'string'],
      ['Escalated', 'boolean'],
      ['Renewal date', 'datetime'],
    ]);
    expect((await adapter.customFields!.list(ctx, 'ticketing.contact')).map((f) => f.id)).toEqual(['Plan']);
    expect(await adapter.customFields!.list(ctx, 'ticketing.comment')).toEqual([]);
  });
});
