/**
 * Right after a large sync, a list walks the list index: the sync refreshed the planner's statistics
 * (PGlite never gathers them by itself; PostgreSQL's autovacuum may not have run yet).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let server: TestServer;
let sim: ZendeskSimulator;
beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  sim.seedTickets(3_000);
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

it('lists a page through unified_objects_list_idx right after the first sync, with no manual ANALYZE', async () => {
  const token = await connectZendesk(server, sim, { origin: 'plan' });
  await syncAndWait(server, token);
  const [{ id }] = (await server.sql('select id from connections limit 1')) as [{ id: string }];
  const analyzed = await server.sql(`select coalesce(n_live_tup, 0) as n, last_analyze, last_autoanalyze from pg_stat_user_tables where relname = 'unified_objects'`);
  expect(analyzed[0]!.last_analyze ?? analyzed[0]!.last_autoanalyze).not.toBeNull();
  const plan = await server.sql(
    `explain (format json) select * from unified_objects where connection_id = '${id}' and object_type = 'ticketing.ticket' and remote_was_deleted = false order by seq limit 51`,
  );
  const text = JSON.stringify(plan);
  expect(text).toContain('unified_objects_list_idx');
  expect(text).not.toContain('"Node Type":"Sort"');
  // And the first page answers.
  const page = await server.call('GET', '/ticketing/tickets?limit=50', { headers: { 'x-connection-token': token } });
  expect(page.body.data).toHaveLength(50);
  // A page filtered on a time walks that time's index from the bound, in its order: nothing to sort or filter out.
  for (const [column, index] of [
    ['modified_at', 'unified_objects_modified_idx'],
    ['remote_updated_at', 'unified_objects_remote_updated_idx'],
  ]) {
    const timed = await server.sql(
      `explain (format json) select id, seq, view_json from unified_objects where connection_id = '${id}' and object_type = 'ticketing.ticket'
         and remote_was_deleted = false and ${column} >= '2000-01-01T00:00:00Z' order by ${column}, id limit 51`,
    );
    expect(JSON.stringify(timed), column).toContain(index);
    expect(JSON.stringify(timed), column).not.toContain('"Node Type":"Sort"');
  }
  const polled = await server.call('GET', '/ticketing/tickets?limit=50&modified_after=2000-01-01T00:00:00Z', { headers: { 'x-connection-token': token } });
  expect(polled.body.data).toHaveLength(50);
});

it('refreshes the statistics while a large first sync runs, not only at its end (each page is saved on a fresh plan)', async () => {
  // No job runner: the connection's first sync runs here only, and every statement seen is its own.
  const quiet = await startTestServer({ work: false });
  try {
    await connectZendesk(quiet, sim, { origin: 'plan-during-sync' });
    const [{ id }] = (await quiet.sql('select id from connections limit 1')) as [{ id: string }];
    const statements: string[] = [];
    const stop = quiet.omniport.database.observeQueries((q) => {
      if (/^\s*(analyze unified_objects|with incoming as)/.test(q)) statements.push(q.trim().startsWith('analyze') ? q.trim() : 'save');
    });
    try {
      // 3,000 tickets in export pages of 1,000: statistics after the first 1,000 changes and again at 2,000.
      await quiet.omniport.services.sync.run(id, 'ticketing.ticket');
    } finally {
      stop();
    }
    const lastSave = statements.lastIndexOf('save');
    const during = statements.slice(0, lastSave).filter((s) => s !== 'save');
    expect(during.length).toBeGreaterThanOrEqual(2);
    // While the run saves: only the columns its statements are planned on (not the large JSON ones).
    for (const s of during) expect(s).toMatch(/^analyze unified_objects \(connection_id, object_type, remote_id\b/);
    // After it: the whole table, expression indexes included (lists filter on them).
    expect(statements.at(-1)).toBe('analyze unified_objects');
  } finally {
    await quiet.close();
  }
});
