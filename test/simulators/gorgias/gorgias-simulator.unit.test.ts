/**
 * The Gorgias simulator on its own, through raw HTTP: auth, error shapes, the leaky bucket and its
 * header, cursor pagination and expiry, the documented-contract check, ticket and message rules, custom
 * field values, uploads and trash. Gorgias publishes no machine-readable API description, so there is no
 * spec validation; the contract check (contract.ts, transcribed from the reference) stands in for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGorgiasSimulator, type GorgiasSimulator, type GorgiasSimulatorOptions } from './index';

let sim: GorgiasSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(opts: GorgiasSimulatorOptions = {}) {
  sim = await startGorgiasSimulator(opts);
  return sim;
}

async function call(s: GorgiasSimulator, method: string, path: string, opts: { body?: unknown; auth?: string | null; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.auth !== null) headers.authorization = opts.auth ?? s.authHeader();
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${s.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
}

const message = (o: Record<string, unknown> = {}) => ({ channel: 'api', via: 'api', from_agent: false, sender: { email: 'new@customer.example' }, body_text: 'Hello', ...o });

describe('gorgias simulator', () => {
  it('authenticates with Basic email:api_key and answers errors as {error: {msg, data}}', async () => {
    const s = await start();
    const me = await call(s, 'GET', '/api/users/0');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: s.seed!.apiUser, email: 'api@acme.example', role: { name: 'admin' } });
    expect(me.body.created_datetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    const missing = await call(s, 'GET', '/api/users/0', { auth: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: 'Unauthorized' });
    const wrong = await call(s, 'GET', '/api/users/0', { auth: `Basic ${Buffer.from('api@acme.example:nope').toString('base64')}` });
    expect(wrong.status).toBe(401);
    expect((await call(s, 'GET', '/api/tickets/999')).body).toEqual({ error: { msg: 'Ticket not found' } });
    expect((await call(s, 'GET', '/api/nothing')).status).toBe(404);
    // Credentials never reach the request log.
    expect(s.requests.every((r) => !JSON.stringify(r).includes('gorgias-test-key') && !JSON.stringify(r).includes(s.authHeader().slice(6)))).toBe(true);
    expect(s.requests[0]!.auth).toEqual({ scheme: 'basic', label: 'api@acme.example', valid: true });
  });

  it('sends X-Gorgias-Account-Api-Call-Limit on every answer and 429 + Retry-After when the bucket is full', async () => {
    const s = await start({ rateLimit: { limit: 3, windowSeconds: 6, enforce: true } });
    const first = await call(s, 'GET', '/api/users/0');
    expect(first.headers.get('x-gorgias-account-api-call-limit')).toBe('1/3');
    await call(s, 'GET', '/api/users/0');
    expect((await call(s, 'GET', '/api/users/0')).headers.get('x-gorgias-account-api-call-limit')).toBe('3/3');
    const limited = await call(s, 'GET', '/api/users/0');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-gorgias-account-api-call-limit')).toBe('3/3');
    expect(Number(limited.headers.get('retry-after'))).toBe(2);
    s.clock.advance(2_000);
    expect((await call(s, 'GET', '/api/users/0')).status).toBe(200);
    // Injected 429s look the same.
    s.rateLimited(1, 4);
    const injected = await call(s, 'GET', '/api/users/0');
    expect(injected.status).toBe(429);
    expect(injected.headers.get('retry-after')).toBe('4');
    expect(injected.headers.get('x-gorgias-account-api-call-limit')).toBe('3/3');
  });

  it('paginates with cursors (meta.next_cursor/prev_cursor) and refuses expired ones', async () => {
    const s = await start({ cursorTtlMs: 1_000 });
    s.seedTickets(4);
    const p1 = await call(s, 'GET', '/api/tickets?limit=2&order_by=created_datetime:asc');
    expect(p1.body).toMatchObject({ object: 'list', uri: '/api/tickets?limit=2&order_by=created_datetime%3Aasc', meta: { prev_cursor: null, next_cursor: expect.any(String) } });
    expect(p1.body.data.map((t: { id: number }) => t.id)).toEqual([1, 2]);
    const p2 = await call(s, 'GET', `/api/tickets?limit=2&order_by=created_datetime:asc&cursor=${p1.body.meta.next_cursor}`);
    expect(p2.body.data.map((t: { id: number }) => t.id)).toEqual([3, 4]);
    const p3 = await call(s, 'GET', `/api/tickets?limit=2&order_by=created_datetime:asc&cursor=${p2.body.meta.next_cursor}`);
    expect(p3.body.data.map((t: { id: number }) => t.id)).toEqual([5]);
    expect(p3.body.meta.next_cursor).toBeNull();
    const back = await call(s, 'GET', `/api/tickets?limit=2&order_by=created_datetime:asc&cursor=${p3.body.meta.prev_cursor}`);
    expect(back.body.data.map((t: { id: number }) => t.id)).toEqual([3, 4]);
    // A cursor belongs to its ordering, and expires.
    expect((await call(s, 'GET', `/api/tickets?limit=2&cursor=${p1.body.meta.next_cursor}`)).status).toBe(400);
    s.clock.advance(2_000);
    const expired = await call(s, 'GET', `/api/tickets?limit=2&order_by=created_datetime:asc&cursor=${p1.body.meta.next_cursor}`);
    expect(expired.status).toBe(400);
    expect(expired.body.error.data).toEqual({ cursor: ['This cursor has expired.'] });
    expect(s.contractViolations).toEqual([]);
  });

  it('answers 400 for what the reference does not document, and records it as a contract violation', async () => {
    const s = await start();
    const unknownParam = await call(s, 'GET', '/api/tickets?since=2024-01-01');
    expect(unknownParam.status).toBe(400);
    expect(unknownParam.body).toEqual({ error: { msg: 'Invalid data', data: { since: ['Unknown field.'] } } });
    expect((await call(s, 'GET', '/api/tickets?limit=101')).status).toBe(400);
    expect((await call(s, 'GET', '/api/tickets?order_by=subject:asc')).status).toBe(400);
    const bad = await call(s, 'POST', '/api/tickets', { body: { subject: 'x', status: 'pending', messages: [{ body_text: 'hi' }], requester: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data).toEqual({
      via: ['Missing data for required field.'],
      status: ['Must be one of: open, closed.'],
      messages: { '0': { channel: ['Missing data for required field.'], from_agent: ['Missing data for required field.'], via: ['Missing data for required field.'] } },
      requester: ['Unknown field.'],
    });
    expect((await call(s, 'GET', '/api/custom-fields')).status).toBe(400);
    expect(s.contractViolations.map((v) => `${v.method} ${v.path}`)).toEqual([
      'GET /api/tickets',
      'GET /api/tickets',
      'GET /api/tickets',
      'POST /api/tickets',
      'GET /api/custom-fields',
    ]);
  });

  it('creates tickets with their messages: customers from sender emails, tags by name, typed custom fields', async () => {
    const s = await start();
    const seed = s.seed!;
    const created = await call(s, 'POST', '/api/tickets', {
      body: {
        subject: 'Broken zipper',
        via: 'api',
        priority: 'high',
        tags: [{ name: 'returns' }, { name: 'billing' }],
        assignee_user: { id: seed.sam },
        custom_fields: [{ id: seed.orderNumberField, value: 'ORD-9' }],
        messages: [message(), message({ from_agent: true, sender: { id: seed.sam }, body_text: 'Sorry!' })],
      },
    });
    expect(created.status).toBe(201);
    const t = created.body;
    expect(t).toMatchObject({ subject: 'Broken zipper', status: 'open', priority: 'high', channel: 'api', via: 'api', from_agent: false, assignee_user: { id: seed.sam } });
    expect(t.customer).toMatchObject({ email: 'new@customer.example' });
    expect(t.tags.map((x: { name: string }) => x.name)).toEqual(['returns', 'billing']);
    expect(t.custom_fields).toEqual({ [String(seed.orderNumberField)]: { id: seed.orderNumberField, value: 'ORD-9' } });
    expect(t.messages.map((m: { from_agent: boolean; body_text: string }) => [m.from_agent, m.body_text])).toEqual([
      [false, 'Hello'],
      [true, 'Sorry!'],
    ]);
    const wrongType = await call(s, 'POST', '/api/tickets', { body: { via: 'api', custom_fields: [{ id: seed.refundField, value: 'ten' }], messages: [message()] } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.data).toEqual({ custom_fields: { '0': { value: ['Not a valid number value.'] } } });
    const noSender = await call(s, 'POST', '/api/tickets', { body: { via: 'api', messages: [message({ from_agent: true, sender: undefined })] } });
    expect(noSender.status).toBe(400);
    expect(noSender.body.error.data).toEqual({ messages: { '0': { sender: ['Missing data for required field.'] } } });
    const customerNote = await call(s, 'POST', '/api/tickets', { body: { via: 'api', messages: [message({ channel: 'internal-note' })] } });
    expect(customerNote.status).toBe(400);
    expect(s.contractViolations).toEqual([]);
  });

  it('replaces every custom field through PUT /tickets/{id}, only the ones sent through /custom-fields', async () => {
    const s = await start();
    const { ticket, orderNumberField, refundField, escalatedField } = s.seed!;
    await call(s, 'PUT', `/api/tickets/${ticket}/custom-fields`, { body: [{ id: refundField, value: 5 }] });
    let values = await call(s, 'GET', `/api/tickets/${ticket}/custom-fields`);
    expect(values.body.map((v: { field: { id: number }; value: unknown }) => [v.field.id, v.value])).toEqual([
      [orderNumberField, 'ORD-7'],
      [refundField, 5],
    ]);
    const put = await call(s, 'PUT', `/api/tickets/${ticket}`, { body: { custom_fields: [{ id: escalatedField, value: true }], assignee_user: null, status: 'closed' } });
    expect(put.body).toMatchObject({ status: 'closed', assignee_user: null, custom_fields: { [String(escalatedField)]: { id: escalatedField, value: true } } });
    expect(put.body.closed_datetime).toEqual(expect.any(String));
    values = await call(s, 'GET', `/api/tickets/${ticket}/custom-fields`);
    expect(values.body).toHaveLength(1);
  });

  it('lists messages across tickets, newest first by default, and keeps internal notes private', async () => {
    const s = await start();
    const { ticket, sam } = s.seed!;
    const note = await call(s, 'POST', `/api/tickets/${ticket}/messages`, { body: { channel: 'internal-note', via: 'api', from_agent: true, sender: { id: sam }, body_text: 'n', public: true } });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ public: false, channel: 'internal-note', ticket_id: ticket, sender: { id: sam } });
    const all = await call(s, 'GET', '/api/messages?limit=100');
    expect(all.body.data[0].id).toBe(note.body.id);
    const asc = await call(s, 'GET', `/api/messages?ticket_id=${ticket}&order_by=created_datetime:asc`);
    expect(asc.body.data.map((m: { id: number }) => m.id)).toEqual([1, 2, 3, note.body.id]);
    // A customer writing again re-opens a closed ticket.
    await call(s, 'PUT', `/api/tickets/${ticket}`, { body: { status: 'closed' } });
    await call(s, 'POST', `/api/tickets/${ticket}/messages`, { body: message({ sender: { id: s.seed!.casey } }) });
    expect((await call(s, 'GET', `/api/tickets/${ticket}`)).body.status).toBe('open');
  });

  it('hosts uploaded files: multipart parts named by label, private downloads', async () => {
    const s = await start();
    const boundary = 'XyZ';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="label.txt"; filename="label.txt"\r\nContent-Type: text/plain\r\n\r\nSHIP-1\r\n--${boundary}--\r\n`;
    const up = await call(s, 'POST', '/api/upload?type=attachment', { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.status).toBe(201);
    expect(up.body).toEqual([{ url: expect.stringMatching(/\/api\/attachments\/download\//), name: 'label.txt', size: '6', content_type: 'text/plain' }]);
    const url = new URL(up.body[0].url);
    expect((await call(s, 'GET', url.pathname)).body).toBe('SHIP-1');
    expect((await call(s, 'GET', url.pathname, { auth: null })).status).toBe(401);
    expect((await call(s, 'POST', '/api/upload', { body: { file: 'x' } })).status).toBe(400);
    await s.close();
    const small = await start({ maxUploadBytes: 10 });
    expect((await call(small, 'POST', '/api/upload', { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })).status).toBe(413);
  });

  it('lists trashed tickets unless trashed=false, and deletes for good with DELETE', async () => {
    const s = await start();
    const [a, b] = s.seedTickets(2);
    s.trashTicketRemotely(a!);
    const listed = async (q = '') => (await call(s, 'GET', `/api/tickets?limit=100${q}`)).body.data.map((t: { id: number }) => t.id);
    expect(await listed()).toContain(a);
    expect(await listed('&trashed=false')).not.toContain(a);
    expect((await call(s, 'GET', `/api/tickets/${a}`)).body.trashed_datetime).toEqual(expect.any(String));
    expect((await call(s, 'DELETE', `/api/tickets/${b}`)).status).toBe(204);
    expect((await call(s, 'GET', `/api/tickets/${b}`)).status).toBe(404);
    expect((await call(s, 'GET', `/api/messages?ticket_id=${b}`)).body.data).toEqual([]);
  });
});
