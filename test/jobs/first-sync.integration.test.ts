/**
 * A small connection's first sync, through the real server: its streams run side by side and queued jobs wake
 * the workers. The workers poll only once an hour here, so the sync can complete only if queuing wakes them.
 * Timed from the connection's creation (the 201), as the sync starts then; the figure is printed (about a
 * second on an idle machine), not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitlabSimulator, type GitlabSimulator } from '../simulators/gitlab';
import { startTestServer, type TestServer } from '../support/harness';
import { waitForSync } from '../support/sync-wait';

let sim: GitlabSimulator;
let server: TestServer;

beforeAll(async () => {
  sim = await startGitlabSimulator({ validateSpec: false });
  server = await startTestServer({ pollingIntervalSeconds: 3600 });
  await server.omniport.jobs.start();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

describe('first sync', () => {
  it('of a 6-stream connection completes without waiting for a poll: queuing wakes the workers', async () => {
    const requestedAt = Date.now();
    const created = await server.call('POST', '/connections', {
      body: { provider: 'gitlab', linked_user_origin_id: 'small', credentials: { access_token: sim.token }, base_url: sim.url },
    });
    expect(created.status).toBe(201);
    const startedAt = Date.now();
    const status = await waitForSync(server, created.body.data.connection_token, requestedAt, 60_000);
    const elapsedMs = Date.now() - startedAt;
    console.log(`POST /connections: ${startedAt - requestedAt} ms; then the first sync of ${status.streams.length} streams: ${elapsedMs} ms (${server.omniport.database.kind})`);
    expect(status.streams.length).toBe(6);
  });
});
