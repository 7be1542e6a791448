/**
 * The GitHub adapter driven directly (no Omniport server, no database) against the GitHub simulator:
 * writes, batch, comments, every syncer run to the last page (full, incremental, resumed), deletions,
 * rate limits in GitHub's 403 and 429 forms, GitHub Enterprise Server paths, and spec conformance of
 * everything sent and answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createGithubAdapter, githubAdapter } from '../../../src/providers/github';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { formatViolation } from '../../support/openapi-validator';
import { startGithubSimulator, type GithubSimulator } from '../../simulators/github';

let seq = 0;

function context(sim: GithubSimulator, adapter: ProviderAdapter = githubAdapter, token = sim.token, tuning: { maxRetryAfterMs?: number } = {}): AdapterContext {
  const connectionId = `conn-${++seq}`;
  const credentials = { access_token: token };
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    isRateLimited: adapter.http.isRateLimited,
    retryBaseMs: 5,
    maxRetries: 2,
    maxRetryAfterMs: tuning.maxRetryAfterMs ?? 2_000,
  });
  return { connectionId, baseUrl: sim.url, credentials, http, ids: idFactory(connectionId) };
}

async function collect(syncer: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of syncer.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] =>
  batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

const syncer = (adapter: ProviderAdapter, key: string) => adapter.syncers.find((s) => s.key === key)!;

async function rejects(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

function expectNoSpecViolations(sim: GithubSimulator) {
  if (!sim.specAvailable) {
    console.warn('github api.github.com.issues-trimmed.json not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

describe('github adapter: writes', () => {
  let sim: GithubSimulator;
  let ctx: AdapterContext;
  const ops = githubAdapter.ticketing!;

  beforeAll(async () => {
    sim = await startGithubSimulator();
    ctx = context(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('creates an issue with title, body, labels, assignees and comments, and answers it unified', async () => {
    const { record, related } = await ops.createTicket(ctx, {
      name: 'Printer on fire',
      description: ['It started smoking.', 'Then flames.'],
      project_id: 'octo-org/helpdesk',
      tags: ['bug', 'Hardware', 'BUG'],
      assigned_to: ['hubot', 'octocat'],
      comment: ['First note', 'Second note'],
    });
    const issue = sim.issue('octo-org/helpdesk', Number(record.remoteId.split('#')[1]))!;
    expect(record.remoteId).toBe(`octo-org/helpdesk#${issue.number}`);
    expect(issue).toMatchObject({ title: 'Printer on fire', body: 'It started smoking.\n\nThen flames.', assignees: ['hubot', 'octocat'] });
    expect(record.data).toMatchObject({
      name: 'Printer on fire',
      status: 'OPEN',
      description: ['It started smoking.\n\nThen flames.'],
      project_id: ctx.ids('ticketing.collection', 'octo-org/helpdesk'),
      tags: ['bug', 'Hardware'],
      assigned_to: [ctx.ids('ticketing.user', 'hubot'), ctx.ids('ticketing.user', 'octocat')],
      priority: null,
      due_date: null,
      completed_at: null,
    });
    expect(related!.map((r) => r.data.body)).toEqual(['First note', 'Second note']);
    expect(related!.every((r) => r.parent?.remoteId === record.remoteId && r.data.html_body)).toBe(true);
    // The answer is the issue after its comments.
    expect((record.remoteData as { comments: number }).comments).toBe(2);
  });

  it('closes an issue created CLOSED, and reopens and closes it by update', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'Done already', project_id: 'octo-org/helpdesk', status: 'CLOSED' });
    expect(record.data.status).toBe('CLOSED');
    expect(record.data.completed_at).toBeTruthy();
    expect(record.remoteData.state_reason).toBe('completed');
    const reopened = await ops.updateTicket(ctx, record.remoteId, { status: 'OPEN' });
    expect(reopened.record.data).toMatchObject({ status: 'OPEN', completed_at: null });
    expect(reopened.record.remoteData.state_reason).toBe('reopened');
    const closed = await ops.updateTicket(ctx, record.remoteId, { status: 'closed', name: 'Done', description: [], tags: [], assigned_to: [] });
    expect(closed.record.data).toMatchObject({ status: 'CLOSED', name: 'Done', description: [], tags: [], assigned_to: [] });
  });

  it('updates with an empty patch by reading the issue, and accepts its own repository as project_id', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'Stay', project_id: 'octo-org/helpdesk' });
    const same = await ops.updateTicket(ctx, record.remoteId, { project_id: 'OCTO-ORG/Helpdesk' });
    expect(same.record.data.name).toBe('Stay');
    const moved = await rejects(ops.updateTicket(ctx, record.remoteId, { project_id: 'octo-org/website' }));
    expect(moved.details).toMatchObject({ field: 'project_id', provider: 'github' });
    expect(moved.code).toBe('unsupported_by_provider');
  });

  it('refuses what GitHub issues do not have with 422 naming the field, before calling GitHub', async () => {
    const before = sim.requests.length;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['priority', { priority: 'HIGH' }],
      ['type', { type: 'bug' }],
      ['due_date', { due_date: '2030-01-01T00:00:00Z' }],
      ['parent_ticket', { parent_ticket: 'octo-org/helpdesk#1' }],
      ['account_id', { account_id: '1' }],
      ['contact_id', { contact_id: '1' }],
      ['completed_at', { completed_at: '2030-01-01T00:00:00Z' }],
      ['status', { status: 'IN_PROGRESS' }],
      ['status', { status: 'ON_HOLD' }],
      ['field_mappings', { customFields: [{ remoteFieldId: 'x', value: 1 }] }],
      ['assigned_to', { assigned_to: Array.from({ length: 11 }, (_, i) => `u${i}`) }],
    ];
    for (const [field, extra] of cases) {
      const err = await rejects(ops.createTicket(ctx, { name: 'x', project_id: 'octo-org/helpdesk', ...extra }));
      expect(err.status, field).toBe(422);
      expect(err.details.field, field).toBe(field);
    }
    expect((await rejects(ops.createTicket(ctx, { name: 'x' }))).details.field).toBe('project_id');
    expect((await rejects(ops.createTicket(ctx, { project_id: 'octo-org/helpdesk' }))).details.field).toBe('name');
    expect((await rejects(ops.createTicket(ctx, { name: 'x', project_id: 'not a repo' }))).details.field).toBe('project_id');
    expect(sim.requests.length).toBe(before);
  });

  it('refuses labels and assignees where the token cannot push (GitHub would drop them silently)', async () => {
    sim.addToken('ghp_mona', 'mona'); // triage on helpdesk
    const monaCtx = context(sim, githubAdapter, 'ghp_mona');
    const err = await rejects(ops.createTicket(monaCtx, { name: 'x', project_id: 'octo-org/helpdesk', tags: ['bug'] }));
    expect(err).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'tags' } });
    const err2 = await rejects(ops.createTicket(monaCtx, { name: 'x', project_id: 'octo-org/helpdesk', assigned_to: ['mona'] }));
    expect(err2.details.field).toBe('assigned_to');
    // Without labels or assignees the same user can open issues.
    const ok = await ops.createTicket(monaCtx, { name: 'Mona reports', project_id: 'octo-org/helpdesk' });
    expect(ok.record.data.name).toBe('Mona reports');
  });

  it('creates a batch one issue at a time, in order, each element on its own', async () => {
    const results = await ops.createTickets!(ctx, [
      { name: 'batch 1', project_id: 'octo-org/helpdesk' },
      { name: 'batch 2', project_id: 'octo-org/helpdesk', priority: 'LOW' },
      { name: 'batch 3', project_id: 'octo-org/nope' },
      { name: 'batch 4', project_id: 'octo-org/website' },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
    expect(results[0]!.ok && results[0]!.result.record.data.name).toBe('batch 1');
    expect(!results[1]!.ok && (results[1]!.error as AppError).details.field).toBe('priority');
    expect(!results[2]!.ok && (results[2]!.error as ProviderError).providerStatus).toBe(404);
    expect(results[3]!.ok && results[3]!.result.record.remoteId).toMatch(/^octo-org\/website#\d+$/);
  });

  it('comments as the token user; refuses attachments, private comments, contacts and other authors', async () => {
    const { record } = await ops.createComment(ctx, { ticket_id: 'octo-org/helpdesk#1', body: 'We sent a **technician**.', user_id: 'octocat', files: [] });
    expect(record.data).toMatchObject({
      body: 'We sent a **technician**.',
      html_body: expect.stringContaining('<strong>technician</strong>'),
      is_private: false,
      creator_type: 'USER',
      user_id: ctx.ids('ticketing.user', 'octocat'),
      ticket_id: ctx.ids('ticketing.ticket', 'octo-org/helpdesk#1'),
      attachments: [],
    });
    const html = await ops.createComment(ctx, { ticket_id: 'octo-org/helpdesk#1', html_body: '<p>HTML</p>', files: [] });
    expect(html.record.data.body).toBe('<p>HTML</p>');

    const before = sim.requests.length;
    const file = { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') };
    const cases: Array<[string, Record<string, unknown>]> = [
      ['attachments', { files: [file] }],
      ['is_private', { is_private: true }],
      ['contact_id', { contact_id: 'someone' }],
      ['creator_type', { creator_type: 'CONTACT' }],
      ['html_body', { html_body: '<p>x</p>' }],
      ['field_mappings', { customFields: [{ remoteFieldId: 'x', value: 1 }] }],
    ];
    for (const [field, extra] of cases) {
      const err = await rejects(ops.createComment(ctx, { ticket_id: 'octo-org/helpdesk#1', body: 'x', files: [], ...extra }));
      expect(err.status, field).toBe(422);
      expect(err.details.field, field).toBe(field);
    }
    expect(sim.requests.length).toBe(before);
    const other = await rejects(ops.createComment(ctx, { ticket_id: 'octo-org/helpdesk#1', body: 'x', user_id: 'hubot', files: [] }));
    expect(other.details.field).toBe('user_id');
    expect((await rejects(ops.createComment(ctx, { ticket_id: 'octo-org/helpdesk#1', body: ' ', files: [] }))).status).toBe(400);
    expect((await rejects(ops.createComment(ctx, { ticket_id: '12', body: 'x', files: [] }))).details.field).toBe('ticket_id');
  });

  it('answers GitHub refusals as provider errors with GitHub\'s message', async () => {
    const err = await rejects(ops.createTicket(ctx, { name: 'x', project_id: 'octo-org/helpdesk', assigned_to: ['outsider'] }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(422);
    expect(err.message).toContain('Validation Failed: assignees invalid ("outsider")');
    const gone = await rejects(ops.createTicket(ctx, { name: 'x', project_id: 'octocat/dotfiles' }));
    expect(gone.message).toContain('410: Issues are disabled for this repo');
    const archived = await rejects(ops.createComment(ctx, { ticket_id: 'octo-org/legacy#1', body: 'x', files: [] }));
    expect(archived.message).toBe('github answered 403: Repository was archived so is read-only.');
  });

  it('sent and answered only what GitHub\'s description allows', () => {
    expectNoSpecViolations(sim);
    for (const r of sim.requests) {
      expect(JSON.stringify(r)).not.toContain(sim.token);
      expect(r.headers['user-agent']).toBeTruthy();
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
    }
  });
});

describe('github adapter: sync', () => {
  let sim: GithubSimulator;
  let ctx: AdapterContext;
  const adapter = createGithubAdapter({ pageSize: 2 });

  beforeAll(async () => {
    sim = await startGithubSimulator();
    sim.seedIssues('octo-org/website', 7, { commentsPerIssue: 3, prEvery: 4 });
    ctx = context(sim, adapter);
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('syncs the repositories the token can see, to the last page', async () => {
    const batches = await collect(syncer(adapter, 'ticketing.collection'), ctx);
    const repos = recordsOf(batches);
    expect(repos.map((r) => r.remoteId)).toEqual(['octo-org/helpdesk', 'octo-org/legacy', 'octo-org/website', 'octocat/dotfiles']);
    expect(repos[0]!.data).toEqual({ name: 'octo-org/helpdesk', description: 'Customer support tickets', collection_type: 'PROJECT', parent_id: null });
    expect(batches.length).toBe(2);
    expect(batches.at(-1)!.resume).toBeNull();
    // Resume at the saved next page.
    const resumed = recordsOf(await collect(syncer(adapter, 'ticketing.collection'), ctx, { resume: batches[0]!.resume! }));
    expect(resumed.map((r) => r.remoteId)).toEqual(['octo-org/website', 'octocat/dotfiles']);
  });

  it('syncs users: the token user with its name, then the assignable users of every repository with issues, once each', async () => {
    const users = recordsOf(await collect(syncer(adapter, 'ticketing.user'), ctx));
    expect(users.map((u) => u.remoteId)).toEqual(['octocat', 'hubot', 'mona']);
    expect(users[0]!.data).toEqual({ name: 'The Octocat', email_address: 'octocat@github.example', teams: [], account_id: null });
    expect(users[1]!.data.name).toBe('hubot');
  });

  it('syncs labels of every repository as tags', async () => {
    const tags = recordsOf(await collect(syncer(adapter, 'ticketing.tag'), ctx));
    expect(tags.map((t) => t.data.name)).toEqual(['bug', 'enhancement', 'question', 'customer', 'bug', 'enhancement', 'question', 'bug', 'enhancement', 'question']);
    expect(new Set(tags.map((t) => t.remoteId)).size).toBe(tags.length);
  });

  it('syncs issues of every repository without pull requests, page by page', async () => {
    const batches = await collect(syncer(adapter, 'ticketing.ticket'), ctx);
    const tickets = recordsOf(batches);
    const remoteIds = tickets.map((t) => t.remoteId).sort();
    expect(remoteIds).toContain('octo-org/helpdesk#1');
    expect(remoteIds).not.toContain('octo-org/helpdesk#2'); // a pull request
    expect(remoteIds.filter((r) => r.startsWith('octo-org/website#'))).toHaveLength(1 + 7 - 1);
    const login = tickets.find((t) => t.remoteId === 'octo-org/helpdesk#1')!;
    expect(login.data).toMatchObject({
      name: 'Login page broken',
      status: 'OPEN',
      tags: ['bug', 'customer'],
      assigned_to: [ctx.ids('ticketing.user', 'hubot')],
      project_id: ctx.ids('ticketing.collection', 'octo-org/helpdesk'),
    });
    expect(tickets.find((t) => t.remoteId === 'octo-org/helpdesk#3')!.data).toMatchObject({ status: 'CLOSED', completed_at: expect.any(String) });
    expect(batches.length).toBeGreaterThan(4);
    expect(JSON.parse(batches.at(-1)!.resume!)).toEqual({ repo: 'octo-org/website', next: null });
    const issueLists = sim.requests.filter((r) => /\/issues$/.test(r.path) && r.method === 'GET');
    expect(issueLists.every((r) => r.query.state === 'all')).toBe(true);
    expect(issueLists.some((r) => r.path.includes('dotfiles'))).toBe(false); // issues disabled
  });

  it('resumes a tickets run inside a repository and after a finished one', async () => {
    const all = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx)).map((r) => r.remoteId);
    const batches = await collect(syncer(adapter, 'ticketing.ticket'), ctx);
    const mid = batches.findIndex((b) => JSON.parse(b.resume!).repo === 'octo-org/website' && JSON.parse(b.resume!).next);
    const rest = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx, { resume: batches[mid]!.resume! })).map((r) => r.remoteId);
    const before = recordsOf(batches.slice(0, mid + 1)).map((r) => r.remoteId);
    // A resumed walk may read again the items of the second it stopped in (saved once by remote id).
    expect([...new Set([...before, ...rest])].sort()).toEqual([...all].sort());
    const afterHelpdesk = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx, { resume: JSON.stringify({ repo: 'octo-org/helpdesk', next: null }) }));
    expect(afterHelpdesk.every((r) => r.remoteId.startsWith('octo-org/website#'))).toBe(true);
  });

  it('syncs comments repository-wide without pull-request comments, with html bodies', async () => {
    const comments = recordsOf(await collect(syncer(adapter, 'ticketing.comment'), ctx));
    const onLogin = comments.filter((c) => c.parent?.remoteId === 'octo-org/helpdesk#1');
    expect(onLogin.map((c) => c.data.body).sort()).toEqual(['Still broken.', 'We are looking into it.']);
    expect(onLogin.every((c) => typeof c.data.html_body === 'string')).toBe(true);
    expect(comments.some((c) => c.data.body === 'LGTM')).toBe(false); // on the pull request
    expect(comments.filter((c) => c.parent?.remoteId.startsWith('octo-org/website#'))).toHaveLength(6 * 3);
    const outsider = onLogin.find((c) => c.data.body === 'Still broken.')!;
    expect(outsider.data).toMatchObject({ creator_type: 'USER', user_id: ctx.ids('ticketing.user', 'outsider') });
  });

  it('incremental runs read only what changed since, with GitHub\'s since format', async () => {
    const since = new Date(sim.clock.now() + 1500);
    sim.clock.advance(60_000);
    sim.updateIssueRemotely('octo-org/website', 1, { title: 'Changed remotely' });
    sim.addCommentRemotely('octo-org/helpdesk', 1, 'A new comment');
    sim.clearRequests();
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx, { since }));
    expect(tickets.map((t) => [t.remoteId, t.data.name])).toEqual([
      ['octo-org/helpdesk#1', 'Login page broken'], // its comment bumped updated_at
      ['octo-org/website#1', 'Changed remotely'],
    ]);
    const comments = recordsOf(await collect(syncer(adapter, 'ticketing.comment'), ctx, { since }));
    expect(comments.map((c) => c.data.body)).toEqual(['A new comment']);
    const sinceParams = sim.requests.filter((r) => r.query.since).map((r) => r.query.since);
    expect(sinceParams.length).toBeGreaterThan(0);
    expect(sinceParams.every((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(String(s)))).toBe(true);
  });

  it('a full run no longer yields a deleted issue, and skips repositories gone or with issues disabled meanwhile', async () => {
    sim.deleteIssueRemotely('octo-org/website', 2);
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx)).map((t) => t.remoteId);
    expect(tickets).not.toContain('octo-org/website#2');
    expect(syncer(adapter, 'ticketing.ticket').reportsDeletions).toBe(false);

    sim.faults.add({ method: 'GET', path: '/repos/octo-org/helpdesk/issues', status: 410 });
    sim.faults.add({ method: 'GET', path: '/repos/octo-org/website/labels', status: 404 });
    const after = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx)).map((t) => t.remoteId);
    expect(after.some((r) => r.startsWith('octo-org/helpdesk#'))).toBe(false);
    expect(after.some((r) => r.startsWith('octo-org/website#'))).toBe(true);
    const tags = recordsOf(await collect(syncer(adapter, 'ticketing.tag'), ctx));
    expect(tags.map((t) => t.data.name)).toEqual(['bug', 'enhancement', 'question', 'customer', 'bug', 'enhancement', 'question']);
    sim.faults.clear();
    sim.faults.add({ method: 'GET', path: '/repos/octo-org/helpdesk/issues', status: 500, times: 10 });
    await expect(collect(syncer(adapter, 'ticketing.ticket'), ctx)).rejects.toMatchObject({ providerStatus: 500 });
    sim.faults.clear();
  });

  it('sent and answered only what GitHub\'s description allows', () => {
    expectNoSpecViolations(sim);
  });
});

describe('github adapter: rate limits, credentials, Enterprise Server', () => {
  let sim: GithubSimulator;

  beforeAll(async () => {
    sim = await startGithubSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('waits out a primary-limit 403 (x-ratelimit-remaining: 0) until x-ratelimit-reset, then retries', async () => {
    const ctx = context(sim);
    sim.primaryRateLimit(1, { resetInSeconds: 1 });
    const created = await githubAdapter.ticketing!.createTicket(ctx, { name: 'after the limit', project_id: 'octo-org/helpdesk' });
    expect(created.record.data.name).toBe('after the limit');
  });

  it('answers a primary-limit 403 with a long reset, and a secondary limit, as 503 with the provider’s wait', async () => {
    const ctx = context(sim, githubAdapter, sim.token, { maxRetryAfterMs: 1_000 });
    sim.primaryRateLimit(1, { resetInSeconds: 120 });
    const err = await rejects(githubAdapter.ticketing!.createTicket(ctx, { name: 'x', project_id: 'octo-org/helpdesk' }));
    expect(err).toMatchObject({ code: 'provider_rate_limited', status: 503, details: { provider: 'github', provider_status: 403 } });
    expect(Number(err.headers['retry-after'])).toBeGreaterThan(100);
    sim.secondaryRateLimit(1);
    const err2 = await rejects(collect(syncer(githubAdapter, 'ticketing.collection'), ctx));
    expect(err2.code).toBe('provider_rate_limited');
    expect(err2.headers['retry-after']).toBe('60');
    // Without retry-after, GitHub asks for at least a minute: never a quick retry.
    const calls = sim.requests.length;
    sim.secondaryRateLimit(1, { retryAfterSeconds: null });
    const err3 = await rejects(collect(syncer(githubAdapter, 'ticketing.collection'), ctx));
    expect(err3.code).toBe('provider_rate_limited');
    expect(Number(err3.headers['retry-after'])).toBeGreaterThanOrEqual(60);
    expect(sim.requests.length).toBe(calls + 1);
  });

  it('waits for x-ratelimit-reset on a primary-limit 429 and retries', async () => {
    const ctx = context(sim);
    sim.primaryRateLimit(1, { status: 429, resetInSeconds: 1 });
    const started = Date.now();
    const users = recordsOf(await collect(syncer(githubAdapter, 'ticketing.collection'), ctx));
    expect(users.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('answers a 429 with a long reset as 503 with Retry-After', async () => {
    const ctx = context(sim, githubAdapter, sim.token, { maxRetryAfterMs: 1_000 });
    sim.primaryRateLimit(1, { status: 429, resetInSeconds: 600 });
    const err = await rejects(collect(syncer(githubAdapter, 'ticketing.collection'), ctx));
    expect(err.code).toBe('provider_rate_limited');
    expect(Number(err.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('verifies credentials with GET /user; a refused token is a provider error 401', async () => {
    await githubAdapter.verifyCredentials(context(sim));
    const err = await rejects(githubAdapter.verifyCredentials(context(sim, githubAdapter, 'ghp_wrong')));
    expect(err).toMatchObject({ providerStatus: 401, providerMessage: 'Bad credentials' });
  });

  it('works against GitHub Enterprise Server paths (/api/v3)', async () => {
    const ghes = await startGithubSimulator({ pathPrefix: '/api/v3' });
    try {
      expect(ghes.url).toMatch(/\/api\/v3$/);
      const ctx = context(ghes, createGithubAdapter({ pageSize: 1 }));
      const adapter = createGithubAdapter({ pageSize: 1 });
      const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx));
      expect(tickets.map((t) => t.remoteId).sort()).toEqual(['octo-org/helpdesk#1', 'octo-org/helpdesk#3', 'octo-org/website#1']);
      const { record } = await adapter.ticketing!.createTicket(ctx, { name: 'On GHES', project_id: 'octo-org/helpdesk', tags: ['bug'] });
      expect(record.remoteId).toMatch(/^octo-org\/helpdesk#\d+$/);
      expect(ghes.requests.every((r) => r.path.startsWith('/api/v3/'))).toBe(true);
      expectNoSpecViolations(ghes);
    } finally {
      await ghes.close();
    }
  });

  it('sent and answered only what GitHub\'s description allows', () => {
    expectNoSpecViolations(sim);
  });
});

describe('github adapter: items deleted while a run pages through a list', () => {
  let sim: GithubSimulator;
  let ctx: AdapterContext;
  const adapter = createGithubAdapter({ pageSize: 3 });
  const REPO = 'octo-org/website';

  beforeAll(async () => {
    sim = await startGithubSimulator();
    ctx = context(sim, adapter);
  });
  afterAll(async () => {
    await sim?.close();
  });

  /** Issues (one comment each) a second apart, as a real account's are, then a few sharing one second. */
  function seed(apart: number, together: number) {
    for (let i = 0; i < apart; i++) {
      sim.clock.advance(1000);
      const issue = sim.createIssueRemotely(REPO, { title: `Apart ${i}` });
      sim.addCommentRemotely(REPO, issue.number, `On apart ${i}`);
    }
    sim.clock.advance(1000);
    for (let i = 0; i < together; i++) sim.createIssueRemotely(REPO, { title: `Together ${i}` });
  }

  it('reads every issue and comment still there when some on pages already read are deleted mid-run', async () => {
    seed(10, 6);
    const issuesBefore = sim.state.issuesOf(sim.repo(REPO)).filter((i) => !i.pull);
    let deleted: number[] = [];
    const deleteAlreadyRead = () => {
      // The oldest- and the newest-updated issues still there: one of them was on the first page, whichever
      // way the list is sorted.
      const left = sim.state.issuesOf(sim.repo(REPO)).filter((i) => !i.pull && !deleted.includes(i.number)).sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id - b.id);
      for (const victim of [left[0]!, left.at(-1)!]) {
        deleted.push(victim.number);
        sim.deleteIssueRemotely(REPO, victim.number);
      }
    };
    const onSecondPage = (path: RegExp) => ({ method: 'GET', path, when: (req: { query: URLSearchParams }) => req.query.get('since') !== null || (req.query.get('page') ?? '1') !== '1', before: deleteAlreadyRead });

    sim.faults.add(onSecondPage(/^\/repos\/octo-org\/website\/issues$/));
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx)).map((r) => r.remoteId);
    expect(deleted).toHaveLength(2);
    const live = issuesBefore.filter((i) => !deleted.includes(i.number)).map((i) => `${REPO}#${i.number}`);
    expect(live.filter((id) => !tickets.includes(id))).toEqual([]);

    deleted = [];
    const commentsBefore = [...sim.state.comments.values()].filter((c) => c.repoId === sim.repo(REPO).id);
    sim.faults.add(onSecondPage(/^\/repos\/octo-org\/website\/issues\/comments$/));
    const comments = recordsOf(await collect(syncer(adapter, 'ticketing.comment'), ctx)).map((r) => r.remoteId);
    expect(deleted).toHaveLength(2);
    const liveComments = [...sim.state.comments.values()].filter((c) => c.repoId === sim.repo(REPO).id).map((c) => String(c.id));
    expect(liveComments.length).toBeLessThan(commentsBefore.length);
    expect(liveComments.filter((id) => !comments.includes(id))).toEqual([]);
  });

  it('reads every issue when one already read is changed mid-run (it moves to the end of the update order)', async () => {
    seed(7, 0);
    const live = () => sim.state.issuesOf(sim.repo(REPO)).filter((i) => !i.pull);
    let changed: number | undefined;
    // List issues pages by number over `sort=updated&direction=asc` (docs.github.com, REST → Issues → List
    // repository issues; Using pagination): the issue changed leaves its place and every later one moves back.
    const fault = sim.faults.add({
      method: 'GET',
      path: /^\/repos\/octo-org\/website\/issues$/,
      when: (req: { query: URLSearchParams }) => req.query.get('since') !== null || (req.query.get('page') ?? '1') !== '1',
      before: () => {
        const first = live().sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id - b.id)[0]!;
        changed = first.number;
        sim.clock.advance(1000);
        sim.updateIssueRemotely(REPO, first.number, { title: 'Changed mid-run' });
      },
    });
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx));
    expect(fault.hits).toBe(1);
    const read = new Set(tickets.map((r) => r.remoteId));
    expect(live().map((i) => `${REPO}#${i.number}`).filter((id) => !read.has(id))).toEqual([]);
    expect(tickets.filter((r) => r.remoteId === `${REPO}#${changed}`).map((r) => r.data.name)).toContain('Changed mid-run');
  });

  it('walks by update time: page 1 from the last second read, the next page only within one second', async () => {
    sim.clearRequests();
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx));
    const live = sim.state.issuesOf(sim.repo(REPO)).filter((i) => !i.pull).map((i) => `${REPO}#${i.number}`);
    expect(tickets.map((t) => t.remoteId).filter((id) => id.startsWith(`${REPO}#`)).sort()).toEqual(live.sort());
    const lists = sim.requests.filter((r) => r.path === `/repos/${REPO}/issues`);
    expect(lists.every((r) => r.query.sort === 'updated' && r.query.direction === 'asc')).toBe(true);
    // Four issues share the last second (page size 3; two more of them were deleted): the walk goes on with page 2 of that second.
    expect(lists.some((r) => r.query.page === '2' && typeof r.query.since === 'string')).toBe(true);
    expectNoSpecViolations(sim);
  });
});
