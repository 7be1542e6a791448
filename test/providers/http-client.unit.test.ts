/**
 * The outbound client's retry rules: a write is sent again only when repeating it is harmless (or it
 * surely never left); a write that may have arrived fails with `outcome_unknown`; reads retry as before.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors';
import { ProviderError, ProviderHttpClient } from '../../src/providers/http-client';
import { zendeskAdapter } from '../../src/providers/zendesk';

type Answer = number | 'reset' | 'hang';

let server: http.Server;
let url: string;
let script: Answer[] = [];
let received = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/slow')) return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 200);
    received++;
    req.resume();
    const answer = script.shift() ?? 200;
    if (answer === 'reset') return void req.socket.destroy();
    if (answer === 'hang') return;
    res.writeHead(answer, { 'content-type': 'application/json', ...(answer === 429 ? { 'retry-after': '0' } : {}) }).end(JSON.stringify({ ok: answer < 300 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

let n = 0;
function client(baseUrl = url, more: Partial<ConstructorParameters<typeof ProviderHttpClient>[0]> = {}) {
  return new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: zendeskAdapter.manifest,
    connectionId: `unit-${n++}`,
    baseUrl,
    authHeaders: () => ({}),
    errorMessage: () => undefined,
    retryBaseMs: 1,
    maxRetries: 3,
    timeoutMs: 300,
    ...more,
  });
}

async function run(answers: Answer[], call: (c: ProviderHttpClient) => Promise<unknown>) {
  script = [...answers];
  received = 0;
  const result = await call(client()).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error: error as AppError }),
  );
  return { ...result, sent: received };
}

describe('provider HTTP client retries', () => {
  it.each([500, 502, 503, 'reset', 'hang'] as const)('does not send a POST again after %s: outcome_unknown', async (answer) => {
    const r = await run([answer, 201], (c) => c.post('/x', { json: {} }));
    expect(r.sent).toBe(1);
    expect(r.error?.code).toBe('outcome_unknown');
    expect(r.error?.status).toBe(502);
  });

  it('sends a POST again when the provider deduplicates it, and after a 429', async () => {
    expect(await run([500, 'reset', 201], (c) => c.post('/x', { json: {}, idempotent: true }))).toMatchObject({ sent: 3, error: undefined });
    expect(await run([429, 201], (c) => c.post('/x', { json: {} }))).toMatchObject({ sent: 2, error: undefined });
  });

  it('says outcome_unknown when a deduplicated write still fails after every retry', async () => {
    const r = await run([500, 500, 500, 500], (c) => c.post('/x', { json: {}, idempotent: true }));
    expect(r.sent).toBe(4);
    expect(r.error?.code).toBe('outcome_unknown');
  });

  it('retries a POST that never left (connection refused) and reports the provider unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const error = await client(`http://127.0.0.1:${port}`)
      .post('/x', { json: {} })
      .catch((e: AppError) => e);
    expect((error as AppError).code).toBe('provider_unavailable');
  });

  it('does not repeat a PUT marked as appending, but repeats a plain PUT', async () => {
    expect(await run([500, 200], (c) => c.put('/x', { json: {}, idempotent: false }))).toMatchObject({ sent: 1, error: { code: 'outcome_unknown' } });
    expect(await run([500, 200], (c) => c.put('/x', { json: {} }))).toMatchObject({ sent: 2, error: undefined });
  });

  it('retries reads, GETs and reads sent as POST, and reports a lasting 5xx as a provider error', async () => {
    expect(await run([500, 'reset', 200], (c) => c.post('/search', { json: {}, read: true }))).toMatchObject({ sent: 3, error: undefined });
    const r = await run([500, 500, 500, 500], (c) => c.get('/x'));
    expect(r.sent).toBe(4);
    expect(r.error).toBeInstanceOf(ProviderError);
    expect(r.error?.code).toBe('provider_error');
  });

  it('reports a write answered 4xx as the provider refusing it (nothing happened)', async () => {
    const r = await run([422], (c) => c.post('/x', { json: {} }));
    expect(r.sent).toBe(1);
    expect(r.error?.code).toBe('provider_error');
  });
});

describe('per-connection concurrency', () => {
  it('queues a sync\'s calls apart from a client\'s request on the same connection: the request does not wait behind them', async () => {
    const connectionId = `lanes-${n++}`;
    const sync = client(url, { connectionId, background: true, concurrency: 1 });
    const request = client(url, { connectionId, concurrency: 1 });
    const finished: string[] = [];
    const background = [1, 2, 3].map((i) => sync.get(`/slow/${i}`).then(() => finished.push(`sync ${i}`)));
    await request.get('/fast').then(() => finished.push('request'));
    await Promise.all(background);
    expect(finished.indexOf('request')).toBeLessThan(finished.indexOf('sync 2'));
    // One lane still runs one call at a time.
    expect(finished.filter((f) => f.startsWith('sync'))).toEqual(['sync 1', 'sync 2', 'sync 3']);
  });
});
