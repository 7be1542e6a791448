/**
 * The Front simulator on its own, through raw HTTP: auth, error shapes, rate-limit headers, keyset
 * pagination, asynchronous message creation, multipart comments, ticketing statuses, the event feed,
 * and spec validation of what it answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatViolation } from '../../support/openapi-validator';
import { startFrontSimulator, type FrontSimulator, type FrontSimulatorOptions } from './index';

let sim: FrontSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(opts: FrontSimulatorOptions = {}) {
  sim = await startFrontSimulator(opts);
  return sim;
}

async function call(s: FrontSimulator, method: string, path: string, opts: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? s.token}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${s.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
}

function expectSpecClean(s: FrontSimulator) {
  if (!s.specAvailable) {
    console.warn('front core-api.json not found: spec validation skipped');
    return;
  }
  expect(s.specViolations.map(formatViolation)).toEqual([]);
}

describe('front simulator', () => {
  it('authenticates bearer tokens and answers errors as {_error}', async () => {
    const s = await start();
    expect((await call(s, 'GET', '/me')).body).toMatchObject({ id: 'cmp_1a2b3', name: 'Acme Support' });
    const missing = await call(s, 'GET', '/me', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ _error: { status: 401, title: 'Unauthenticated', message: 'Missing authorization header' } });
    expect((await call(s, 'GET', '/me', { token: 'nope' })).status).toBe(401);
    const unknown = await call(s, 'GET', '/conversations/cnv_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body._error).toMatchObject({ status: 404, message: 'Unknown conversation cnv_nope' });
    const bad = await call(s, 'POST', '/conversations', { body: { type: 'discussion' } });
    expect(bad.status).toBe(400);
    expect(bad.body._error.details).toEqual(expect.arrayContaining(['subject is required']));
    // Credentials never reach the request log.
    expect(s.requests.every((r) => !JSON.stringify(r).includes(s.token))).toBe(true);
    // The bad request is recorded as a violation of the description (validation is live), and nothing else.
    if (s.specAvailable) {
      expect(s.specViolations.map(formatViolation)).toEqual(["request POST /conversations [create-conversation]: body / is missing required property 'subject'"]);
    }
  });

  it('sends rate-limit headers on every answer, and 429 with retry-after when the window is exhausted', async () => {
    const s = await start({ rateLimit: { perMinute: 3, enforce: true } });
    const first = await call(s, 'GET', '/me');
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    await call(s, 'GET', '/me');
    await call(s, 'GET', '/me');
    const limited = await call(s, 'GET', '/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body._error.title).toBe('Too many requests');
    s.clock.advance(61_000);
    expect((await call(s, 'GET', '/me')).status).toBe(200);
  });

  it('paginates with keyset page tokens that survive conversations moving while paging', async () => {
    const s = await start();
    for (let i = 0; i < 6; i++) s.state.receiveMessage({ inboxId: s.seed!.supportInbox, from: `p${i}@example.com`, subject: `P${i}`, text: 'x' });
    const first = await call(s, 'GET', '/conversations?limit=3');
    expect(first.body._results.map((c: { subject: string }) => c.subject)).toEqual(['P5', 'P4', 'P3']);
    // P0 is bumped to the top meanwhile; the next page still continues after P3.
    const p0 = [...s.state.conversations.values()].find((c) => c.subject === 'P0')!;
    s.state.receiveMessage({ conversationId: p0.id, from: 'p0@example.com', text: 'again' });
    const next = new URL(first.body._pagination.next);
    expect(next.searchParams.get('limit')).toBe('3');
    const second = await call(s, 'GET', `${next.pathname}${next.search}`);
    expect(second.body._results.map((c: { subject: string }) => c.subject)).toEqual(['P2', 'P1', 'Where is my order?']);
    expect(second.body._pagination.next).toBeNull();
    expectSpecClean(s);
    expect((await call(s, 'GET', '/conversations?limit=101')).status).toBe(400);
  });

  it('creates accepted messages asynchronously; a reply archives unless options.archive is false', async () => {
    const s = await start({ messageDelayMs: 50 });
    s.clock.freeze();
    const conv = s.seed!.inboundConversation;
    const accepted = await call(s, 'POST', `/conversations/${conv}/messages`, { body: { body: '<p>Hi</p>', author_id: s.seed!.sam } });
    expect(accepted.status).toBe(202);
    expect(accepted.body.status).toBe('accepted');
    const alias = `/messages/${encodeURIComponent(`alt:uid:${accepted.body.message_uid}`)}`;
    expect((await call(s, 'GET', alias)).status).toBe(404);
    s.clock.advance(60);
    const message = await call(s, 'GET', alias);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ is_inbound: false, text: 'Hi', author: { id: s.seed!.sam } });
    expect(s.state.conversation(conv).archived).toBe(true);

    const kept = await call(s, 'POST', `/conversations/${conv}/messages`, { body: { body: 'again', options: { archive: false } } });
    s.clock.advance(60);
    expect((await call(s, 'GET', `/messages/${encodeURIComponent(`alt:uid:${kept.body.message_uid}`)}`)).status).toBe(200);
    expect(s.state.conversation(conv).archived).toBe(true); // still archived from the first reply; not archived again
    await call(s, 'PATCH', `/conversations/${conv}`, { body: { status: 'open' } });
    const third = await call(s, 'POST', `/conversations/${conv}/messages`, { body: { body: 'third', options: { archive: false } } });
    s.clock.advance(60);
    await call(s, 'GET', `/messages/${encodeURIComponent(`alt:uid:${third.body.message_uid}`)}`);
    expect(s.state.conversation(conv).archived).toBe(false);
    expectSpecClean(s);
  });

  it('takes comments with attachments as multipart/form-data', async () => {
    const s = await start();
    const boundary = 'XyZ';
    const raw = [
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nSee attached\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="author_id"\r\n\r\n${s.seed!.sam}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="attachments[0]"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nalpha\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await call(s, 'POST', `/conversations/${s.seed!.inboundConversation}/comments`, { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'See attached', author: { id: s.seed!.sam }, attachments: [{ filename: 'a.txt', content_type: 'text/plain', size: 5 }] });
    const download = await call(s, 'GET', new URL(res.body.attachments[0].url).pathname);
    expect(download.body).toBe('alpha');
    expectSpecClean(s);
  });

  it('has ticketing statuses, or answers 404 for them without ticketing', async () => {
    const s = await start();
    const statuses = await call(s, 'GET', '/company/statuses');
    expect(statuses.body._results.map((x: { category: string }) => x.category)).toEqual(['open', 'open', 'waiting', 'resolved']);
    const waiting = statuses.body._results[2].id;
    expect((await call(s, 'PATCH', `/conversations/${s.seed!.inboundConversation}`, { body: { status_id: waiting } })).status).toBe(204);
    expect((await call(s, 'GET', `/conversations/${s.seed!.inboundConversation}`)).body).toMatchObject({ status: 'assigned', status_category: 'waiting', status_id: waiting });
    expectSpecClean(s);
    await s.close();

    const plain = await start({ ticketing: false });
    expect((await call(plain, 'GET', '/company/statuses')).status).toBe(404);
    expect((await call(plain, 'PATCH', `/conversations/${plain.seed!.inboundConversation}`, { body: { status_id: 'sts_x' } })).status).toBe(400);
    const conv = (await call(plain, 'GET', `/conversations/${plain.seed!.inboundConversation}`)).body;
    expect(conv.status_category).toBeUndefined();
  });

  it('feeds events after a time, oldest first on request, at most 15 a page; 403 without the scope', async () => {
    const s = await start();
    const after = s.state.ts();
    const conv = s.state.conversation(s.seed!.inboundConversation);
    s.state.setAssignee(conv, s.seed!.alex);
    s.state.setTags(conv, []);
    s.state.trash(conv);
    const res = await call(s, 'GET', `/events?q[after]=${after}&sort_by=created_at&sort_order=asc`);
    expect(res.body._results.map((e: { type: string }) => e.type)).toEqual(['assign', 'untag', 'trash']);
    expect(res.body._results[2].conversation).toMatchObject({ id: conv.id, status: 'deleted' });
    expect((await call(s, 'GET', '/events?limit=15')).body._results.length).toBeLessThanOrEqual(15);
    expect((await call(s, 'GET', '/events?limit=16')).status).toBe(400);
    s.addToken('limited', { events: false });
    expect((await call(s, 'GET', '/events', { token: 'limited' })).status).toBe(403);
    // Trashed conversations leave the list unless asked for.
    const listed = (await call(s, 'GET', '/conversations')).body._results.map((c: { id: string }) => c.id);
    expect(listed).not.toContain(conv.id);
    const trashed = (await call(s, 'GET', '/conversations?q[statuses][]=trashed')).body._results.map((c: { id: string }) => c.id);
    expect(trashed).toEqual([conv.id]);
    expectSpecClean(s);
  });

  it('injects faults with Front-shaped bodies', async () => {
    const s = await start();
    s.faults.add({ status: 503, times: 1 });
    const res = await call(s, 'GET', '/me');
    expect(res.status).toBe(503);
    expect(res.body._error.status).toBe(503);
    s.rateLimited(1, 7);
    const limited = await call(s, 'GET', '/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call(s, 'GET', '/me')).status).toBe(200);
  });
});
