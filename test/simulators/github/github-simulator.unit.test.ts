import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';
import { startGithubSimulator, type GithubSimulator } from './index';
import { GITHUB_SPEC_FILE } from './spec';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const hasSpec = Boolean(specPath('github', GITHUB_SPEC_FILE));

function client(sim: GithubSimulator, token: string | null = sim.token, extra: Record<string, string> = { 'user-agent': 'sim-test' }) {
  return async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { accept: 'application/vnd.github+json', ...extra, ...(init.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(path.startsWith('http') ? path : sim.url + path, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Json };
  };
}

const links = (h: Headers) =>
  Object.fromEntries((h.get('link') ?? '').split(',').filter(Boolean).map((p) => {
    const m = /<([^>]+)>; rel="(\w+)"/.exec(p.trim())!;
    return [m[2], m[1]];
  }));

describe('github simulator', () => {
  let sim: GithubSimulator;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sim = await startGithubSimulator();
    api = client(sim);
  });
  afterAll(async () => {
    await sim.close();
  });

  describe('auth, headers, errors', () => {
    it('answers 401 without a token or with a wrong one, 403 without a User-Agent', async () => {
      expect((await client(sim, null)('/user')).body).toMatchObject({ message: 'Requires authentication' });
      const bad = await client(sim, 'nope')('/user');
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      // fetch always sends a User-Agent; node:http does not.
      const noUa = await new Promise<{ status: number; body: Json }>((resolve, reject) => {
        const req = http.request(`${sim.url}/user`, { headers: { authorization: `Bearer ${sim.token}` } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(noUa.status).toBe(403);
      expect(noUa.body.message).toContain('User-Agent');
    });

    it('accepts `token` and `Bearer` schemes and names the user', async () => {
      const r = await fetch(`${sim.url}/user`, { headers: { authorization: `token ${sim.token}`, 'user-agent': 'x' } });
      expect(r.status).toBe(200);
      expect(((await r.json()) as Json).login).toBe('octocat');
      const me = await api('/user');
      expect(me.body).toMatchObject({ login: 'octocat', name: 'The Octocat', email: 'octocat@github.example' });
    });

    it('puts the rate-limit headers on every response, and enforces the limit with 403 when asked', async () => {
      const r = await api('/user');
      expect(r.headers.get('x-ratelimit-limit')).toBe('5000');
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(5000);
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      const small = await startGithubSimulator({ rateLimit: { limit: 2, enforce: true } });
      try {
        const c = client(small);
        expect((await c('/user')).status).toBe(200);
        expect((await c('/user')).headers.get('x-ratelimit-remaining')).toBe('0');
        const over = await c('/user');
        expect(over.status).toBe(403);
        expect(over.body.message).toMatch(/^API rate limit exceeded/);
      } finally {
        await small.close();
      }
    });

    it('injects faults with GitHub bodies: secondary (retry-after) and primary (remaining 0) limits', async () => {
      sim.secondaryRateLimit(1);
      const sec = await api('/user');
      expect(sec.status).toBe(403);
      expect(sec.headers.get('retry-after')).toBe('60');
      expect(sec.body.message).toContain('secondary rate limit');
      sim.primaryRateLimit(1, { status: 429 });
      const prim = await api('/user');
      expect(prim.status).toBe(429);
      expect(prim.headers.get('x-ratelimit-remaining')).toBe('0');
      sim.faults.add({ status: 502 });
      expect((await api('/user')).body).toMatchObject({ message: 'Server Error' });
    });

    it('keeps a request log without the token', async () => {
      await api('/user');
      const last = sim.requests.at(-1)!;
      expect(last.headers.authorization).toBe('Bearer [redacted]');
      expect(last.auth).toEqual({ scheme: 'bearer', label: 'octocat', valid: true });
      expect(JSON.stringify(sim.requests)).not.toContain(sim.token);
    });
  });

  describe('repositories, users, labels', () => {
    it('lists the repositories the user collaborates on, with permissions, by full name', async () => {
      const r = await api('/user/repos?per_page=100');
      expect(r.body.map((x: Json) => x.full_name)).toEqual(['octo-org/helpdesk', 'octo-org/legacy', 'octo-org/website', 'octocat/dotfiles']);
      expect(r.body[0].permissions).toEqual({ admin: true, maintain: true, push: true, triage: true, pull: true });
      expect(r.body.find((x: Json) => x.name === 'dotfiles').has_issues).toBe(false);
      expect(r.body.find((x: Json) => x.name === 'legacy')).toMatchObject({ archived: true, permissions: { push: false, pull: true } });
    });

    it('hides private repositories from users without access (404)', async () => {
      expect((await api('/repos/octo-org/secret')).status).toBe(404);
      expect((await api('/repos/OCTO-ORG/HELPDESK')).body.full_name).toBe('octo-org/helpdesk');
    });

    it('lists assignable users and labels', async () => {
      expect((await api('/repos/octo-org/helpdesk/assignees')).body.map((u: Json) => u.login)).toEqual(['octocat', 'hubot', 'mona']);
      expect((await api('/repos/octo-org/helpdesk/labels')).body.map((l: Json) => l.name)).toEqual(['bug', 'enhancement', 'question', 'customer']);
    });
  });

  describe('issues', () => {
    it('lists issues and pull requests with page-based pagination and Link headers', async () => {
      sim.seedIssues('octo-org/website', 5, { prEvery: 2 });
      const first = await api('/repos/octo-org/website/issues?state=all&per_page=2&sort=created&direction=asc');
      expect(first.body.map((i: Json) => i.number)).toEqual([1, 2]);
      const l = links(first.headers);
      expect(Object.keys(l).sort()).toEqual(['last', 'next']);
      expect(l.last).toContain('page=3');
      const second = await api(l.next);
      expect(second.body.map((i: Json) => i.number)).toEqual([3, 4]);
      expect(Object.keys(links(second.headers)).sort()).toEqual(['first', 'last', 'next', 'prev']);
      const third = await api(links(second.headers).next);
      expect(third.body.map((i: Json) => i.number)).toEqual([5, 6]);
      expect(links(third.headers).next).toBeUndefined();
      expect(second.body.find((i: Json) => i.number === 3).pull_request).toBeDefined();
      expect((await api('/repos/octo-org/website/issues?per_page=500')).body.length).toBeLessThanOrEqual(100);
    });

    it('filters by state and since, sorts by updated', async () => {
      const closed = await api('/repos/octo-org/helpdesk/issues?state=closed');
      expect(closed.body.map((i: Json) => i.number)).toEqual([3]);
      expect(closed.body[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
      sim.clock.advance(10_000);
      const since = new Date(sim.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
      sim.updateIssueRemotely('octo-org/helpdesk', 1, { title: 'Login page still broken' });
      const changed = await api(`/repos/octo-org/helpdesk/issues?state=all&since=${since}&sort=updated&direction=desc`);
      expect(changed.body.map((i: Json) => i.number)).toEqual([1]);
      expect((await api('/repos/octo-org/helpdesk/issues?since=yesterday')).status).toBe(422);
    });

    it('creates issues: labels created when missing, assignees checked, Location header', async () => {
      const r = await api('/repos/octo-org/helpdesk/issues', { method: 'POST', body: { title: 'New', body: 'b', labels: ['bug', 'brand-new'], assignees: ['mona'] } });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`${sim.url}/repos/octo-org/helpdesk/issues/${r.body.number}`);
      expect(r.body.labels.map((l: Json) => l.name)).toEqual(['bug', 'brand-new']);
      expect(r.body.assignees.map((u: Json) => u.login)).toEqual(['mona']);
      const bad = await api('/repos/octo-org/helpdesk/issues', { method: 'POST', body: { title: 'x', assignees: ['outsider'] } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual([{ value: 'outsider', resource: 'Issue', field: 'assignees', code: 'invalid' }]);
      expect((await api('/repos/octo-org/helpdesk/issues', { method: 'POST', body: { body: 'no title' } })).status).toBe(422);
    });

    it('drops labels and assignees silently for users without push access, as GitHub does', async () => {
      sim.addToken('ghp_mona', 'mona');
      const mona = client(sim, 'ghp_mona');
      const r = await mona('/repos/octo-org/helpdesk/issues', { method: 'POST', body: { title: 'From mona', labels: ['bug'], assignees: ['mona'] } });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ labels: [], assignees: [] });
    });

    it('updates issues: state and state_reason, labels and assignees replaced', async () => {
      const closed = await api('/repos/octo-org/helpdesk/issues/1', { method: 'PATCH', body: { state: 'closed', state_reason: 'not_planned', labels: [], assignees: [] } });
      expect(closed.body).toMatchObject({ state: 'closed', state_reason: 'not_planned', labels: [], assignees: [], closed_by: { login: 'octocat' } });
      const reopened = await api('/repos/octo-org/helpdesk/issues/1', { method: 'PATCH', body: { state: 'open' } });
      expect(reopened.body).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null });
      expect((await api('/repos/octo-org/helpdesk/issues/1', { method: 'PATCH', body: { state: 'pending' } })).status).toBe(422);
    });

    it('answers 410 where issues are disabled, 403 on archived repositories, 404 for deleted issues', async () => {
      expect((await api('/repos/octocat/dotfiles/issues')).body).toMatchObject({ message: 'Issues are disabled for this repo' });
      expect((await api('/repos/octocat/dotfiles/issues', { method: 'POST', body: { title: 'x' } })).status).toBe(410);
      expect((await api('/repos/octo-org/legacy/issues', { method: 'POST', body: { title: 'x' } })).status).toBe(403);
      const issue = sim.createIssueRemotely('octo-org/helpdesk', { title: 'Doomed' });
      expect((await api(`/repos/octo-org/helpdesk/issues/${issue.number}`)).status).toBe(200);
      sim.deleteIssueRemotely('octo-org/helpdesk', issue.number);
      expect((await api(`/repos/octo-org/helpdesk/issues/${issue.number}`)).status).toBe(404);
    });
  });

  describe('comments', () => {
    it('lists every comment of a repository, pull-request comments with /pull/ html URLs', async () => {
      const r = await api('/repos/octo-org/helpdesk/issues/comments?sort=created&direction=asc');
      expect(r.body.map((c: Json) => c.body)).toEqual(expect.arrayContaining(['Still broken.', 'We are looking into it.', 'LGTM']));
      const lgtm = r.body.find((c: Json) => c.body === 'LGTM');
      expect(lgtm.html_url).toMatch(/\/pull\/2#issuecomment-\d+$/);
      expect(lgtm.issue_url).toMatch(/\/repos\/octo-org\/helpdesk\/issues\/2$/);
      expect(r.body.find((c: Json) => c.body === 'Still broken.').html_url).toMatch(/\/issues\/1#issuecomment-\d+$/);
    });

    it('renders bodies by media type', async () => {
      const full = await api('/repos/octo-org/helpdesk/issues/1', { headers: { accept: 'application/vnd.github.full+json' } });
      expect(full.body).toMatchObject({ body: expect.any(String), body_text: expect.any(String), body_html: expect.stringContaining('<strong>log in</strong>') });
      const html = await api('/repos/octo-org/helpdesk/issues/1/comments', { headers: { accept: 'application/vnd.github.html+json' } });
      expect(html.body[0].body).toBeUndefined();
      expect(html.body[0].body_html).toContain('<p');
    });

    it('creates comments and bumps the issue', async () => {
      const before = sim.issue('octo-org/helpdesk', 1)!.updated_at;
      sim.clock.advance(2_000);
      const r = await api('/repos/octo-org/helpdesk/issues/1/comments', { method: 'POST', body: { body: 'Hello' } });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ body: 'Hello', user: { login: 'octocat' }, author_association: 'MEMBER' });
      expect(sim.issue('octo-org/helpdesk', 1)!.updated_at > before).toBe(true);
      expect((await api('/repos/octo-org/helpdesk/issues/1/comments', { method: 'POST', body: {} })).status).toBe(422);
    });
  });

  describe('GitHub Enterprise Server', () => {
    it('serves under /api/v3 with Links to the same prefix', async () => {
      const ghes = await startGithubSimulator({ pathPrefix: '/api/v3' });
      try {
        const c = client(ghes);
        expect((await c('/user')).body.login).toBe('octocat');
        const repos = await c('/user/repos?per_page=1');
        expect(links(repos.headers).next).toBe(`${ghes.url}/user/repos?per_page=1&page=2`);
        expect(repos.body[0].url).toBe(`${ghes.url}/repos/octo-org/helpdesk`);
        expect((await fetch(`${ghes.url.replace('/api/v3', '')}/user`, { headers: { 'user-agent': 'x' } })).status).toBe(404);
      } finally {
        await ghes.close();
      }
    });
  });

  describe.skipIf(!hasSpec)('spec validation', () => {
    it('records requests the description does not allow', async () => {
      const own = await startGithubSimulator();
      try {
        await client(own)('/repos/octo-org/helpdesk/issues?state=pending');
        expect(own.specViolations.map(formatViolation).join('\n')).toContain("/state must be one of");
        await client(own)('/repos/octo-org/helpdesk/issues', { method: 'POST', body: { title: 'x', labels: 'bug' } });
        expect(own.specViolations.some((v) => v.location === 'body' && v.pointer === '/labels')).toBe(true);
        expect(own.specLoadFixes).toEqual([
          '#/paths/~1repos~1{owner}~1{repo}~1issues/post/requestBody/content/application~1json/schema/properties/milestone',
          '#/paths/~1repos~1{owner}~1{repo}~1issues~1{issue_number}/patch/requestBody/content/application~1json/schema/properties/title',
          '#/paths/~1repos~1{owner}~1{repo}~1issues~1{issue_number}/patch/requestBody/content/application~1json/schema/properties/milestone',
        ]);
      } finally {
        await own.close();
      }
    });

    it('found no fault in any response, and in requests only the invalid ones this file sends on purpose', () => {
      expect(sim.specAvailable).toBe(true);
      expect(sim.specViolations.filter((v) => v.kind === 'response').map(formatViolation)).toEqual([]);
      expect(sim.specViolations.filter((v) => v.kind === 'request').map(formatViolation).sort()).toEqual([
        'request GET /repos/octo-org/helpdesk/issues [issues/list-for-repo]: query /since must match format "date-time"; got "yesterday"',
        'request PATCH /repos/octo-org/helpdesk/issues/1 [issues/update]: body /state must be one of ["open", "closed"]; got "pending"',
        "request POST /repos/octo-org/helpdesk/issues [issues/create]: body / is missing required property 'title'",
        "request POST /repos/octo-org/helpdesk/issues/1/comments [issues/create-comment]: body / is missing required property 'body'",
      ]);
      expect(sim.specUndocumented).toEqual([]);
    });
  });

  it.skipIf(hasSpec)('skips spec validation without the description', () => {
    console.warn(`github ${GITHUB_SPEC_FILE} not found: spec validation skipped`);
    expect(sim.specAvailable).toBe(false);
  });
});
