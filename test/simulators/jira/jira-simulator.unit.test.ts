import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';
import { jqlDateValue, parseJql, zonedToEpoch } from './jql';
import { startJiraSimulator, type JiraSimulator } from './index';

let sim: JiraSimulator;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { authorization: sim.authHeader(), ...headers };
  if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
  const res = await fetch(`${sim.url}/rest/api/3${path}`, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

const specsPresent = Boolean(specPath('jira', 'swagger-v3.v3.json'));
function expectNoViolations() {
  if (!specsPresent) return;
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
}

beforeAll(async () => {
  // Warm the process-wide document cache once.
  await (await startJiraSimulator()).close();
}, 60_000);
beforeEach(async () => {
  sim = await startJiraSimulator();
});
afterEach(async () => {
  await sim.close();
});

describe('auth, rate limits, faults, request log', () => {
  it('accepts Basic email:token and registered bearer tokens; 401 otherwise, without secrets in the log', async () => {
    expect((await call('GET', '/myself')).json).toMatchObject({ accountId: sim.userOf().accountId, timeZone: 'America/Los_Angeles' });
    const wrong = await call('GET', '/myself', undefined, { authorization: `Basic ${Buffer.from('admin@example.com:nope').toString('base64')}` });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ errorMessages: ['Client must be authenticated to access this resource.'], errors: {} });
    expect(wrong.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATED_FAILED');
    expect((await call('GET', '/myself', undefined, { authorization: 'Bearer t1' })).status).toBe(401);
    sim.addAccessToken('t1');
    expect((await call('GET', '/myself', undefined, { authorization: 'Bearer t1' })).status).toBe(200);
    expect(sim.requests.map((r) => r.headers.authorization)).toEqual(['Basic [redacted]', 'Basic [redacted]', 'Bearer [redacted]', 'Bearer [redacted]']);
    expect(sim.requests.map((r) => r.auth?.valid)).toEqual([true, false, false, true]);
    expect(JSON.stringify(sim.requests)).not.toContain('jira-test-token');
  });

  it('sends rate-limit headers, and Jira’s 429 headers when the burst limit is exceeded', async () => {
    await sim.close();
    sim = await startJiraSimulator({ rateLimit: { limit: 3, windowMs: 60_000, enforce: true, retryAfterSeconds: 7 } });
    const first = await call('GET', '/myself');
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    await call('GET', '/myself');
    const third = await call('GET', '/myself');
    expect(third.headers.get('x-ratelimit-nearlimit')).toBe('true');
    const limited = await call('GET', '/myself');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/);
    expect(limited.headers.get('ratelimit-reason')).toBe('jira-burst-based');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('injects faults with Jira bodies', async () => {
    sim.faults.add({ status: 429, retryAfterSeconds: 2 });
    sim.faults.add({ path: '/rest/api/3/myself', status: 503 });
    const limited = await call('GET', '/myself');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect((await call('GET', '/myself')).json).toEqual({ errorMessages: ['Service Unavailable'], errors: {} });
    expect((await call('GET', '/myself')).status).toBe(200);
  });
});

describe('directory and metadata', () => {
  it('lists users (a bare array, customers included as Jira does), groups, members, projects, labels, fields and issue types', async () => {
    const users = await call('GET', '/users/search?startAt=0&maxResults=2');
    expect(users.json.map((u: { displayName: string }) => u.displayName)).toEqual(['Ada Admin', 'Sam Support']);
    const rest = await call('GET', '/users/search?startAt=2&maxResults=10');
    expect(rest.json.map((u: { accountType: string }) => u.accountType)).toEqual(['atlassian', 'app', 'customer']);

    const groups = await call('GET', '/group/bulk?maxResults=2');
    expect(groups.json).toMatchObject({ startAt: 0, maxResults: 2, total: 3, isLast: false });
    const support = (await call('GET', '/group/bulk?startAt=0&maxResults=50')).json.values.find((g: { name: string }) => g.name === 'jira-software-users');
    const members = await call('GET', `/group/member?groupId=${support.groupId}`);
    expect(members.json.values.map((u: { displayName: string }) => u.displayName)).toEqual(['Ada Admin', 'Sam Support']);
    const withInactive = await call('GET', `/group/member?groupId=${support.groupId}&includeInactiveUsers=true`);
    expect(withInactive.json.total).toBe(3);

    const projects = await call('GET', '/project/search?expand=description,lead');
    expect(projects.json.values.map((p: { key: string; description: string }) => [p.key, p.description])).toEqual([
      ['ENG', ''],
      ['SUP', 'Customer support requests'],
    ]);
    expect((await call('GET', '/label')).json).toMatchObject({ values: ['legacy', 'web'], isLast: true });
    const fields = await call('GET', '/field');
    expect(fields.json.filter((f: { custom: boolean }) => f.custom).map((f: { name: string }) => f.name)).toEqual(['Order number', 'Story points', 'Customer tier', 'Root cause', 'Go-live']);
    const types = await call('GET', `/issue/createmeta/${sim.project('ENG').key}/issuetypes`);
    expect(types.json.issueTypes.map((t: { name: string }) => t.name)).toEqual(['Task', 'Bug', 'Story', 'Epic', 'Subtask']);
    expect((await call('GET', '/issue/createmeta/NOPE/issuetypes')).status).toBe(404);
    expectNoViolations();
  });
});

describe('issues', () => {
  it('creates with Jira’s validation, edits, and reads with a fields selection', async () => {
    const project = sim.project('SUP').id;
    const missing = await call('POST', '/issue', { fields: { project: { id: project }, issuetype: { name: 'Incident' } } });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual({ issuetype: 'Specify a valid issue type', summary: 'You must specify a summary of the issue.' });
    const bad = await call('POST', '/issue', { fields: { project: { id: project }, issuetype: { id: '10001' }, summary: 'x', labels: ['a b'], description: 'plain', customfield_10052: { value: 'Platinum' } } });
    expect(bad.json.errors).toMatchObject({
      labels: "The label 'a b' contains spaces which is invalid.",
      description: expect.stringContaining('Atlassian Document'),
      customfield_10052: "Option value 'Platinum' is not valid",
    });
    const created = await call('POST', '/issue', { fields: { project: { key: 'SUP' }, issuetype: { id: '10001' }, summary: 'Hello', customfield_10052: { value: 'Gold' } } });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(String), key: 'SUP-3', self: `${sim.url}/rest/api/3/issue/${created.json.id}` });

    expect((await call('PUT', `/issue/${created.json.id}`, { fields: { status: { id: '3' } } })).json.errors.status).toContain('cannot be set');
    expect((await call('PUT', `/issue/${created.json.id}`, { fields: { summary: 'Edited', duedate: '2030-01-01' } })).status).toBe(204);
    const read = await call('GET', `/issue/${created.json.key}?fields=summary,duedate,customfield_10052`);
    expect(read.json.fields).toEqual({ summary: 'Edited', duedate: '2030-01-01', customfield_10052: { self: expect.any(String), value: 'Gold', id: '10100' } });
    const all = await call('GET', `/issue/${created.json.id}?fields=*all,-comment,-worklog`);
    expect(all.json.fields.comment).toBeUndefined();
    expect(all.json.fields.status).toMatchObject({ name: 'To Do', statusCategory: { key: 'new' } });
    expect((await call('GET', '/issue/999')).json).toEqual({ errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
    expectNoViolations();
  });

  it('bulk-creates with per-element errors (201), and answers 400 when every element fails', async () => {
    const fields = (summary?: string) => ({ fields: { project: { id: sim.project('SUP').id }, issuetype: { id: '10001' }, ...(summary ? { summary } : {}) } });
    const mixed = await call('POST', '/issue/bulk', { issueUpdates: [fields('a'), fields(), fields('c')] });
    expect(mixed.status).toBe(201);
    expect(mixed.json.issues.map((i: { key: string }) => i.key)).toEqual(['SUP-3', 'SUP-4']);
    expect(mixed.json.errors).toEqual([{ status: 400, elementErrors: { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } }, failedElementNumber: 1 }]);
    const allBad = await call('POST', '/issue/bulk', { issueUpdates: [fields()] });
    expect(allBad.status).toBe(400);
    expect(allBad.json.issues).toEqual([]);
    const fetched = await call('POST', '/issue/bulkfetch', { issueIdsOrKeys: ['SUP-3', mixed.json.issues[1].id, 'NOPE-1'], fields: ['summary'] });
    expect(fetched.json.issues.map((i: { fields: { summary: string } }) => i.fields.summary)).toEqual(['a', 'c']);
    expectNoViolations();
  });

  it('moves issues through transitions; Done needs a resolution', async () => {
    const issue = sim.seedIssues(1)[0]!;
    const list = await call('GET', `/issue/${issue.id}/transitions?expand=transitions.fields`);
    expect(list.json.transitions.map((t: { name: string }) => t.name)).toEqual(['Start progress', 'Block', 'Done']);
    expect(list.json.transitions[2].fields.resolution).toMatchObject({ required: true, allowedValues: [{ name: 'Done' }, { name: "Won't Do" }] });
    expect((await call('POST', `/issue/${issue.id}/transitions`, { transition: { id: '41' } })).json.errors).toEqual({ resolution: 'Resolution is required.' });
    expect((await call('POST', `/issue/${issue.id}/transitions`, { transition: { id: '99' } })).json.errorMessages[0]).toContain("Transition id '99' is not valid");
    expect((await call('POST', `/issue/${issue.id}/transitions`, { transition: { id: '41' }, fields: { resolution: { id: '10000' } } })).status).toBe(204);
    const done = sim.issueJson(issue.id)!.fields as { status: { name: string }; resolution: { name: string }; resolutiondate: string };
    expect(done).toMatchObject({ status: { name: 'Done' }, resolution: { name: 'Done' }, resolutiondate: expect.stringMatching(/\+0000$/) });
    expectNoViolations();
  });

  it('pages comments, takes ADF bodies only, and uploads attachments only with the XSRF opt-out', async () => {
    const issue = sim.seedIssues(1, { commentsPerIssue: 3 })[0]!;
    const page = await call('GET', `/issue/${issue.id}/comment?startAt=1&maxResults=1&orderBy=-created`);
    expect(page.json).toMatchObject({ startAt: 1, maxResults: 1, total: 3, comments: [{ body: { type: 'doc' } }] });
    expect((await call('POST', `/issue/${issue.id}/comment`, { body: 'plain text' })).json.errors).toEqual({ comment: 'Comment body can not be empty!' });
    const multipart = `--XYZ\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XYZ--\r\n`;
    const ct = { 'content-type': 'multipart/form-data; boundary=XYZ' };
    const refused = await call('POST', `/issue/${issue.id}/attachments`, multipart, ct);
    expect(refused).toMatchObject({ status: 403, json: 'XSRF check failed' });
    const uploaded = await call('POST', `/issue/${issue.id}/attachments`, multipart, { ...ct, 'x-atlassian-token': 'no-check' });
    expect(uploaded.json).toEqual([expect.objectContaining({ filename: 'n.txt', size: 5, mimeType: 'text/plain', content: `${sim.url}/rest/api/3/attachment/content/${uploaded.json[0].id}` })]);
    const content = await fetch(uploaded.json[0].content, { headers: { authorization: sim.authHeader() } });
    expect(await content.text()).toBe('hello');
    expect((await call('DELETE', `/attachment/${uploaded.json[0].id}`)).status).toBe(204);
    expect((await call('DELETE', `/attachment/${uploaded.json[0].id}`)).status).toBe(404);
    expectNoViolations();
  });
});

