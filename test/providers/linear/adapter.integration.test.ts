/**
 * The Linear adapter driven directly (no Omniport server, no database) against the Linear simulator:
 * credentials, writes (states, labels, bulk create, comments with files) and every syncer run to the
 * last page, full then incremental, with every GraphQL document validated against Linear's schema.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createLinearAdapter, linearAdapter } from '../../../src/providers/linear';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { startLinearSimulator, type LinearSimulator, type TeamRecord } from '../../simulators/linear';

const ids = idFactory('conn-1');

function context(sim: LinearSimulator, adapter: ProviderAdapter, credentials: Record<string, string> = { access_token: sim.apiKey }): AdapterContext {
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId: 'conn-1',
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    isRateLimited: adapter.http.isRateLimited,
    retryBaseMs: 5,
    maxRetries: 3,
    maxRetryAfterMs: 10_000,
  });
  return { connectionId: 'conn-1', baseUrl: sim.url, credentials, http, ids };
}

async function collect(syncer: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of syncer.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] =>
  batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

function expectClean(sim: LinearSimulator) {
  expect(sim.simulatorGaps).toEqual([]);
  if (!sim.specAvailable) {
    console.warn('linear schema.graphql not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations).toEqual([]);
}

const team = (sim: LinearSimulator, key: string): TeamRecord => [...sim.state.teams.values()].find((t) => t.key === key)!;
const stateOf = (sim: LinearSimulator, issueId: string) => sim.state.states.get(sim.state.issues.get(issueId)!.stateId)!;
const labelNames = (sim: LinearSimulator, issueId: string) => sim.state.issues.get(issueId)!.labelIds.map((l) => sim.state.labels.get(l)!.name).sort();

describe('linear adapter: writes', () => {
  let sim: LinearSimulator;
  let ctx: AdapterContext;
  let adapter: ProviderAdapter;
  let eng: TeamRecord;
  let sup: TeamRecord;

  beforeAll(async () => {
    sim = await startLinearSimulator({ accessTokens: ['lin_oauth_test'] });
    adapter = createLinearAdapter({ uploadHosts: [sim.uploadsHost], rateLimitBaseMs: 5, batchSize: 2 });
    ctx = context(sim, adapter);
    eng = team(sim, 'ENG');
    sup = team(sim, 'SUP');
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => {
    sim.faults.clear();
    sim.uploadFaults.clear();
  });

  it('verifies API keys and OAuth tokens, and refuses bad credentials as 401', async () => {
    await adapter.verifyCredentials(ctx);
    await adapter.verifyCredentials(context(sim, adapter, { access_token: 'lin_oauth_test', token_type: 'Bearer' }));
    for (const bad of [{ access_token: 'lin_api_wrong' }, { access_token: 'lin_oauth_unknown' }]) {
      const e = await adapter.verifyCredentials(context(sim, adapter, bad)).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).providerStatus).toBe(401);
      expect((e as ProviderError).details).toMatchObject({ provider_code: 'AUTHENTICATION_ERROR', provider_http_status: 400 });
    }
    expect(sim.requests.every((r) => !JSON.stringify(r).includes(sim.apiKey))).toBe(true);
  });

  it('creates an issue with every field, its state picked by type and its labels found or created', async () => {
    const parent = sim.createIssueRemotely({ teamId: eng.id, title: 'Parent' });
    const res = await adapter.ticketing!.createTicket(ctx, {
      name: 'Printer on fire',
      project_id: eng.id,
      description: ['It started smoking.', 'Then flames.'],
      status: 'IN_PROGRESS',
      priority: 'URGENT',
      assigned_to: [sim.viewer.id],
      due_date: '2030-01-15T10:00:00.000Z',
      parent_ticket: parent.id,
      tags: ['bug', 'Backend', 'hardware'],
      comment: ['First note', 'Second note'],
    });
    const issue = sim.state.issues.get(res.record.remoteId)!;
    expect(issue).toMatchObject({ title: 'Printer on fire', description: 'It started smoking.\n\nThen flames.', priority: 1, assigneeId: sim.viewer.id, dueDate: '2030-01-15', parentId: parent.id });
    // The team's first "started" state by position: In Progress, not In Review.
    expect(stateOf(sim, issue.id).name).toBe('In Progress');
    // "bug" matched the workspace label Bug, Backend the team's, hardware was created in the team.
    expect(labelNames(sim, issue.id)).toEqual(['Backend', 'Bug', 'hardware']);
    expect([...sim.state.labels.values()].find((l) => l.name === 'hardware')?.teamId).toBe(eng.id);
    expect(res.record.data).toMatchObject({
      name: 'Printer on fire',
      status: 'IN_PROGRESS',
      priority: 'URGENT',
      project_id: ids('ticketing.collection', eng.id),
      parent_ticket: ids('ticketing.ticket', parent.id),
      assigned_to: [ids('ticketing.user', sim.viewer.id)],
      due_date: '2030-01-15T00:00:00.000Z',
    });
    expect((res.record.data.tags as string[]).sort()).toEqual(['Backend', 'Bug', 'hardware']);
    expect(res.related?.filter((r) => r.objectType === 'ticketing.comment').map((r) => r.data.body)).toEqual(['First note', 'Second note']);
    expect(res.record.remoteData).toMatchObject({ identifier: expect.stringMatching(/^ENG-\d+$/), team: { key: 'ENG' } });
  });

  it('maps OPEN to Todo and CLOSED to Done (Linear then records the completion time)', async () => {
    const open = await adapter.ticketing!.createTicket(ctx, { name: 'open', project_id: sup.id, status: 'OPEN' });
    expect(stateOf(sim, open.record.remoteId).name).toBe('Todo');
    const untouched = await adapter.ticketing!.createTicket(ctx, { name: 'default', project_id: sup.id });
    expect(stateOf(sim, untouched.record.remoteId).type).toBe('triage'); // Linear's default for a team with triage
    const closed = await adapter.ticketing!.createTicket(ctx, { name: 'closed', project_id: eng.id, status: 'CLOSED' });
    expect(stateOf(sim, closed.record.remoteId).name).toBe('Done');
    expect(closed.record.data).toMatchObject({ status: 'CLOSED', completed_at: sim.state.issues.get(closed.record.remoteId)!.completedAt });
    expect(closed.record.data.completed_at).toBeTruthy();
  });

  it('refuses what Linear cannot do before calling it', async () => {
    const before = sim.operations.length;
    const refused = async (input: Record<string, unknown>, field: string) => {
      const e = await adapter.ticketing!.createTicket(ctx, { name: 'x', project_id: eng.id, ...input }).catch((x: unknown) => x);
      expect(e, field).toBeInstanceOf(AppError);
      expect((e as AppError).details.field).toBe(field);
    };
    await refused({ type: 'Bug' }, 'type');
    await refused({ status: 'ON_HOLD' }, 'status');
    await refused({ contact_id: 'c' }, 'contact_id');
    await refused({ account_id: 'a' }, 'account_id');
    await refused({ assigned_to: [sim.viewer.id, sim.viewer.id] }, 'assigned_to');
    await refused({ project_id: undefined }, 'project_id');
    expect(sim.operations.length).toBe(before);
    // A label group is not a tag.
    await refused({ tags: ['Area'] }, 'tags');
  });

  it('answers Linear refusals as provider errors with Linear’s code', async () => {
    const e = (await adapter.ticketing!.createTicket(ctx, { name: 'x', project_id: eng.id, tags: ['Frontend', 'Mobile'] }).catch((x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.code).toBe('provider_error');
    expect(e.details).toMatchObject({ provider: 'linear', provider_status: 400, provider_code: 'INVALID_INPUT' });
    expect(e.message).toMatch(/one label of the group/i);
  });

  it('updates only what is given, keeping an equivalent state and moving teams', async () => {
    const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Keep me', priority: 3 });
    expect(stateOf(sim, issue.id).type).toBe('backlog');
    sim.clearRequests();
    const r = await adapter.ticketing!.updateTicket(ctx, issue.id, { status: 'OPEN', name: 'Kept' });
    expect(stateOf(sim, issue.id).type).toBe('backlog'); // OPEN already: not moved to Todo
    expect(sim.state.issues.get(issue.id)).toMatchObject({ title: 'Kept', priority: 3 });
    expect(r.record.data).toMatchObject({ name: 'Kept', status: 'OPEN', priority: 'MEDIUM' });
    expect(sim.operations.map((o) => o.name)).toEqual(['OmniportIssueContext', 'OmniportIssueUpdate']);

    await adapter.ticketing!.updateTicket(ctx, issue.id, { assigned_to: [sim.viewer.id], tags: ['Bug'] });
    await adapter.ticketing!.updateTicket(ctx, issue.id, { assigned_to: [], tags: [], description: ['New text'] });
    expect(sim.state.issues.get(issue.id)).toMatchObject({ assigneeId: null, labelIds: [], description: 'New text' });

    const moved = await adapter.ticketing!.updateTicket(ctx, issue.id, { project_id: sup.id, status: 'CLOSED' });
    expect(moved.record.data).toMatchObject({ project_id: ids('ticketing.collection', sup.id), status: 'CLOSED' });
    expect(stateOf(sim, issue.id)).toMatchObject({ teamId: sup.id, name: 'Done' });

    const same = await adapter.ticketing!.updateTicket(ctx, issue.id, {});
    expect(same.record.remoteId).toBe(issue.id);
    const gone = await adapter.ticketing!.updateTicket(ctx, '00000000-0000-4000-8000-000000000000', { name: 'x' }).catch((x: unknown) => x);
    expect(gone).toBeInstanceOf(ProviderError);
  });

  it('bulk-creates through issueBatchCreate in chunks, and isolates an element Linear refuses', async () => {
    sim.clearRequests();
    const ok = await adapter.ticketing!.createTickets!(ctx, [
      { name: 'b1', project_id: eng.id, tags: ['Bug'] },
      { name: 'b2', project_id: eng.id, status: 'CLOSED' },
      { name: 'b3', project_id: sup.id, comment: ['hello'] },
    ]);
    expect(ok.map((x) => x.ok && x.result.record.data.name)).toEqual(['b1', 'b2', 'b3']);
    const batches = sim.operations.filter((o) => o.name === 'OmniportIssueBatchCreate');
    expect(batches).toHaveLength(2); // batchSize 2
    // Each issue is sent with an id of Omniport's own, and the results are matched by it.
    const sentIds = batches.flatMap((b) => (b.variables.input as { issues: { id: string }[] }).issues.map((i) => i.id));
    expect(ok.map((x) => x.ok && x.result.record.remoteId)).toEqual(sentIds);
    const b3 = ok[2]!.ok ? ok[2]!.result : undefined;

    // A new tag used by several issues of a batch is created once.
    const same = await adapter.ticketing!.createTickets!(ctx, [
      { name: 's1', project_id: eng.id, tags: ['brand-new'] },
      { name: 's2', project_id: eng.id, tags: ['Brand-New'] },
    ]);
    expect(same.every((x) => x.ok)).toBe(true);
    expect([...sim.state.labels.values()].filter((l) => l.name.toLowerCase() === 'brand-new')).toHaveLength(1);
    expect(b3?.related?.[0]?.data.body).toBe('hello');

    const mixed = await adapter.ticketing!.createTickets!(ctx, [
      { name: 'm1', project_id: eng.id },
      { name: 'm2', project_id: eng.id, parent_ticket: '00000000-0000-4000-8000-000000000000' },
      { name: 'm3', project_id: eng.id, type: 'Bug' },
    ]);
    expect(mixed[0]).toMatchObject({ ok: true });
    expect(mixed[1]).toMatchObject({ ok: false });
    expect(((mixed[1] as { error: Error }).error as ProviderError).details).toMatchObject({ provider_code: 'INVALID_INPUT' });
    expect(mixed[2]).toMatchObject({ ok: false, error: expect.objectContaining({ code: 'unsupported_by_provider' }) });
    expect([...sim.state.issues.values()].filter((i) => i.title === 'm1')).toHaveLength(1);
  });

  it('answers every element of a chunk with Linear’s rate limit when it persists', async () => {
    sim.rateLimitNext(10);
    const res = await adapter.ticketing!.createTickets!(ctx, [{ name: 'r1', project_id: eng.id }]);
    expect(res[0]).toMatchObject({ ok: false, error: expect.objectContaining({ code: 'provider_rate_limited' }) });
    sim.faults.clear();
  });

  it('adds a comment with files uploaded to Linear’s storage and linked from the Markdown', async () => {
    const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'With files' });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1, 2]);
    const res = await adapter.ticketing!.createComment(ctx, {
      ticket_id: issue.id,
      body: 'We sent a technician.',
      user_id: sim.viewer.id,
      is_private: false,
      files: [
        { fileName: 'notes [v2].txt', contentType: 'text/plain', content: Buffer.from('hello') },
        { fileName: 'photo.png', contentType: 'image/png', content: png },
        { fileName: 'résumé 文件.txt', contentType: 'text/plain; charset=utf-8', content: Buffer.from('ünïcode') },
      ],
    });
    const stored = sim.state.comments.get(res.record.remoteId)!;
    expect(stored.body).toMatch(/^We sent a technician\.\n\n\[notes \\\[v2\\\]\.txt\]\(http:\/\/127\.0\.0\.1:\d+\/.+\)\n!\[photo\.png\]\(/);
    expect(res.related?.map((a) => a.data.file_name)).toEqual(['notes [v2].txt', 'photo.png', 'résumé 文件.txt']);
    expect(sim.uploadedFile(res.related![2]!.data.file_url as string)?.content?.toString()).toBe('ünïcode');
    for (const a of res.related ?? []) expect(a.data.comment_id).toBe(ids('ticketing.comment', stored.id));
    expect(sim.uploadedFile(res.related![1]!.data.file_url as string)?.content).toEqual(png);
    // The signed upload carried no Linear credentials.
    expect(sim.uploadRequests.filter((r) => r.method === 'PUT').every((r) => !('authorization' in r.headers))).toBe(true);

    const other = [...sim.state.users.values()].find((u) => u.id !== sim.viewer.id)!;
    await expect(adapter.ticketing!.createComment(ctx, { ticket_id: issue.id, body: 'x', user_id: other.id, files: [] })).rejects.toMatchObject({
      code: 'unsupported_by_provider',
      details: expect.objectContaining({ field: 'user_id' }),
    });
  });

  it('answers a storage failure naming the attachments', async () => {
    const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Storage down' });
    sim.uploadFaults.add({ status: 500, times: 10 });
    const e = (await adapter.ticketing!.createComment(ctx, { ticket_id: issue.id, body: 'x', files: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }] }).catch((x: unknown) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.details).toMatchObject({ field: 'attachments', provider_status: 500 });
    expect([...sim.state.comments.values()].some((c) => c.issueId === issue.id)).toBe(false);
  });

  it('keeps every request and response within Linear’s schema', () => {
    expectClean(sim);
  });
});

describe('linear adapter: sync', () => {
  let sim: LinearSimulator;
  let ctx: AdapterContext;
  let adapter: ProviderAdapter;
  const syncer = (key: string) => adapter.syncers.find((s) => s.key === key)!;

  beforeAll(async () => {
    sim = await startLinearSimulator();
    adapter = createLinearAdapter({ uploadHosts: [sim.uploadsHost], pageSize: 25, rateLimitBaseMs: 5 });
    ctx = context(sim, adapter);
    sim.seedIssues(110, { commentsPerIssue: 2 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('orders syncers so referenced objects come first', () => {
    expect(linearAdapter.syncers.map((s) => s.key)).toEqual(['ticketing.team', 'ticketing.user', 'ticketing.tag', 'ticketing.ticket', 'ticketing.comment']);
    expect(linearAdapter.syncers.filter((s) => s.incremental).map((s) => s.key)).toEqual(['ticketing.ticket', 'ticketing.comment']);
  });

  it('full sync of every object, page by page, to the last page', async () => {
    const teams = await collect(syncer('ticketing.team'), ctx);
    expect(recordsOf(teams, 'ticketing.team')).toHaveLength(3);
    expect(recordsOf(teams, 'ticketing.collection').find((c) => c.data.name === 'Support Tier 2')?.data.parent_id).toBe(ids('ticketing.collection', team(sim, 'SUP').id));

    const users = recordsOf(await collect(syncer('ticketing.user'), ctx));
    expect(users.map((u) => u.data.email_address).sort()).toEqual(['casey@partner.example', 'old@example.com', 'robin@example.com', 'sam@example.com']);
    expect(users.find((u) => u.remoteId === sim.viewer.id)?.data.teams).toHaveLength(2);

    const tags = recordsOf(await collect(syncer('ticketing.tag'), ctx));
    expect(tags.filter((t) => !t.deleted).map((t) => t.data.name).sort()).toEqual(['Backend', 'Bug', 'Feature', 'Frontend', 'Mobile']);
    expect(tags.find((t) => t.data.name === 'Legacy')?.deleted).toBe(true);

    sim.clearRequests();
    const tickets = await collect(syncer('ticketing.ticket'), ctx);
    expect(tickets).toHaveLength(5); // 110 issues, 25 a page
    expect(new Set(recordsOf(tickets).map((t) => t.remoteId)).size).toBe(110);
    expect(tickets.at(-1)!.resume).toBeTruthy();
    expect(sim.operations.every((o) => o.complexity < 10_000)).toBe(true);

    const comments = await collect(syncer('ticketing.comment'), ctx);
    expect(recordsOf(comments, 'ticketing.comment')).toHaveLength(220);
    expect(recordsOf(comments, 'ticketing.comment')[0]!.parent?.objectType).toBe('ticketing.ticket');
  });

  it('resumes a crashed run after its last saved batch', async () => {
    const all = await collect(syncer('ticketing.ticket'), ctx);
    const rest = await collect(syncer('ticketing.ticket'), ctx, { resume: all[1]!.resume! });
    expect(rest.map((b) => b.records.map((r) => r.remoteId))).toEqual(all.slice(2).map((b) => b.records.map((r) => r.remoteId)));
  });

  it('incremental sync reads only what changed, trashed issues as deleted, archived ones not', async () => {
    const since = new Date(sim.state.nowMs());
    const issues = [...sim.state.issues.values()];
    sim.updateIssueRemotely(issues[0]!.id, { title: 'Changed remotely' });
    sim.trashIssueRemotely(issues[1]!.id);
    sim.state.archiveIssue(issues[2]!.id);
    sim.addCommentRemotely(issues[3]!.id, 'A new remark');
    const changed = recordsOf(await collect(syncer('ticketing.ticket'), ctx, { since }));
    expect(changed.map((r) => r.remoteId).sort()).toEqual([issues[0]!.id, issues[1]!.id, issues[2]!.id].sort());
    expect(changed.find((r) => r.remoteId === issues[0]!.id)?.data.name).toBe('Changed remotely');
    expect(changed.find((r) => r.remoteId === issues[1]!.id)?.deleted).toBe(true);
    expect(changed.find((r) => r.remoteId === issues[2]!.id)?.deleted).toBeUndefined();
    const newComments = recordsOf(await collect(syncer('ticketing.comment'), ctx, { since }));
    expect(newComments.map((c) => c.data.body)).toEqual(['A new remark']);
    const filter = sim.operations.filter((o) => o.name === 'OmniportIssues').at(-1)!.variables.filter;
    expect(filter).toEqual({ updatedAt: { gte: since.toISOString() } });
  });

  it('reads every label of an issue and every team of a user beyond the nested page', async () => {
    const eng = team(sim, 'ENG');
    const labelIds = Array.from({ length: 23 }, (_, i) => sim.state.createLabel({ name: `many-${i}`, teamId: eng.id }, sim.viewer.id).id);
    const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Labelled', labelIds });
    for (let i = 0; i < 21; i++) sim.state.addTeam({ name: `Team ${i}`, key: `T${i}`, memberIds: [sim.viewer.id] });
    const tickets = recordsOf(await collect(syncer('ticketing.ticket'), ctx));
    expect(tickets.find((t) => t.remoteId === issue.id)?.data.tags).toHaveLength(23);
    const users = recordsOf(await collect(syncer('ticketing.user'), ctx));
    expect(users.find((u) => u.remoteId === sim.viewer.id)?.data.teams).toHaveLength(23);
    expect(sim.operations.some((o) => o.name === 'OmniportIssueLabels')).toBe(true);
    expect(sim.operations.some((o) => o.name === 'OmniportUserTeams')).toBe(true);
  });

  it('syncs the attachments of comments with the comments', async () => {
    const eng = team(sim, 'ENG');
    const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Files' });
    const since = new Date(sim.state.nowMs());
    sim.addCommentRemotely(issue.id, `See [log.txt](${sim.uploadsUrl}/org/a/b) and [elsewhere](https://example.com/c)`);
    const records = recordsOf(await collect(syncer('ticketing.comment'), ctx, { since }));
    expect(records.map((r) => r.objectType)).toEqual(['ticketing.comment', 'ticketing.attachment']);
    expect(records[1]!.data).toMatchObject({ file_name: 'log.txt', file_url: `${sim.uploadsUrl}/org/a/b`, ticket_id: ids('ticketing.ticket', issue.id) });
  });

  it('rides out a rate limit during sync until the reset Linear gives', async () => {
    sim.rateLimitNext(2, { resetInMs: 300, budget: 'complexity' });
    const started = Date.now();
    const teams = recordsOf(await collect(syncer('ticketing.team'), ctx));
    expect(teams.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('answers a long rate-limit wait at once with Linear’s reset as Retry-After (a sync then resumes at that time)', async () => {
    sim.rateLimitNext(1, { resetInMs: 120_000 });
    const calls = sim.requests.length;
    const err = (await collect(syncer('ticketing.team'), ctx).catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('provider_rate_limited');
    expect(Number(err.headers['retry-after'])).toBeGreaterThanOrEqual(119);
    expect(sim.requests.length).toBe(calls + 1);
  });

  it('keeps every request and response within Linear’s schema', () => {
    expectClean(sim);
  });
});
