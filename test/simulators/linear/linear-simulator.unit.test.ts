import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import { specPath } from '../../support/provider-specs';
import { FALLBACK_SDL } from './fallback-sdl';
import { loadLinearSchema, startLinearSimulator, type LinearSimulator, type TeamRecord } from './index';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const hasSpec = Boolean(specPath('linear', 'schema.graphql'));

function client(sim: LinearSimulator, auth: string | null = sim.apiKey) {
  return async (query: string, variables?: Record<string, unknown>, init: { headers?: Record<string, string>; rawBody?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(init.headers ?? {}) };
    if (auth) headers.authorization = auth;
    const res = await fetch(`${sim.url}/graphql`, { method: 'POST', headers, body: init.rawBody ?? JSON.stringify({ query, variables }) });
    const text = await res.text();
    let body: Json;
    try {
      body = JSON.parse(text) as Json;
    } catch {
      body = { text };
    }
    return { status: res.status, headers: res.headers, body };
  };
}

const code = (body: Json) => body.errors?.[0]?.extensions?.code as string | undefined;

describe('linear simulator', () => {
  let sim: LinearSimulator;
  let api: ReturnType<typeof client>;
  let eng: TeamRecord;
  let sup: TeamRecord;

  beforeAll(async () => {
    sim = await startLinearSimulator({ accessTokens: ['lin_oauth_token'] });
    api = client(sim);
    eng = [...sim.state.teams.values()].find((t) => t.key === 'ENG')!;
    sup = [...sim.state.teams.values()].find((t) => t.key === 'SUP')!;
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(() => {
    sim.faults.clear();
    sim.uploadFaults.clear();
  });

  describe('auth, headers and errors', () => {
    it('accepts API keys bare and OAuth tokens as Bearer, nothing else', async () => {
      expect((await api('{ viewer { id email } }')).body.data.viewer.email).toBe('sam@example.com');
      expect((await client(sim, 'Bearer lin_oauth_token')('{ viewer { id } }')).status).toBe(200);
      for (const auth of [null, 'lin_api_wrong', `Bearer ${sim.apiKey}`, 'lin_oauth_token']) {
        const r = await client(sim, auth)('{ viewer { id } }');
        expect(r.status, String(auth)).toBe(400);
        expect(code(r.body)).toBe('AUTHENTICATION_ERROR');
        expect(r.body.errors[0].extensions).toMatchObject({ type: 'authentication error', userError: true });
      }
    });

    it('never keeps a credential in the request log', () => {
      const log = JSON.stringify(sim.requests);
      expect(log).not.toContain(sim.apiKey);
      expect(log).not.toContain('lin_oauth_token');
      expect(sim.requests.find((r) => r.auth?.valid)?.auth).toMatchObject({ scheme: 'api-key', label: 'sam@example.com' });
    });

    it('sends Linear’s rate-limit and complexity headers, resets in epoch milliseconds', async () => {
      const r = await api('query Q { teams(first: 10) { nodes { id name } } }');
      const reset = Number(r.headers.get('x-ratelimit-requests-reset'));
      expect(reset).toBeGreaterThan(Date.now());
      expect(reset).toBeLessThanOrEqual(Date.now() + 3_600_000);
      expect(Number(r.headers.get('x-ratelimit-requests-limit'))).toBe(5000);
      expect(Number(r.headers.get('x-ratelimit-requests-remaining'))).toBeLessThan(5000);
      // 1 for the connection + 10 × (1 per node + 0.1 per property × 2)
      expect(Number(r.headers.get('x-complexity'))).toBe(13);
      expect(r.headers.get('x-ratelimit-complexity-remaining')).toBeTruthy();
    });

    it('answers a rate limit with HTTP 400 and RATELIMITED, as Linear does', async () => {
      sim.rateLimitNext(1);
      const r = await api('{ viewer { id } }');
      expect(r.status).toBe(400);
      expect(code(r.body)).toBe('RATELIMITED');
      expect(r.body.errors[0].extensions.type).toBe('ratelimited');
      expect(r.headers.get('x-ratelimit-requests-remaining')).toBe('0');
      expect((await api('{ viewer { id } }')).status).toBe(200);
    });

    it('enforces the hourly request budget when asked', async () => {
      const small = await startLinearSimulator({ rateLimit: { requestsPerHour: 2, enforce: true } });
      try {
        const c = client(small);
        expect((await c('{ viewer { id } }')).status).toBe(200);
        expect((await c('{ viewer { id } }')).status).toBe(200);
        const third = await c('{ viewer { id } }');
        expect(third.status).toBe(400);
        expect(code(third.body)).toBe('RATELIMITED');
        small.clock.advance(3_600_001);
        expect((await c('{ viewer { id } }')).status).toBe(200);
      } finally {
        await small.close();
      }
    });

    it('answers injected server faults like Linear’s edge', async () => {
      sim.faults.add({ status: 500 });
      const r500 = await api('{ viewer { id } }');
      expect(r500.status).toBe(500);
      expect(code(r500.body)).toBe('INTERNAL_SERVER_ERROR');
      sim.faults.add({ status: 503 });
      expect((await api('{ viewer { id } }')).body.text).toBe('error code: 503');
    });
  });

  describe('spec validation', () => {
    it('refuses and records a malformed body, a parse error, an unknown field and a bad variable', async () => {
      const s = await startLinearSimulator();
      try {
        const c = client(s);
        expect((await c('', undefined, { rawBody: 'not json' })).status).toBe(400);
        const parseError = await c('query { viewer { id }');
        expect(code(parseError.body)).toBe('GRAPHQL_PARSE_FAILED');
        const unknown = await c('query Bad { viewer { id shoeSize } }');
        expect(unknown.status).toBe(400);
        expect(code(unknown.body)).toBe('GRAPHQL_VALIDATION_FAILED');
        const variable = await c('query Var($first: Int) { issues(first: $first) { nodes { id } } }', { first: 'ten' });
        expect(variable.status).toBe(400);
        expect(s.specViolations.map((v) => v.kind)).toEqual(['request', 'request', 'request', 'request']);
        expect(s.specViolations.find((v) => v.operation === 'Bad')?.message).toMatch(/shoeSize/);
        expect(s.specViolations.find((v) => v.operation === 'Var')?.message).toMatch(/\$first/);
      } finally {
        await s.close();
      }
    });

    it('records a response the schema refuses (a malformed date) with its path', async () => {
      const s = await startLinearSimulator();
      try {
        const issue = s.createIssueRemotely({ teamId: [...s.state.teams.values()][0]!.id, title: 'Broken' });
        s.state.issues.get(issue.id)!.dueDate = 'tomorrow';
        const r = await client(s)('query Broken($id: String!) { issue(id: $id) { id dueDate } }', { id: issue.id });
        expect(r.body.errors).toHaveLength(1);
        expect(s.specViolations).toEqual([expect.objectContaining({ kind: 'response', operation: 'Broken', message: expect.stringMatching(/^issue\.dueDate: TimelessDate cannot serialize/) })]);
      } finally {
        await s.close();
      }
    });

    it.skipIf(!hasSpec)('records the use of deprecated fields', async () => {
      const s = await startLinearSimulator();
      try {
        await client(s)('query Old { issues(first: 1) { nodes { id boardOrder } } }');
        expect(s.specViolations.map((v) => v.kind)).toContain('deprecated');
      } finally {
        await s.close();
      }
    });

    it('refuses a query over 10,000 complexity points', async () => {
      const r = await api('query Heavy { issues(first: 250) { nodes { id labels(first: 250) { nodes { id name } } } } }');
      expect(r.status).toBe(400);
      expect(r.body.errors[0].message).toMatch(/complex/);
      expect(sim.specViolations.find((v) => v.operation === 'Heavy')).toBeDefined();
      sim.clearSpecViolations();
    });

    it.skipIf(!hasSpec)('records what it does not model as a gap, never ignores it', async () => {
      const s = await startLinearSimulator();
      try {
        const teamId = [...s.state.teams.values()][0]!.id;
        const r = await client(s)('mutation Gap($input: IssueCreateInput!) { issueCreate(input: $input) { success } }', { input: { teamId, title: 'x', cycleId: 'c' } });
        expect(code(r.body)).toBe('INTERNAL_SERVER_ERROR');
        expect(s.simulatorGaps).toEqual(['Gap: IssueCreateInput.cycleId is not modelled']);
      } finally {
        await s.close();
      }
    });

    it.skipIf(!hasSpec)('executes Linear’s published schema, and its fallback subset agrees with it', () => {
      const official = loadLinearSchema().schema;
      expect(sim.specAvailable).toBe(true);
      const fallback: GraphQLSchema = buildSchema(FALLBACK_SDL);
      const problems: string[] = [];
      for (const [name, type] of Object.entries(fallback.getTypeMap())) {
        if (name.startsWith('__')) continue;
        const real = official.getType(name);
        if (!real) {
          problems.push(`${name} missing`);
          continue;
        }
        if ((isObjectType(type) && isObjectType(real)) || (isInputObjectType(type) && isInputObjectType(real))) {
          const realFields = real.getFields() as Record<string, { type: unknown; args?: { name: string; type: unknown }[] }>;
          for (const [fname, f] of Object.entries(type.getFields() as Record<string, { type: unknown; args?: { name: string; type: unknown }[] }>)) {
            const rf = realFields[fname];
            if (!rf) problems.push(`${name}.${fname} missing`);
            else if (String(rf.type) !== String(f.type)) problems.push(`${name}.${fname}: ${String(f.type)} ≠ ${String(rf.type)}`);
            for (const a of f.args ?? []) {
              const ra = rf?.args?.find((x) => x.name === a.name);
              if (rf && (!ra || String(ra.type) !== String(a.type))) problems.push(`${name}.${fname}(${a.name}) ≠ official`);
            }
          }
        } else if (real.constructor !== type.constructor) problems.push(`${name} kind differs`);
      }
      expect(problems).toEqual([]);
    });

    it.skipIf(hasSpec)('spec validation skipped: shared/provider-specs/linear/schema.graphql is absent (runs the fallback subset)', () => {
      expect(sim.specAvailable).toBe(false);
    });
  });

  describe('connections and filters', () => {
    let seeded: string[];
    beforeAll(() => {
      seeded = sim.seedIssues(30, { teamId: sup.id, spacingMs: 1000 }).map((i) => i.id);
    });

    const page = `query Page($first: Int, $after: String, $last: Int, $before: String, $filter: IssueFilter, $orderBy: PaginationOrderBy, $arch: Boolean) {
      issues(first: $first, after: $after, last: $last, before: $before, filter: $filter, orderBy: $orderBy, includeArchived: $arch) {
        nodes { id title updatedAt } edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }`;

    it('pages newest first with first/after to the last page, without duplicates', async () => {
      const f = { team: { id: { eq: sup.id } } };
      const seen: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 10; i++) {
        const r: { body: Json } = await api(page, { first: 7, after, filter: f });
        const c = r.body.data.issues;
        seen.push(...c.nodes.map((n: Json) => n.id));
        expect(c.edges.map((e: Json) => e.node.id)).toEqual(c.nodes.map((n: Json) => n.id));
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
      }
      expect(seen).toHaveLength(30);
      expect(new Set(seen).size).toBe(30);
      expect(seen).toEqual([...seeded].reverse());
    });

    it('pages backwards with last/before', async () => {
      const f = { team: { id: { eq: sup.id } } };
      const all = (await api(page, { first: 30, filter: f })).body.data.issues;
      const tail = (await api(page, { last: 5, before: all.edges[10].cursor, filter: f })).body.data.issues;
      expect(tail.nodes.map((n: Json) => n.id)).toEqual(all.nodes.slice(5, 10).map((n: Json) => n.id));
      expect(tail.pageInfo.hasPreviousPage).toBe(true);
    });

    it('defaults to 50 a page and refuses more than 250', async () => {
      sim.seedIssues(30, { teamId: sup.id });
      const r = await api(page, {});
      expect(r.body.data.issues.nodes).toHaveLength(50);
      expect(r.body.data.issues.pageInfo.hasNextPage).toBe(true);
      const tooMany = await api(page, { first: 251 });
      expect(code(tooMany.body)).toBe('INVALID_INPUT');
    });

    it('filters by updatedAt (incremental), and leaves archived issues out unless asked', async () => {
      const since = new Date(sim.state.nowMs()).toISOString();
      sim.updateIssueRemotely(seeded[3]!, { title: 'touched' });
      sim.trashIssueRemotely(seeded[4]!);
      const without = (await api(page, { filter: { updatedAt: { gte: since } } })).body.data.issues.nodes;
      expect(without.map((n: Json) => n.title)).toEqual(['touched']);
      const withArchived = (await api(page, { filter: { updatedAt: { gte: since } }, arch: true })).body.data.issues.nodes;
      expect(withArchived.map((n: Json) => n.id).sort()).toEqual([seeded[3], seeded[4]].sort());
      const dur = (await api(page, { filter: { updatedAt: { gte: '-PT1H' } }, first: 1 })).body.data.issues.nodes;
      expect(dur).toHaveLength(1);
    });

    it('orders by updatedAt when asked', async () => {
      const r = await api(page, { first: 1, orderBy: 'updatedAt', filter: { team: { id: { eq: sup.id } } } });
      expect(r.body.data.issues.nodes[0].title).toBe('touched');
    });

    it('evaluates relation, null, and/or and collection filters', async () => {
      const bug = [...sim.state.labels.values()].find((l) => l.name === 'Bug')!;
      const labelled = sim.createIssueRemotely({ teamId: eng.id, title: 'Has bug', labelIds: [bug.id], assigneeId: sim.viewer.id });
      const q = `query F($filter: IssueFilter) { issues(first: 250, filter: $filter) { nodes { id } } }`;
      const ids = async (filter: Json) => (await api(q, { filter })).body.data.issues.nodes.map((n: Json) => n.id);
      expect(await ids({ labels: { some: { name: { eq: 'Bug' } } } })).toEqual([labelled.id]);
      expect(await ids({ and: [{ team: { key: { eq: 'ENG' } } }, { assignee: { isMe: { eq: true } } }] })).toEqual([labelled.id]);
      expect(await ids({ or: [{ title: { eq: 'Has bug' } }, { title: { containsIgnoreCase: 'HAS BUG' } }] })).toEqual([labelled.id]);
      const unassigned = await ids({ assignee: { null: true }, team: { id: { eq: eng.id } } });
      expect(unassigned).not.toContain(labelled.id);
      expect(await ids({ state: { type: { in: ['backlog'] } }, title: { eq: 'Has bug' } })).toEqual([labelled.id]);
      const comments = `query C($filter: CommentFilter) { comments(filter: $filter) { nodes { id } } }`;
      const c = sim.addCommentRemotely(labelled.id, 'hello');
      expect((await api(comments, { filter: { issue: { null: false, id: { eq: labelled.id } } } })).body.data.comments.nodes).toEqual([{ id: c.id }]);
    });

    it('answers a page read after a write with the write (listings are reused only while nothing changes)', async () => {
      const f = { team: { id: { eq: sup.id } } };
      const newest = async () => (await api(page, { first: 2, orderBy: 'updatedAt', filter: f })).body.data.issues.nodes.map((n: Json) => n.title);
      expect(await newest()).toEqual(await newest());
      sim.updateIssueRemotely(seeded[0]!, { title: 'rewritten' });
      expect((await newest())[0]).toBe('rewritten');
      // An issue's comments and sub-issues, and an identifier from before a team move, follow writes too.
      const parent = sim.createIssueRemotely({ teamId: eng.id, title: 'Parent' });
      const q = `query I($id: String!) { issue(id: $id) { id comments { nodes { body } } children { nodes { title } } } }`;
      expect((await api(q, { id: parent.id })).body.data.issue).toMatchObject({ comments: { nodes: [] }, children: { nodes: [] } });
      sim.addCommentRemotely(parent.id, 'first');
      sim.createIssueRemotely({ teamId: eng.id, title: 'Child', parentId: parent.id });
      expect((await api(q, { id: parent.id })).body.data.issue).toMatchObject({ comments: { nodes: [{ body: 'first' }] }, children: { nodes: [{ title: 'Child' }] } });
      const before = sim.state.identifierOf(parent);
      sim.updateIssueRemotely(parent.id, { teamId: sup.id });
      expect((await api(q, { id: before.toLowerCase() })).body.data.issue.id).toBe(parent.id);
      expect((await api(q, { id: sim.state.identifierOf(parent) })).body.data.issue.id).toBe(parent.id);
    });

    it('lists disabled users only with includeDisabled', async () => {
      const q = `query U($d: Boolean) { users(includeDisabled: $d) { nodes { email active } } }`;
      expect((await api(q, {})).body.data.users.nodes.map((u: Json) => u.email)).not.toContain('old@example.com');
      expect((await api(q, { d: true })).body.data.users.nodes.map((u: Json) => u.email)).toContain('old@example.com');
    });
  });

  describe('writes', () => {
    const create = `mutation C($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title priority priorityLabel dueDate state { name type } labels { nodes { name } } team { key } } } }`;

    it('creates an issue in the team’s default state with the next number', async () => {
      const r = await api(create, { input: { teamId: eng.id, title: 'Hello', priority: 2, dueDate: '2030-01-15' } });
      expect(r.status).toBe(200);
      expect(r.body.data.issueCreate).toMatchObject({ success: true, issue: { title: 'Hello', priority: 2, priorityLabel: 'High', dueDate: '2030-01-15', state: { type: 'backlog' }, team: { key: 'ENG' } } });
      expect(r.body.data.issueCreate.issue.identifier).toMatch(/^ENG-\d+$/);
      const sup1 = await api(create, { input: { teamId: sup.id, title: 'Triage me' } });
      expect(sup1.body.data.issueCreate.issue.state.type).toBe('triage');
    });

    it('refuses invalid input with INVALID_INPUT and a presentable message', async () => {
      const supState = sim.state.statesOf(sup.id)[0]!;
      const backend = [...sim.state.labels.values()].find((l) => l.name === 'Backend')!;
      const frontend = [...sim.state.labels.values()].find((l) => l.name === 'Frontend')!;
      const mobile = [...sim.state.labels.values()].find((l) => l.name === 'Mobile')!;
      const area = [...sim.state.labels.values()].find((l) => l.name === 'Area')!;
      const cases: Array<[Json, RegExp]> = [
        [{ teamId: eng.id, title: '' }, /title/],
        [{ teamId: '00000000-0000-4000-8000-000000000000', title: 'x' }, /Team/],
        [{ teamId: eng.id, title: 'x', stateId: supState.id }, /another team/],
        [{ teamId: sup.id, title: 'x', labelIds: [backend.id] }, /another team/],
        [{ teamId: eng.id, title: 'x', labelIds: [area.id] }, /group/],
        [{ teamId: eng.id, title: 'x', labelIds: [frontend.id, mobile.id] }, /one label of the group/],
        [{ teamId: eng.id, title: 'x', priority: 7 }, /priority/],
        [{ teamId: eng.id, title: 'x', completedAt: '2020-01-01T00:00:00Z' }, /completedAt/],
      ];
      for (const [input, message] of cases) {
        const r = await api(create, { input });
        expect(r.status, JSON.stringify(input)).toBe(400);
        expect(JSON.stringify(r.body.errors[0]), JSON.stringify(input)).toMatch(message);
      }
    });

    it('creates a batch in one transaction: one bad input creates nothing', async () => {
      const batch = `mutation B($input: IssueBatchCreateInput!) { issueBatchCreate(input: $input) { success issues { id title } } }`;
      const before = sim.state.issues.size;
      const bad = await api(batch, { input: { issues: [{ teamId: eng.id, title: 'one' }, { teamId: eng.id, title: '' }] } });
      expect(bad.status).toBe(400);
      expect(sim.state.issues.size).toBe(before);
      const ok = await api(batch, { input: { issues: [{ teamId: eng.id, title: 'one' }, { teamId: sup.id, title: 'two' }] } });
      expect(ok.body.data.issueBatchCreate.issues.map((i: Json) => i.title)).toEqual(['one', 'two']);
    });

    it('updates: moves teams with the same kind of state, sets state timestamps, trashes and restores', async () => {
      const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Move me' });
      const started = sim.state.statesOf(eng.id).find((s) => s.type === 'started')!;
      const upd = `mutation U($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { issue { identifier startedAt completedAt trashed archivedAt state { type team { key } } } } }`;
      const r1 = await api(upd, { id: issue.id, input: { stateId: started.id } });
      expect(r1.body.data.issueUpdate.issue.startedAt).toBeTruthy();
      const r2 = await api(upd, { id: issue.id, input: { teamId: sup.id } });
      expect(r2.body.data.issueUpdate.issue).toMatchObject({ state: { type: 'started', team: { key: 'SUP' } }, identifier: expect.stringMatching(/^SUP-/) });
      const r3 = await api(upd, { id: issue.id, input: { trashed: true } });
      expect(r3.body.data.issueUpdate.issue).toMatchObject({ trashed: true, archivedAt: expect.any(String) });
      const r4 = await api(upd, { id: issue.id, input: { trashed: null } });
      expect(r4.body.data.issueUpdate.issue).toMatchObject({ trashed: null, archivedAt: null });
    });

    it('issueDelete trashes; a permanent delete removes the issue and its comments', async () => {
      const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Delete me' });
      sim.addCommentRemotely(issue.id, 'bye');
      const del = `mutation D($id: String!, $p: Boolean) { issueDelete(id: $id, permanentlyDelete: $p) { success entity { trashed } } }`;
      expect((await api(del, { id: issue.id })).body.data.issueDelete).toEqual({ success: true, entity: { trashed: true } });
      expect((await api(del, { id: issue.id, p: true })).body.data.issueDelete.success).toBe(true);
      expect(sim.state.issues.has(issue.id)).toBe(false);
      expect([...sim.state.comments.values()].some((c) => c.issueId === issue.id)).toBe(false);
      const gone = await api(`query G($id: String!) { issue(id: $id) { id } }`, { id: issue.id });
      expect(gone.status).toBe(400);
      expect(gone.body.errors[0].message).toBe('Entity not found: Issue');
    });

    it('creates comments and labels, refusing duplicate label names', async () => {
      const issue = sim.createIssueRemotely({ teamId: eng.id, title: 'Talk' });
      const c = await api(`mutation C($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { body issueId user { id } url } } }`, { input: { issueId: issue.id, body: '**hi**' } });
      expect(c.body.data.commentCreate.comment).toMatchObject({ body: '**hi**', issueId: issue.id, user: { id: sim.viewer.id } });
      const empty = await api(`mutation C($input: CommentCreateInput!) { commentCreate(input: $input) { success } }`, { input: { issueId: issue.id, body: ' ' } });
      expect(empty.status).toBe(400);
      const label = `mutation L($input: IssueLabelCreateInput!) { issueLabelCreate(input: $input) { success issueLabel { name team { id } } } }`;
      expect((await api(label, { input: { name: 'Ops', teamId: eng.id } })).body.data.issueLabelCreate.issueLabel).toEqual({ name: 'Ops', team: { id: eng.id } });
      expect(code((await api(label, { input: { name: 'ops', teamId: eng.id } })).body)).toBe('INVALID_INPUT');
      expect(code((await api(label, { input: { name: 'BUG', teamId: sup.id } })).body)).toBe('INVALID_INPUT');
    });
  });

  describe('file uploads', () => {
    const upload = `mutation U($contentType: String!, $filename: String!, $size: Int!) { fileUpload(contentType: $contentType, filename: $filename, size: $size) { success uploadFile { uploadUrl assetUrl headers { key value } } } }`;
    const ask = async (size = 5, contentType = 'text/plain') => (await api(upload, { contentType, filename: 'a.txt', size })).body.data.fileUpload.uploadFile as Json;
    const signedHeaders = (uf: Json) => Object.fromEntries((uf.headers as Json[]).map((h) => [h.key, h.value]));

    it('gives a pre-signed URL on another origin and a permanent asset URL', async () => {
      const uf = await ask();
      expect(new URL(uf.uploadUrl).origin).toBe(sim.uploadsUrl);
      expect(new URL(uf.uploadUrl).origin).not.toBe(sim.url);
      const put = await fetch(uf.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain', ...signedHeaders(uf) }, body: 'hello' });
      expect(put.status).toBe(200);
      expect((await fetch(uf.assetUrl)).status).toBe(401);
      const got = await fetch(uf.assetUrl, { headers: { authorization: sim.apiKey } });
      expect(await got.text()).toBe('hello');
    });

    it('refuses an upload that does not match what was signed', async () => {
      const uf = await ask();
      const h = signedHeaders(uf);
      const tries: Array<[string, RequestInit, number]> = [
        [uf.uploadUrl.replace(/Signature=[^&]+/, 'Signature=x'), { headers: { 'content-type': 'text/plain', ...h }, body: 'hello' }, 403],
        [uf.uploadUrl, { headers: { 'content-type': 'image/png', ...h }, body: 'hello' }, 403],
        [uf.uploadUrl, { headers: { 'content-type': 'text/plain' }, body: 'hello' }, 403],
        [uf.uploadUrl, { headers: { 'content-type': 'text/plain', ...h }, body: 'hello!' }, 400],
        [uf.uploadUrl, { headers: { 'content-type': 'text/plain', authorization: sim.apiKey, ...h }, body: 'hello' }, 400],
      ];
      for (const [url, init, status] of tries) expect((await fetch(url, { method: 'PUT', ...init })).status).toBe(status);
      sim.clock.advance(61_000);
      expect((await fetch(uf.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain', ...h }, body: 'hello' })).status).toBe(400);
    });
  });

  it('kept every request of this file within the schema (apart from the deliberate ones)', () => {
    expect(sim.simulatorGaps).toEqual([]);
    expect(sim.specViolations).toEqual([]);
  });
});
