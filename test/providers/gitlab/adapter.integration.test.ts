/**
 * The GitLab adapter driven directly (no Omniport server, no database) against the GitLab simulator:
 * writes (issues, notes, uploads), refusals, and every syncer run to the last page, full then
 * incremental, resumed, and robust to issues that change while a run pages through them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { createGitlabAdapter, gitlabAdapter } from '../../../src/providers/gitlab';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { formatViolation } from '../../support/openapi-validator';
import { startGitlabSimulator, type GitlabSimulator } from '../../simulators/gitlab';

const ids = idFactory('conn-1');

function context(sim: GitlabSimulator, opts: { adapter?: ProviderAdapter; token?: string; baseUrl?: string; connectionId?: string } = {}): AdapterContext {
  const adapter = opts.adapter ?? gitlabAdapter;
  const credentials = { access_token: opts.token ?? sim.token };
  const baseUrl = opts.baseUrl ?? sim.url;
  const connectionId = opts.connectionId ?? 'conn-1';
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 3,
    maxRetryAfterMs: 3_000,
  });
  return { connectionId, baseUrl, credentials, http, ids };
}

const syncer = (adapter: ProviderAdapter, key: string): ObjectSyncer => adapter.syncers.find((s) => s.key === key)!;

async function collect(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}, between?: (batch: SyncBatch, i: number) => void): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of s.run(ctx, opts)) {
    out.push(b);
    between?.(b, out.length - 1);
  }
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] => batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

function expectSpecClean(sim: GitlabSimulator) {
  if (!sim.specAvailable) {
    console.warn('gitlab-openapi3.yaml not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  for (const u of sim.specUndocumented) expect(u.path).toMatch(/\/(notes|labels)$/);
}

describe('gitlab adapter: credentials and writes', () => {
  let sim: GitlabSimulator;
  let ctx: AdapterContext;
  const ops = gitlabAdapter.ticketing!;

  beforeAll(async () => {
    sim = await startGitlabSimulator();
    ctx = context(sim);
  });
  afterAll(async () => {
    expectSpecClean(sim);
    await sim?.close();
  });

  const f = () => sim.fixtures!;
  const key = (remoteId: string) => remoteId.split('#').map(Number) as [number, number];
  const stored = (remoteId: string) => sim.state.findIssue(...key(remoteId))!;

  it('verifies a token, and refuses unknown and expired ones with GitLab’s message', async () => {
    await expect(gitlabAdapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    const bad = await rejection(gitlabAdapter.verifyCredentials(context(sim, { token: 'glpat-wrong', connectionId: 'bad' })));
    expect(bad).toBeInstanceOf(ProviderError);
    expect((bad as ProviderError).providerStatus).toBe(401);
    expect(bad.message).toContain('401 Unauthorized');
    sim.addToken({ token: 'glpat-expired', userId: f().sam.id, expiresAt: Date.now() - 1000 });
    const expired = await rejection(gitlabAdapter.verifyCredentials(context(sim, { token: 'glpat-expired', connectionId: 'exp' })));
    expect(expired.message).toContain('invalid_token: Token is expired');
  });

  it('works with a base URL that already ends with /api/v4, and sends OAuth tokens as Bearer', async () => {
    await expect(gitlabAdapter.verifyCredentials(context(sim, { baseUrl: `${sim.url}/api/v4`, connectionId: 'suffix' }))).resolves.toBeUndefined();
    sim.addToken({ token: 'oauth-token', userId: f().sam.id, kind: 'oauth' });
    const oauthCtx = context(sim, { token: 'oauth-token', connectionId: 'oauth' });
    oauthCtx.credentials.refresh_token = 'r';
    await expect(gitlabAdapter.verifyCredentials(oauthCtx)).resolves.toBeUndefined();
    expect(sim.requests.at(-1)?.headers.authorization).toBe('Bearer [redacted]');
    expect(sim.requests.at(-1)?.headers['private-token']).toBeUndefined();
  });

  it('creates an issue with every field GitLab has, its comments, and closes it when asked', async () => {
    const r = await ops.createTicket(ctx, {
      name: 'Printer on fire',
      project_id: String(f().helpDesk.id),
      description: ['It started smoking.', 'Then flames.'],
      tags: ['bug', 'hardware'],
      assigned_to: [String(f().riley.id), String(f().sam.id)],
      due_date: '2030-01-15T10:00:00.000Z',
      type: 'incident',
      status: 'CLOSED',
      comment: ['First reply', 'Second reply'],
    });
    const issue = stored(r.record.remoteId);
    expect(r.record.remoteId).toBe(`${f().helpDesk.id}#${issue.iid}`);
    expect(issue).toMatchObject({ title: 'Printer on fire', description: 'It started smoking.\n\nThen flames.', due_date: '2030-01-15', issue_type: 'incident', state: 'closed' });
    // `hardware` did not exist: GitLab creates the project label.
    expect(issue.labels.map((id) => sim.state.labels.get(id)!.name).sort()).toEqual(['bug', 'hardware']);
    // GitLab Free keeps one assignee; the answer says what GitLab stored.
    expect(r.record.data.assigned_to).toEqual([ids('ticketing.user', f().riley.id)]);
    expect(r.record.data).toMatchObject({ status: 'CLOSED', type: 'incident', due_date: '2030-01-15T00:00:00.000Z', tags: ['bug', 'hardware'] });
    expect(r.record.data.completed_at).toEqual(expect.any(String));
    const comments = (r.related ?? []).filter((x) => x.objectType === 'ticketing.comment');
    expect(comments.map((c) => c.data.body)).toEqual(['First reply', 'Second reply']);
    expect(comments.every((c) => c.parent?.remoteId === r.record.remoteId)).toBe(true);
    expect(sim.state.userNotesCount(issue.id)).toBe(2);
  });

  it('keeps several assignees on Premium', async () => {
    const premium = await startGitlabSimulator({ tier: 'premium' });
    try {
      const fx = premium.fixtures!;
      const r = await ops.createTicket(context(premium, { connectionId: 'premium' }), {
        name: 'Two people',
        project_id: String(fx.helpDesk.id),
        assigned_to: [String(fx.riley.id), String(fx.sam.id)],
      });
      expect(r.record.data.assigned_to).toEqual([ids('ticketing.user', fx.riley.id), ids('ticketing.user', fx.sam.id)]);
    } finally {
      await premium.close();
    }
  });

  it('updates an issue: fields, state, and clearing labels and assignees', async () => {
    const created = await ops.createTicket(ctx, { name: 'To change', project_id: String(f().helpDesk.id), tags: ['bug'], assigned_to: [String(f().sam.id)] });
    const closed = await ops.updateTicket(ctx, created.record.remoteId, { name: 'Changed', status: 'CLOSED', description: ['New text'], tags: [], assigned_to: [] });
    expect(closed.record.data).toMatchObject({ name: 'Changed', status: 'CLOSED', description: ['New text'], tags: [], assigned_to: [] });
    const reopened = await ops.updateTicket(ctx, created.record.remoteId, { status: 'OPEN' });
    expect(reopened.record.data).toMatchObject({ status: 'OPEN', completed_at: null });
    expect(sim.requests.at(-1)).toMatchObject({ method: 'PUT', body: { state_event: 'reopen' } });
    // Nothing to write: read it back.
    const same = await ops.updateTicket(ctx, created.record.remoteId, {});
    expect(same.record.data.name).toBe('Changed');
    expect(sim.requests.at(-1)?.method).toBe('GET');
  });

  it('refuses what GitLab cannot hold before calling it', async () => {
    const before = sim.requests.length;
    for (const [field, input] of [
      ['priority', { priority: 'HIGH' }],
      ['status', { status: 'IN_PROGRESS' }],
      ['contact_id', { contact_id: '3' }],
      ['parent_ticket', { parent_ticket: '1#1' }],
      ['project_id', {}],
    ] as const) {
      const e = await rejection(ops.createTicket(ctx, { name: 'x', ...(field === 'project_id' ? {} : { project_id: String(f().helpDesk.id) }), ...input }));
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(422);
      expect((e as AppError).details.field).toBe(field);
    }
    const moved = await rejection(ops.updateTicket(ctx, `${f().helpDesk.id}#1`, { project_id: String(f().website.id) }));
    expect((moved as AppError).details.field).toBe('project_id');
    expect(sim.requests.length).toBe(before);
  });

  it('answers GitLab’s own refusals as provider errors with its message', async () => {
    const missing = await rejection(ops.updateTicket(ctx, `${f().helpDesk.id}#9999`, { name: 'x' }));
    expect(missing).toBeInstanceOf(ProviderError);
    expect((missing as ProviderError).providerStatus).toBe(404);
    expect(missing.message).toContain('404 Issue Not Found');
    const disabled = await rejection(ops.createTicket(ctx, { name: 'x', project_id: String(f().docsOnly.id) }));
    expect((disabled as ProviderError).providerStatus).toBe(403);

    sim.addToken({ token: 'glpat-read', userId: f().sam.id, scopes: ['read_api'] });
    const readOnly = await rejection(ops.createTicket(context(sim, { token: 'glpat-read', connectionId: 'ro' }), { name: 'x', project_id: String(f().helpDesk.id) }));
    expect((readOnly as ProviderError).providerStatus).toBe(403);
    expect(readOnly.message).toContain('insufficient_scope');
  });

  it('says the issue exists when a later step fails', async () => {
    sim.faults.add({ method: 'POST', path: /\/notes$/, status: 500 });
    const e = await rejection(ops.createTicket(ctx, { name: 'Half done', project_id: String(f().helpDesk.id), comment: ['boom'] }));
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).details).toMatchObject({ provider: 'gitlab', provider_status: 500, remote_id: expect.stringMatching(/^\d+#\d+$/) });
    expect(e.message).toMatch(/was created, but adding comment 1 of 1 failed/);
  });

  it('comments with attachments: uploads, then a note linking them', async () => {
    const ticket = await ops.createTicket(ctx, { name: 'With files', project_id: String(f().helpDesk.id) });
    const r = await ops.createComment(ctx, {
      ticket_id: ticket.record.remoteId,
      body: 'Logs attached.',
      is_private: true,
      user_id: String(f().sam.id),
      files: [
        { fileName: 'notes.txt', contentType: 'text/plain', content: Buffer.from('hello') },
        { fileName: 'screen shot.png', contentType: 'image/png', content: Buffer.from('png-bytes') },
      ],
    });
    const uploads = [...sim.state.uploads.values()].filter((u) => u.project_id === f().helpDesk.id);
    expect(uploads.map((u) => u.filename)).toEqual(expect.arrayContaining(['notes.txt', 'screen_shot.png']));
    expect(uploads.find((u) => u.filename === 'notes.txt')!.content.toString()).toBe('hello');
    const note = [...sim.state.notes.values()].find((n) => n.id === Number(r.record.remoteId))!;
    expect(note.internal).toBe(true);
    expect(note.body).toMatch(/^Logs attached\.\n\n\[notes\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes\.txt\)\n!\[screen_shot\]\(\/uploads\/[0-9a-f]{32}\/screen_shot\.png\)$/);
    expect(r.record.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', f().sam.id), ticket_id: ids('ticketing.ticket', ticket.record.remoteId) });
    const atts = r.related ?? [];
    expect(atts.map((a) => a.data.file_name)).toEqual(['notes.txt', 'screen_shot.png']);
    expect(r.record.data.attachments).toEqual(atts.map((a) => ids('ticketing.attachment', a.remoteId)));
    // The file is where the attachment says, for a signed-in member (and through the API with the token);
    // GitLab keeps a private project's files from anonymous visitors.
    const res = await fetch(String(atts[0]!.data.file_url), { headers: { 'private-token': sim.token } });
    expect(await res.text()).toBe('hello');
    expect((await fetch(String(atts[0]!.data.file_url), { redirect: 'manual' })).status).toBe(302);
    const viaApi = await fetch(`${sim.url}/api/v4/projects/${atts[0]!.remoteId}`, { headers: { 'private-token': sim.token } });
    expect(await viaApi.text()).toBe('hello');
    const upload = sim.requests.find((q) => q.path.endsWith('/uploads') && q.method === 'POST');
    expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('writes comments as the token’s user only, and cleans up uploads when the note fails', async () => {
    const ticket = await ops.createTicket(ctx, { name: 'Author check', project_id: String(f().helpDesk.id) });
    const before = sim.requests.length;
    const other = await rejection(ops.createComment(ctx, { ticket_id: ticket.record.remoteId, body: 'x', user_id: String(f().riley.id), files: [] }));
    expect((other as AppError).details).toMatchObject({ field: 'user_id', provider: 'gitlab' });
    expect((other as AppError).status).toBe(422);
    expect(sim.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);

    const uploadsBefore = sim.state.uploads.size;
    const file = { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') };
    sim.faults.add({ method: 'POST', path: /\/notes$/, status: 400 });
    const failed = await rejection(ops.createComment(ctx, { ticket_id: ticket.record.remoteId, body: 'x', files: [file] }));
    expect((failed as ProviderError).providerStatus).toBe(400);
    expect(sim.state.uploads.size).toBe(uploadsBefore);
    // A 500 may come after the note was made: the outcome is unknown, the note is not sent again and its upload stays.
    const notesBefore = sim.requests.filter((q) => q.method === 'POST' && /\/notes$/.test(q.path)).length;
    sim.faults.add({ method: 'POST', path: /\/notes$/, status: 500 });
    const unknown = await rejection(ops.createComment(ctx, { ticket_id: ticket.record.remoteId, body: 'x', files: [file] }));
    expect((unknown as AppError).code).toBe('outcome_unknown');
    expect(sim.requests.filter((q) => q.method === 'POST' && /\/notes$/.test(q.path)).length).toBe(notesBefore + 1);
    expect(sim.state.uploads.size).toBe(uploadsBefore + 1);

    const html = await ops.createComment(ctx, { ticket_id: ticket.record.remoteId, html_body: '<p>Hello <b>there</b></p>', files: [] });
    expect(html.record.data).toMatchObject({ body: '<p>Hello <b>there</b></p>', html_body: null });
  });

  it('retries a rate-limited call after Retry-After', async () => {
    sim.faults.add({ status: 429, times: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    await expect(gitlabAdapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const limited = sim.requests.filter((q) => q.status === 429);
    expect(limited.length).toBeGreaterThan(0);
  });
});

describe('gitlab adapter: sync', () => {
  let sim: GitlabSimulator;
  let ctx: AdapterContext;
  const small = createGitlabAdapter({ pageSize: 2 });

  beforeAll(async () => {
    sim = await startGitlabSimulator();
    ctx = context(sim, { adapter: small });
    const fx = sim.fixtures!;
    sim.seedIssues(fx.helpDesk.id, 7, { notesPerIssue: 3 });
    // Five issues created in the same millisecond (an import): more than a page share one time.
    const at = Date.parse('2024-03-01T10:00:00.000Z');
    sim.seedIssues(fx.website.id, 5, { createdAt: () => at });
    sim.seedIssues(fx.sandbox.id, 3);
  });
  afterAll(async () => {
    expectSpecClean(sim);
    await sim?.close();
  });

  const allIssues = () => [...sim.state.issues.values()].filter((i) => [sim.fixtures!.helpDesk.id, sim.fixtures!.website.id, sim.fixtures!.sandbox.id].includes(i.project_id));

  it('syncs teams, users (with their teams), collections and tags of the member projects only', async () => {
    const fx = sim.fixtures!;
    const teams = recordsOf(await collect(syncer(small, 'ticketing.team'), ctx));
    expect(teams.map((t) => t.data.name).sort()).toEqual(['Acme', 'Acme / Support']);

    const users = recordsOf(await collect(syncer(small, 'ticketing.user'), ctx));
    expect(users.map((u) => u.remoteId).sort()).toEqual([fx.sam.id, fx.riley.id, fx.jo.id].map(String).sort());
    const sam = users.find((u) => u.remoteId === String(fx.sam.id))!;
    expect(sam.data).toMatchObject({ name: 'Sam Agent', email_address: 'sam@example.com', teams: [ids('ticketing.team', fx.acme.id)] });
    const jo = users.find((u) => u.remoteId === String(fx.jo.id))!;
    expect(jo.data.teams).toEqual([ids('ticketing.team', fx.support.id)]);
    const riley = users.find((u) => u.remoteId === String(fx.riley.id))!;
    expect(riley.data.email_address).toBe('riley@acme.example');

    const collections = recordsOf(await collect(syncer(small, 'ticketing.collection'), ctx));
    expect(collections.map((c) => c.remoteId)).toEqual([fx.helpDesk.id, fx.website.id, fx.sandbox.id].map(String));
    expect(collections[0]!.data).toMatchObject({ name: 'Acme / Support / Help desk', collection_type: 'PROJECT' });

    const tags = recordsOf(await collect(syncer(small, 'ticketing.tag'), ctx));
    expect(tags.map((t) => t.data.name).sort()).toEqual(['bug', 'customer', 'design']);
  });

  it('syncs every issue exactly once, page by page, even when more than a page share a creation time', async () => {
    const batches = await collect(syncer(small, 'ticketing.ticket'), ctx);
    const tickets = recordsOf(batches, 'ticketing.ticket');
    const expected = allIssues().map((i) => `${i.project_id}#${i.iid}`);
    expect(tickets.map((t) => t.remoteId).sort()).toEqual(expected.sort());
    expect(new Set(tickets.map((t) => t.remoteId)).size).toBe(tickets.length);
    expect(batches.every((b) => b.records.length <= 2)).toBe(true);
    expect(batches.at(-1)!.resume).toBe(JSON.stringify({ after: sim.fixtures!.sandbox.id }));
    // Sorted by creation, the GitLab way: asc with a created_after keyset.
    const listCalls = sim.requests.filter((q) => /\/projects\/\d+\/issues$/.test(q.path) && q.method === 'GET');
    expect(listCalls.every((q) => q.query.order_by === 'created_at' && q.query.sort === 'asc' && q.query.state === 'all' && q.query.per_page === '2')).toBe(true);
  });

  it('does not lose issues when others are deleted or updated while it pages through them', async () => {
    const fx = sim.fixtures!;
    // Created "long ago" (an import), so that it is the first issue read.
    const victim = sim.createIssueRemotely(fx.helpDesk.id, { title: 'victim', created_at: Date.parse('2000-01-01T00:00:00Z') });
    const seen: string[] = [];
    await collect(syncer(small, 'ticketing.ticket'), ctx, {}, (b, i) => {
      seen.push(...b.records.map((r) => r.remoteId));
      if (i === 0) {
        // Delete an issue already read, and update one not yet read: an offset page would now skip one.
        expect(b.records[0]!.remoteId).toBe(`${fx.helpDesk.id}#${victim.iid}`);
        sim.deleteIssueRemotely(fx.helpDesk.id, victim.iid);
        sim.updateIssueRemotely(fx.website.id, 3, { title: 'changed mid-run' });
      }
    });
    const alive = allIssues().map((i) => `${i.project_id}#${i.iid}`);
    for (const id of alive) expect(seen).toContain(id);
  });

  it('resumes a run from the position saved after a batch', async () => {
    const full = recordsOf(await collect(syncer(small, 'ticketing.ticket'), ctx)).map((r) => r.remoteId);
    const firstRun: SyncBatch[] = [];
    for await (const b of syncer(small, 'ticketing.ticket').run(ctx, {})) {
      firstRun.push(b);
      if (firstRun.length === 4) break;
    }
    const rest = await collect(syncer(small, 'ticketing.ticket'), ctx, { resume: firstRun.at(-1)!.resume! });
    const resumed = [...recordsOf(firstRun), ...recordsOf(rest)].map((r) => r.remoteId);
    expect(new Set(resumed)).toEqual(new Set(full));
    expect(resumed.length).toBe(full.length);
  });

  it('reads only what changed since the last run with updated_after', async () => {
    const fx = sim.fixtures!;
    const since = new Date(sim.state.now());
    sim.updateIssueRemotely(fx.helpDesk.id, 2, { title: 'Renamed in GitLab' });
    sim.addNoteRemotely(fx.website.id, 1, 'New note on an old issue');
    const tickets = recordsOf(await collect(syncer(small, 'ticketing.ticket'), ctx, { since }));
    expect(tickets.map((t) => t.remoteId).sort()).toEqual([`${fx.helpDesk.id}#2`, `${fx.website.id}#1`].sort());
    expect(tickets.find((t) => t.remoteId === `${fx.helpDesk.id}#2`)!.data.name).toBe('Renamed in GitLab');
    expect(sim.requests.filter((q) => q.query.updated_after === since.toISOString()).length).toBeGreaterThan(0);

    const comments = recordsOf(await collect(syncer(small, 'ticketing.comment'), ctx, { since }), 'ticketing.comment');
    expect(comments.map((c) => c.data.body)).toContain('New note on an old issue');
    expect(comments.every((c) => [`${fx.helpDesk.id}#2`, `${fx.website.id}#1`].includes(c.parent!.remoteId))).toBe(true);
  });

  it('syncs user notes to the last page, leaving system notes out and skipping issues without notes', async () => {
    const fx = sim.fixtures!;
    sim.clearRequests();
    const batches = await collect(syncer(small, 'ticketing.comment'), ctx);
    const comments = recordsOf(batches, 'ticketing.comment');
    const userNotes = [...sim.state.notes.values()].filter((n) => !n.system && allIssues().some((i) => i.id === n.issue_id));
    expect(comments.map((c) => c.remoteId).sort()).toEqual(userNotes.map((n) => String(n.id)).sort());
    expect([...sim.state.notes.values()].some((n) => n.system)).toBe(true);
    const internal = comments.find((c) => c.data.body === 'Internal: the DB index is missing.');
    expect(internal?.data.is_private).toBe(true);
    // 3 notes per seeded help-desk issue at 2 per page: two pages each.
    const pages = sim.requests.filter((q) => q.path === `/api/v4/projects/${fx.helpDesk.id}/issues/3/notes`);
    expect(pages.map((q) => q.query.page ?? '1')).toEqual(['1', '2']);
    // Sandbox issues have no notes: never asked.
    expect(sim.requests.some((q) => q.path.startsWith(`/api/v4/projects/${fx.sandbox.id}/issues/`) && q.path.endsWith('/notes'))).toBe(false);
  });

  it('reads attachments back from note links, with the ids the write gave them', async () => {
    const fx = sim.fixtures!;
    const fullCtx = context(sim);
    const ticket = await gitlabAdapter.ticketing!.createTicket(fullCtx, { name: 'Attachments roundtrip', project_id: String(fx.helpDesk.id) });
    const written = await gitlabAdapter.ticketing!.createComment(fullCtx, {
      ticket_id: ticket.record.remoteId,
      body: 'See file',
      files: [{ fileName: 'report.csv', contentType: 'text/csv', content: Buffer.from('a,b') }],
    });
    const synced = recordsOf(await collect(syncer(small, 'ticketing.comment'), ctx));
    const comment = synced.find((r) => r.remoteId === written.record.remoteId)!;
    expect(comment.data).toEqual(written.record.data);
    const attachment = synced.find((r) => r.objectType === 'ticketing.attachment' && r.parent?.remoteId === written.record.remoteId)!;
    expect(attachment.remoteId).toBe(written.related![0]!.remoteId);
    expect(attachment.data).toEqual(written.related![0]!.data);
  });

  it('skips a project that disappears during the run, and fails the run on other errors', async () => {
    const fx = sim.fixtures!;
    sim.faults.add({ method: 'GET', path: `/api/v4/projects/${fx.website.id}/issues`, status: 404, body: { message: '404 Project Not Found' } });
    const tickets = recordsOf(await collect(syncer(small, 'ticketing.ticket'), ctx));
    expect(tickets.some((t) => t.remoteId.startsWith(`${fx.website.id}#`))).toBe(false);
    expect(tickets.some((t) => t.remoteId.startsWith(`${fx.sandbox.id}#`))).toBe(true);

    sim.faults.add({ method: 'GET', path: `/api/v4/projects/${fx.website.id}/issues`, status: 500, times: 10 });
    const e = await rejection(collect(syncer(small, 'ticketing.ticket'), ctx));
    expect((e as ProviderError).providerStatus).toBe(500);
    sim.faults.clear();
  });
});
