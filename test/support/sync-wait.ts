import type { TestServer } from './harness';

/** Queues a sync through the API and waits until every stream has succeeded after it started. */
export async function syncAndWait(server: TestServer, token: string, opts: { full?: boolean; timeoutMs?: number } = {}) {
  const startedAt = Date.now();
  const queued = await server.call('POST', '/sync', { headers: { 'x-connection-token': token }, body: opts.full ? { full: true } : {} });
  if (queued.status !== 202) throw new Error(`POST /sync answered ${queued.status}: ${JSON.stringify(queued.body)}`);
  return waitForSync(server, token, startedAt, opts.timeoutMs);
}

/** Waits until every stream of the connection succeeded at or after `since` (ms). */
export async function waitForSync(server: TestServer, token: string, since: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const res = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } });
    last = res.body;
    const streams = res.body?.data?.streams as { status: string; last_success_at: string | null; last_error: string | null }[] | undefined;
    if (streams?.length && streams.every((s) => s.status === 'idle' && s.last_success_at && Date.parse(s.last_success_at) >= since - 5)) {
      return res.body.data as { streams: { stream: string; mode: string; records_in_run: number }[] };
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`sync did not finish in ${timeoutMs} ms: ${JSON.stringify(last)}`);
}