describe('JQL search', () => {
  it('pages with nextPageToken, caps pages with many fields, and refuses unbounded queries and bad tokens', async () => {
    sim.seedIssues(150);
    const jql = 'project = SUP ORDER BY created ASC';
    const first = await call('POST', '/search/jql', { jql, maxResults: 500, fields: ['*all'] });
    expect(first.json.issues).toHaveLength(100);
    expect(first.json.isLast).toBe(false);
    const second = await call('POST', '/search/jql', { jql, maxResults: 500, fields: ['*all'], nextPageToken: first.json.nextPageToken });
    expect(second.json.issues).toHaveLength(52);
    expect(second.json.isLast).toBe(true);
    expect(second.json.nextPageToken).toBeUndefined();
    const idsOnly = await call('GET', `/search/jql?jql=${encodeURIComponent(jql)}&maxResults=500`);
    expect(idsOnly.json.issues).toHaveLength(152);
    expect(Object.keys(idsOnly.json.issues[0].fields)).toEqual([]);

    expect((await call('POST', '/search/jql', { jql: 'ORDER BY created DESC' })).json.errorMessages).toEqual([
      'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.',
    ]);
    expect((await call('POST', '/search/jql', { jql, nextPageToken: first.json.nextPageToken.slice(2) })).status).toBe(400);
    expect((await call('POST', '/search/jql', { jql: 'project = SUP', nextPageToken: first.json.nextPageToken })).status).toBe(400);
    expect((await call('POST', '/search/jql', { jql: 'bogus = 1' })).json.errorMessages[0]).toContain("Field 'bogus' does not exist");
    expect((await call('GET', '/search?jql=project=SUP')).status).toBe(410);
    expectNoViolations();
  });

  it('reads JQL dates in the searching user’s time zone', async () => {
    const issue = sim.seedIssues(1)[0]!;
    const la = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const wall = (ms: number) => la.format(new Date(ms)).replace(/-/g, '/').replace(', ', ' ');
    const search = async (jql: string) => (await call('POST', '/search/jql', { jql, fields: ['updated'] })).json.issues.map((i: { id: string }) => i.id);
    expect(await search(`updated >= "${wall(issue.updated - 60_000)}"`)).toContain(issue.id);
    expect(await search(`updated >= "${wall(issue.updated + 120_000)}"`)).not.toContain(issue.id);
    // The same wall time read as UTC is hours off: a client must not write UTC.
    const utc = new Date(issue.updated - 60_000).toISOString().slice(0, 16).replace('T', ' ').replace(/-/g, '/');
    expect(await search(`updated >= "${utc}"`)).not.toContain(issue.id);
    expect(await search('updated >= -5m AND labels is EMPTY')).toContain(issue.id);
    expect(await search(`key in (${issue.key}, NOPE-1) OR id = 1`)).toEqual([issue.id]);
  });

  it('parses the JQL subset and date formats', () => {
    expect(parseJql('project = SUP AND (labels in (a, "b c") OR assignee is EMPTY) ORDER BY created ASC, key')).toEqual({
      where: {
        and: [
          { field: 'project', op: '=', values: [{ kind: 'str', v: 'SUP' }] },
          { or: [{ field: 'labels', op: 'in', values: [{ kind: 'str', v: 'a' }, { kind: 'str', v: 'b c' }] }, { field: 'assignee', op: 'is', values: [{ kind: 'empty' }] }] },
        ],
      },
      orderBy: [
        { field: 'created', dir: 'asc' },
        { field: 'key', dir: 'asc' },
      ],
    });
    expect(() => parseJql('project = ')).toThrow(/Expecting either a value/);
    expect(zonedToEpoch(2024, 7, 1, 11, 5, 'America/Los_Angeles')).toBe(Date.parse('2024-07-01T18:05:00Z'));
    expect(zonedToEpoch(2024, 1, 1, 0, 0, 'Europe/Berlin')).toBe(Date.parse('2023-12-31T23:00:00Z'));
    expect(jqlDateValue('2024-07-01', 'UTC', 0)).toBe(Date.parse('2024-07-01T00:00:00Z'));
    expect(jqlDateValue('-2h', 'UTC', 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(() => jqlDateValue('yesterday', 'UTC', 0)).toThrow(/Valid formats/);
  });
});
