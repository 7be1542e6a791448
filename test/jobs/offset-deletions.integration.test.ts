/**
 * Lists read whole every run but walked by page number or offset (GitHub labels and repositories, Jira
 * projects, users and groups, GitLab groups): an item deleted on a page already read moves the next ones
 * back a place, so one goes unread. A full run marks deleted only the unlisted objects the provider itself
 * says are gone (asked one by one), so such a run never marks a live object deleted. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGithubAdapter } from '../../src/providers/github';
import { ProviderRegistry } from '../../src/providers/registry';
import { startTestServer, type TestServer } from '../support/harness';
import { startGithubSimulator, type GithubSimulator } from '../simulators/github';

const REPO = 'octo-org/website';
let server: TestServer;
let sim: GithubSimulator;
let connectionId: string;

beforeAll(async () => {
  sim = await startGithubSimulator();
  // Two labels a page, so that a repository's labels span several pages.
  server = await startTestServer({ providers: new ProviderRegistry([createGithubAdapter({ pageSize: 2 })]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'github', linked_user_origin_id: 'offset', credentials: { access_token: sim.token }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

/** Whether each stored label is marked deleted, by the label's id (names repeat across repositories: `bug`). */
const labelState = async () =>
  new Map(
    (await server.sql(`select remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'ticketing.tag'`, [connectionId])).map(
      (r) => [String(r.remote_id), r.remote_was_deleted as boolean],
    ),
  );

describe('a full run of a list walked by page number', () => {
  it('never marks the label a deletion kept from being read; marks the deleted one once the provider confirms it gone', async () => {
    const repo = sim.repo(REPO);
    for (const name of ['l1', 'l2', 'l3', 'l4', 'l5']) sim.state.label(repo, name, false);
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.tag')).toMatchObject({ outcome: 'done' });
    const ordered = [...repo.labels.values()].sort((a, b) => a.id - b.id);
    expect(ordered.length).toBeGreaterThanOrEqual(5);
    const [victim, , shifted] = ordered;

    // Before page 2 is read, the first label (read on page 1) is deleted: the third moves onto page 1, already read.
    sim.faults.add({
      method: 'GET',
      path: `/repos/${REPO}/labels`,
      when: (req) => req.query.get('page') === '2',
      before: () => void repo.labels.delete(victim!.name.toLowerCase()),
    });
    // The deleted label was read on page 1 before its deletion; the third was never read. Neither is marked:
    // the provider, asked about the unread one, still has it.
    const run = await sync.run(connectionId, 'ticketing.tag', { full: true });
    expect(run).toMatchObject({ outcome: 'done', markedDeleted: 0 });
    expect((await labelState()).get(String(shifted!.id))).toBe(false);
    expect(sim.requests.some((r) => r.path === `/repos/${REPO}/labels/${encodeURIComponent(shifted!.name)}`)).toBe(true);

    // The next run does not list the deleted label, and the provider confirms it gone: marked deleted.
    expect(await sync.run(connectionId, 'ticketing.tag', { full: true })).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    const state = await labelState();
    expect(state.get(String(victim!.id))).toBe(true);
    expect(state.get(String(shifted!.id))).toBe(false);
  });
});
