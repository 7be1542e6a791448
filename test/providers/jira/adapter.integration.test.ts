/**
 * The Jira adapter driven directly (no Omniport server, no database) against the Jira simulator:
 * writes (create with transitions and comments, bulk create, update, comments with attachments),
 * every syncer run to the last page, full then incremental, and spec validation of all traffic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createJiraAdapter, jiraAdapter } from '../../../src/providers/jira';
import { clearMetadataCache } from '../../../src/providers/jira/api';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, TicketWrite, UnifiedRecord } from '../../../src/providers/types';
import { formatViolation } from '../../support/openapi-validator';
import { startJiraSimulator, type JiraSimulator } from '../../simulators/jira';

const ids = idFactory('conn-1');

function context(sim: JiraSimulator, adapter: ProviderAdapter = jiraAdapter, credentials?: Record<string, string>, connectionId = 'conn-1'): AdapterContext {
  const creds = credentials ?? { email: sim.credentials[0]!.email, api_token: sim.credentials[0]!.apiToken };
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(creds),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 3,
  });
  return { connectionId, baseUrl: sim.url, credentials: creds, http, ids };
}

async function collect(syncer: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of syncer.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] => batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

function expectNoSpecViolations(sim: JiraSimulator) {
  if (!sim.specAvailable) {
    console.warn('jira swagger-v3.v3.json not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

const syncer = (adapter: ProviderAdapter, key: string) => adapter.syncers.find((s) => s.key === key)!;

describe('jira adapter: writes', () => {
  let sim: JiraSimulator;
  let ctx: AdapterContext;
  const adapter = createJiraAdapter();
  const ops = adapter.ticketing!;
  let project: string;

  beforeAll(async () => {
    clearMetadataCache();
    sim = await startJiraSimulator();
    ctx = context(sim, adapter);
    project = sim.project('SUP').id;
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('verifies credentials and refuses bad ones', async () => {
    await expect(adapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    const bad = context(sim, adapter, { email: 'admin@example.com', api_token: 'wrong' }, 'conn-bad');
    const err = await adapter.verifyCredentials(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(401);
    expect((err as ProviderError).message).toContain('Client must be authenticated');
    expect(sim.requests.at(-1)!.headers.authorization).toBe('Basic [redacted]');
  });

  it('creates an issue with every field, moves it to the asked status and adds comments', async () => {
    const sam = sim.userByEmail('sam@example.com').accountId;
    const input: TicketWrite = {
      name: 'Printer on fire',
      description: ['It started smoking.', 'Then flames.'],
      project_id: project,
      type: 'bug',
      priority: 'URGENT',
      tags: ['hardware', 'urgent'],
      assigned_to: [sam],
      due_date: '2030-01-15T22:30:00.000Z',
      status: 'IN_PROGRESS',
      comment: ['First reply', 'Second reply'],
    };
    const { record, related } = await ops.createTicket(ctx, input);
    expect(record.data).toMatchObject({
      name: 'Printer on fire',
      description: ['It started smoking.', 'Then flames.'],
      project_id: ids('ticketing.collection', project),
      type: 'Bug',
      priority: 'URGENT',
      tags: ['hardware', 'urgent'],
      assigned_to: [ids('ticketing.user', sam)],
      due_date: '2030-01-15T00:00:00.000Z',
      status: 'IN_PROGRESS',
      completed_at: null,
      contact_id: null,
      account_id: null,
    });
    expect(related?.map((r) => r.data.body)).toEqual(['First reply', 'Second reply']);
    const issue = sim.state.issue(record.remoteId)!;
    expect(issue.description).toEqual({
      type: 'doc',
      version: 1,
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'It started smoking.' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Then flames.' }] },
      ],
    });
    expect(issue.duedate).toBe('2030-01-15');
    expect(issue.priorityId).toBe('1');
  });

  it('closes with the resolution the transition screen requires, and reads ON_HOLD from a blocked status', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'Close me', project_id: project, status: 'CLOSED' });
    expect(record.data.status).toBe('CLOSED');
    expect(record.data.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(sim.state.issue(record.remoteId)!.resolutionId).toBe('10000');
    const held = await ops.updateTicket(ctx, record.remoteId, { status: 'ON_HOLD' });
    expect(held.record.data).toMatchObject({ status: 'ON_HOLD', completed_at: null });
    expect((held.record.remoteData.fields as { status: { name: string } }).status.name).toBe('Blocked');
    const reopened = await ops.updateTicket(ctx, record.remoteId, { status: 'OPEN' });
    expect(reopened.record.data.status).toBe('OPEN');
  });

  it('refuses what Jira cannot take with 422 naming the field, before calling Jira', async () => {
    const before = sim.requests.length;
    const cases: [Partial<TicketWrite>, string][] = [
      [{ contact_id: 'x' }, 'contact_id'],
      [{ account_id: 'x' }, 'account_id'],
      [{ completed_at: '2024-01-01T00:00:00Z' }, 'completed_at'],
      [{ assigned_to: ['a', 'b'] }, 'assigned_to'],
      [{ tags: ['two words'] }, 'tags[0]'],
      [{ name: 'two\nlines' }, 'name'],
    ];
    for (const [patch, field] of cases) {
      const err = await ops.createTicket(ctx, { name: 'x', project_id: project, ...patch }).catch((e: unknown) => e);
      expect(err, field).toBeInstanceOf(AppError);
      expect((err as AppError).status, field).toBe(422);
      expect((err as AppError).details.field, field).toBe(field);
    }
    expect(sim.requests.length).toBe(before);
    const noProject = await ops.createTicket(ctx, { name: 'x' }).catch((e: unknown) => e);
    expect((noProject as AppError).details.field).toBe('project_id');
    const badType = await ops.createTicket(ctx, { name: 'x', project_id: project, type: 'Incident' }).catch((e: unknown) => e);
    expect(badType).toMatchObject({ status: 422, details: { field: 'type', allowed: expect.arrayContaining(['Task', 'Bug']) } });
  });

  it('updates fields, clears the assignee and refuses a move to another project', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'Edit me', project_id: project, assigned_to: [sim.userOf().accountId], tags: ['a'] });
    const updated = await ops.updateTicket(ctx, record.remoteId, { name: 'Edited', assigned_to: [], tags: [], description: ['New text'], priority: 'LOW', type: 'Story' });
    expect(updated.record.data).toMatchObject({ name: 'Edited', assigned_to: [], tags: [], description: ['New text'], priority: 'LOW', type: 'Story' });
    const move = await ops.updateTicket(ctx, record.remoteId, { project_id: sim.project('ENG').id }).catch((e: unknown) => e);
    expect(move).toMatchObject({ status: 422, details: { field: 'project_id' } });
    const same = await ops.updateTicket(ctx, record.remoteId, { project_id: project, name: 'Same project' });
    expect(same.record.data.name).toBe('Same project');
  });

  it('bulk-creates through /issue/bulk with per-element errors in order', async () => {
    const results = await ops.createTickets!(ctx, [
      { name: 'bulk one', project_id: project, status: 'IN_PROGRESS' },
      { name: 'bulk two', project_id: project, parent_ticket: '999999' },
      { name: 'bulk three', project_id: project, comment: ['hello'] },
      { name: 'refused locally', project_id: project, contact_id: 'x' },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false]);
    const [one, two, three, four] = results;
    expect(one!.ok && one!.result.record.data).toMatchObject({ name: 'bulk one', status: 'IN_PROGRESS' });
    expect(!two!.ok && two!.error.message).toContain('parent');
    expect(three!.ok && three!.result.related?.[0]?.data.body).toBe('hello');
    expect(!four!.ok && (four!.error as AppError).details.field).toBe('contact_id');
    expect(sim.requests.filter((r) => r.path === '/rest/api/3/issue/bulk')).toHaveLength(1);

    const allBad = await ops.createTickets!(ctx, [{ name: 'bad', project_id: project, parent_ticket: '999998' }]);
    expect(allBad[0]!.ok).toBe(false);
  });

  it('comments with attachments: uploads them to the issue, links them from the body, refuses what Jira cannot do', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'With files', project_id: project });
    const files = [
      { fileName: 'notes.txt', contentType: 'text/plain', content: Buffer.from('hello') },
      { fileName: 'log.json', contentType: 'application/json', content: Buffer.from('{"a":1}') },
    ];
    const me = sim.userOf().accountId;
    const res = await ops.createComment(ctx, { ticket_id: record.remoteId, html_body: '<p>We <b>sent</b> a technician.</p>', user_id: me, is_private: false, files });
    expect(res.record.data).toMatchObject({ body: expect.stringContaining('We sent a technician.'), creator_type: 'USER', user_id: ids('ticketing.user', me), is_private: false });
    expect(res.record.data.html_body).toContain('<strong>sent</strong>');
    expect(res.related?.map((a) => a.data.file_name)).toEqual(['notes.txt', 'log.json']);
    expect(res.record.data.attachments).toEqual(res.related!.map((a) => ids('ticketing.attachment', a.remoteId)));
    expect(res.related![0]!.data.comment_id).toBe(ids('ticketing.comment', res.record.remoteId));
    const stored = sim.state.issue(record.remoteId)!;
    expect(stored.attachmentIds).toHaveLength(2);
    expect(sim.state.attachments.get(stored.attachmentIds[0]!)!.content.toString()).toBe('hello');
    const upload = sim.requests.find((r) => r.path.endsWith('/attachments'))!;
    expect(upload.headers['x-atlassian-token']).toBe('no-check');

    for (const [input, field] of [
      [{ is_private: true }, 'is_private'],
      [{ contact_id: 'c' }, 'contact_id'],
      [{ user_id: sim.userByEmail('sam@example.com').accountId }, 'user_id'],
      [{ creator_type: 'CONTACT' }, 'creator_type'],
    ] as const) {
      const err = await ops.createComment(ctx, { ticket_id: record.remoteId, body: 'x', files: [], ...input }).catch((e: unknown) => e);
      expect((err as AppError).details.field, field).toBe(field);
    }
  });

  it('removes the uploads when the comment itself fails', async () => {
    const { record } = await ops.createTicket(ctx, { name: 'Orphans', project_id: project });
    const file = { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') };
    sim.faults.add({ method: 'POST', path: `/rest/api/3/issue/${record.remoteId}/comment`, status: 400 });
    const err = await ops.createComment(ctx, { ticket_id: record.remoteId, body: 'x', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(sim.state.issue(record.remoteId)!.attachmentIds).toEqual([]);
    // A 500 may come after the comment was made: its outcome is unknown and the attachment it links to stays.
    sim.faults.add({ method: 'POST', path: `/rest/api/3/issue/${record.remoteId}/comment`, status: 500 });
    const unknown = await ops.createComment(ctx, { ticket_id: record.remoteId, body: 'x', files: [file] }).catch((e: unknown) => e);
    expect((unknown as AppError).code).toBe('outcome_unknown');
    expect(sim.state.issue(record.remoteId)!.attachmentIds).toHaveLength(1);
  });

  it('writes mapped custom fields in the shape their type needs', async () => {
    const f = (n: string) => sim.field(n).id;
    const { record } = await ops.createTicket(ctx, {
      name: 'Custom',
      project_id: project,
      customFields: [
        { remoteFieldId: f('Order number'), value: 'ORD-9' },
        { remoteFieldId: f('Story points'), value: 5 },
        { remoteFieldId: f('Customer tier'), value: 'Gold' },
        { remoteFieldId: f('Root cause'), value: 'Loose cable' },
        { remoteFieldId: f('Go-live'), value: '2030-02-01T10:00:00Z' },
      ],
    });
    const read = (id: string) => adapter.customFields!.read('ticketing.ticket', record.remoteData, id);
    expect(read(f('Order number'))).toBe('ORD-9');
    expect(read(f('Story points'))).toBe(5);
    expect(read(f('Customer tier'))).toBe('Gold');
    expect(read(f('Root cause'))).toBe('Loose cable');
    expect(read(f('Go-live'))).toBe('2030-02-01');
    const unknown = await ops.createTicket(ctx, { name: 'x', project_id: project, customFields: [{ remoteFieldId: 'customfield_99999', value: 1 }] }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 422, details: { field: 'field_mappings' } });
    const listed = await adapter.customFields!.list(ctx, 'ticketing.ticket');
    expect(listed.map((x) => x.label)).toEqual(['Order number', 'Story points', 'Customer tier', 'Root cause', 'Go-live']);
    expect(listed.find((x) => x.label === 'Customer tier')!.type).toBe('select');
  });

  it('sends only requests the OpenAPI document describes, and the simulator answers in its shapes', () => {
    expectNoSpecViolations(sim);
  });
});

describe('jira adapter: sync', () => {
  let sim: JiraSimulator;
  let ctx: AdapterContext;
  const adapter = createJiraAdapter({ searchPageSize: 7, listPageSize: 2, commentPageSize: 2, commentIssuesPerBatch: 5 });

  beforeAll(async () => {
    clearMetadataCache();
    sim = await startJiraSimulator();
    ctx = context(sim, adapter, undefined, 'conn-sync');
    sim.seedIssues(23, { commentsPerIssue: 3, spacingMs: 60_000, labels: (i) => [`label-${i % 4}`] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('syncs projects, groups with memberships, users (no JSM customers) and labels to the last page', async () => {
    const collections = recordsOf(await collect(syncer(adapter, 'ticketing.collection'), ctx));
    expect(collections.map((c) => c.data.name)).toEqual(['Engineering', 'Support']);
    expect(collections.find((c) => c.data.name === 'Support')!.data).toMatchObject({ description: 'Customer support requests', collection_type: 'PROJECT' });

    const directory = await collect(syncer(adapter, 'ticketing.user'), ctx);
    const teams = recordsOf(directory, 'ticketing.team');
    const users = recordsOf(directory, 'ticketing.user');
    expect(teams.map((t) => t.data.name).sort()).toEqual(['jira-software-users', 'site-admins', 'support-team']);
    expect(users.map((u) => u.data.name)).toEqual(['Ada Admin', 'Sam Support', 'Dana Former', 'Automation for Jira']);
    const sam = users.find((u) => u.data.name === 'Sam Support')!;
    const teamId = (name: string) => ids('ticketing.team', teams.find((t) => t.data.name === name)!.remoteId);
    expect(sam.data).toMatchObject({ email_address: 'sam@example.com', teams: [teamId('jira-software-users'), teamId('support-team')] });

    const tags = recordsOf(await collect(syncer(adapter, 'ticketing.tag'), ctx));
    expect(tags.map((t) => t.remoteId)).toEqual(['label-0', 'label-1', 'label-2', 'label-3', 'legacy', 'web']);
  });

  it('syncs every issue with JQL pages, then only the changed ones, in the user time zone', async () => {
    const s = syncer(adapter, 'ticketing.ticket');
    const full = await collect(s, ctx);
    expect(recordsOf(full)).toHaveLength(25);
    expect(new Set(recordsOf(full).map((r) => r.remoteId)).size).toBe(25);
    expect(full.length).toBe(4);
    expect(full.at(-1)!.resume).toBeNull();
    const firstJql = (sim.requests.find((r) => r.path === '/rest/api/3/search/jql')!.body as { jql: string }).jql;
    expect(firstJql).toBe('created >= "1970/01/01 00:00" ORDER BY created ASC, key ASC');

    const since = new Date(sim.clock.now() - 1000);
    const changed = sim.seedIssues(1)[0]!;
    sim.updateIssueRemotely(changed.key, { summary: 'Changed remotely' });
    const incremental = recordsOf(await collect(s, ctx, { since }));
    expect(incremental.map((r) => r.data.name)).toContain('Changed remotely');
    expect(incremental.length).toBeLessThan(5);
    const jql = (sim.requests.filter((r) => r.path === '/rest/api/3/search/jql').at(-1)!.body as { jql: string }).jql;
    // The token owner is in America/Los_Angeles: the JQL date is written in that zone.
    const la = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .format(since)
      .replace(/-/g, '/')
      .replace(', ', ' ');
    expect(jql).toBe(`updated >= "${la}" ORDER BY created ASC, key ASC`);
  });

  it('resumes a ticket run from a saved position, and restarts when the token is refused', async () => {
    const s = syncer(adapter, 'ticketing.ticket');
    const first = await s.run(ctx, {})[Symbol.asyncIterator]().next();
    const resume = (first.value as SyncBatch).resume!;
    const rest = recordsOf(await collect(s, ctx, { resume }));
    expect(rest).toHaveLength(sim.state.issues.size - 7);
    const broken = Buffer.from(JSON.stringify({ jql: 'created >= "1970/01/01 00:00" ORDER BY created ASC, key ASC', token: 'expired' })).toString('base64url');
    expect(recordsOf(await collect(s, ctx, { resume: broken }))).toHaveLength(sim.state.issues.size);
  });

  it('syncs comments of every issue (paginated) with attachments owned by the comment linking them', async () => {
    const ops = adapter.ticketing!;
    const issue = [...sim.state.issues.values()][0]!;
    const created = await ops.createComment(ctx, { ticket_id: issue.id, body: 'see file', files: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }] });
    sim.state.addAttachment(issue, { filename: 'loose.png', mimeType: 'image/png', content: Buffer.from('png') }, sim.userOf().accountId);

    const busy = [...sim.state.issues.values()][1]!;
    for (let i = 0; i < 22; i++) sim.addCommentRemotely(busy.id, `busy ${i}`);
    const before = sim.requests.length;

    const batches = await collect(syncer(adapter, 'ticketing.comment'), ctx);
    // Comments embedded in full in the search results need no call; the busy issue's are paged.
    const commentCalls = sim.requests.slice(before).filter((r) => r.path.endsWith('/comment'));
    expect(new Set(commentCalls.map((r) => r.path))).toEqual(new Set([`/rest/api/3/issue/${busy.id}/comment`]));
    expect(commentCalls).toHaveLength(Math.ceil(busy.comments.length / 2));
    const comments = recordsOf(batches, 'ticketing.comment');
    const expected = [...sim.state.issues.values()].reduce((n, i) => n + i.comments.length, 0);
    expect(comments).toHaveLength(expected);
    const attachments = recordsOf(batches, 'ticketing.attachment');
    expect(attachments.map((a) => a.data.file_name).sort()).toEqual(['a.txt', 'loose.png']);
    const linked = attachments.find((a) => a.data.file_name === 'a.txt')!;
    expect(linked.data.comment_id).toBe(ids('ticketing.comment', created.record.remoteId));
    expect(linked.parent).toEqual({ objectType: 'ticketing.comment', remoteId: created.record.remoteId });
    const loose = attachments.find((a) => a.data.file_name === 'loose.png')!;
    expect(loose.data.comment_id).toBeNull();
    expect(loose.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: issue.id });
    const syncedComment = comments.find((c) => c.remoteId === created.record.remoteId)!;
    expect(syncedComment.data.attachments).toEqual([ids('ticketing.attachment', linked.remoteId)]);
  });

  it('answers 410 for the removed /search endpoint (the adapter never calls it)', async () => {
    const res = await fetch(`${sim.url}/rest/api/3/search?jql=project=SUP`, { headers: { authorization: sim.authHeader() } });
    expect(res.status).toBe(410);
    expect(sim.requests.filter((r) => r.path === '/rest/api/3/search' && r.headers['user-agent'] !== undefined && r.status !== 410)).toEqual([]);
  });

  it('sends only requests the OpenAPI document describes', () => {
    expectNoSpecViolations(sim);
    if (sim.specAvailable) console.info(`jira spec: ${sim.specDeviations.length} known deviations, e.g. ${JSON.stringify(sim.specDeviations.slice(0, 3).map((d) => d.violation.message))}`);
  });
});
