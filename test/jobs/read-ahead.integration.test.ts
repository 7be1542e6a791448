/**
 * The sync engine reads one provider page ahead: the next page is requested while the current one is
 * stored (so pacing waits and provider latency overlap with the database), never more than one ahead, and
 * a failed prefetch is seen only after the current page is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapAhead, readAhead } from '../../src/core/read-ahead';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ObjectSyncer, ProviderAdapter, UnifiedRecord } from '../../src/providers/types';
import type { UnifiedRepo } from '../../src/store/unified.repo';
import { startTestServer, type TestServer } from '../support/harness';
import { testTokenProvider } from '../support/test-provider';

const waitFor = async (ok: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
  return ok();
};

describe('readAhead', () => {
  it('requests the next item when the current one is handed over, one ahead at most', async () => {
    const log: string[] = [];
    async function* source() {
      for (let i = 1; i <= 3; i++) {
        log.push(`fetch ${i}`);
        await new Promise((r) => setTimeout(r, 1));
        yield i;
      }
      log.push('end');
    }
    for await (const item of readAhead(source())) {
      // Fetching the next item has begun (it runs up to its first await) before this one is consumed.
      await waitFor(() => log.includes(item < 3 ? `fetch ${item + 1}` : 'end'));
      log.push(`store ${item}`);
    }
    expect(log).toEqual(['fetch 1', 'fetch 2', 'store 1', 'fetch 3', 'store 2', 'end', 'store 3']);
  });

  it('surfaces a failed prefetch after the current item, and closes the source on an early stop', async () => {
    const seen: number[] = [];
    async function* failing() {
      yield 1;
      throw new Error('page 2 failed');
    }
    await expect(
      (async () => {
        for await (const item of readAhead(failing())) seen.push(item);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([1]);

    let closed = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const item of readAhead(endless())) if (item === 2) break;
    expect(closed).toBe(true);
  });
});

describe('mapAhead', () => {
  it('lists the next page and starts its mapping before the current mapping is done, in order, one ahead at most', async () => {
    const log: string[] = [];
    const finish = new Map<number, () => void>();
    async function* source() {
      for (let i = 1; i <= 4; i++) {
        log.push(`list ${i}`);
        yield i;
      }
    }
    const results: number[] = [];
    const consumer = (async () => {
      for await (const r of mapAhead(source(), (page) => {
        log.push(`map ${page}`);
        return new Promise<number>((resolve) => finish.set(page, () => resolve(page * 10)));
      })) {
        results.push(r);
      }
    })();
    // Page 1's mapping is still running, yet page 2 is listed and mapped, and page 3 listed: no more.
    expect(await waitFor(() => log.includes('list 3'))).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['list 1', 'list 2', 'map 1', 'list 3', 'map 2']);
    // Finishing page 2 first yields nothing: page 1 comes first.
    finish.get(2)!();
    await new Promise((r) => setTimeout(r, 20));
    expect(results).toEqual([]);
    finish.get(1)!();
    expect(await waitFor(() => finish.has(3))).toBe(true);
    finish.get(3)!();
    expect(await waitFor(() => finish.has(4))).toBe(true);
    finish.get(4)!();
    await consumer;
    expect(results).toEqual([10, 20, 30, 40]);
  });

  it('surfaces a failed page after the results before it, and lets started mappings settle on an early stop', async () => {
    async function* failing() {
      yield 1;
      yield 2;
      throw new Error('page 3 failed');
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const r of mapAhead(failing(), async (page) => page)) seen.push(r);
      })(),
    ).rejects.toThrow('page 3 failed');
    expect(seen).toEqual([1, 2]);

    let closed = false;
    const settled: number[] = [];
    async function* endless() {
      try {
        for (let i = 1; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const r of mapAhead(endless(), async (page) => {
      await new Promise((res) => setTimeout(res, 5));
      settled.push(page);
      return page;
    })) {
      if (r === 1) break;
    }
    expect(closed).toBe(true);
    // Page 2's mapping had started: it finished before the stop returned (its calls are not cut off unseen).
    expect(settled).toEqual([1, 2]);
  });
});

describe('sync engine reads ahead', () => {
  const fetched: number[] = [];
  const pages = 4;
  const record = (n: number, i: number): UnifiedRecord => ({
    objectType: 'ticketing.ticket',
    remoteId: `${n}-${i}`,
    data: { name: `ticket ${n}-${i}` },
    remoteData: {},
    remoteCreatedAt: null,
    remoteUpdatedAt: null,
  });
  const syncer: ObjectSyncer = {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: false,
    reportsDeletions: false,
    async *run() {
      for (let n = 1; n <= pages; n++) {
        fetched.push(n);
        yield { records: [record(n, 1), record(n, 2)], resume: n < pages ? String(n) : null };
      }
    },
  };
  const provider: ProviderAdapter = { ...testTokenProvider, syncers: [syncer] };
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ providers: new ProviderRegistry([provider]), work: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('asks for page n+1 while page n is stored, and stores every page', async () => {
    const res = await server.call('POST', '/connections', {
      body: { provider: 'acme-desk', linked_user_origin_id: 'read-ahead', credentials: { email: 'a@b.example', api_token: 't' } },
    });
    expect(res.status).toBe(201);
    const connectionId = res.body.data.id_connection as string;
    const { sync } = server.omniport.services;
    const repo = (sync as unknown as { repo: UnifiedRepo }).repo;
    const saveBatch = repo.saveBatch.bind(repo);
    const requestedWhileStoring: boolean[] = [];
    let stored = 0;
    repo.saveBatch = (async (...args: Parameters<UnifiedRepo['saveBatch']>) => {
      const page = ++stored;
      // Without reading ahead, page n+1 is asked for only after this returns: it would never be seen here.
      requestedWhileStoring.push(page === pages || (await waitFor(() => fetched.includes(page + 1), 5_000)));
      // ...and never two pages ahead.
      expect(fetched.length).toBeLessThanOrEqual(page + 1);
      return saveBatch(...args);
    }) as UnifiedRepo['saveBatch'];
    try {
      const run = await sync.run(connectionId, 'ticketing.ticket');
      expect(run).toMatchObject({ outcome: 'done', records: pages * 2 });
    } finally {
      repo.saveBatch = saveBatch;
    }
    expect(requestedWhileStoring).toEqual([true, true, true, true]);
    const rows = await server.sql('select count(*)::int as n from unified_objects where connection_id = $1', [connectionId]);
    expect(rows[0]).toMatchObject({ n: pages * 2 });
  });
});
