/**
 * Deleted Jira comments and GitLab notes are seen at no extra call: an incremental comment run reads every
 * comment of each changed issue (a deleted note touches its issue, as a new one does), so the stored comments
 * of those issues it does not list were deleted. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitlabAdapter } from '../../src/providers/gitlab';
import { jiraAdapter } from '../../src/providers/jira';
import { ProviderRegistry } from '../../src/providers/registry';
import { startTestServer, type TestServer } from '../support/harness';
import { startGitlabSimulator, type GitlabSimulator } from '../simulators/gitlab';
import { startJiraSimulator, type JiraSimulator } from '../simulators/jira';

let server: TestServer;
let sim: GitlabSimulator;
let jira: JiraSimulator;

beforeAll(async () => {
  sim = await startGitlabSimulator({ validateSpec: false });
  jira = await startJiraSimulator();
  server = await startTestServer({ providers: new ProviderRegistry([gitlabAdapter, jiraAdapter]), work: false });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
  await jira?.close();
});

const commentState = async (connectionId: string) =>
  new Map(
    (await server.sql(`select remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'ticketing.comment'`, [connectionId])).map(
      (r) => [String(r.remote_id), r.remote_was_deleted as boolean],
    ),
  );

describe('GitLab notes deleted', () => {
  it('are marked deleted by the next incremental comment run, the issue’s other notes and other issues’ kept', async () => {
    const res = await server.call('POST', '/connections', { body: { provider: 'gitlab', linked_user_origin_id: 'notes', credentials: { access_token: sim.token }, base_url: sim.url } });
    expect(res.status).toBe(201);
    const connectionId = res.body.data.id_connection as string;
    const project = sim.fixtures!.helpDesk;
    sim.seedIssues(project.id, 5);
    const issues = [...sim.state.issues.values()].filter((i) => i.project_id === project.id);
    const [first, second] = issues;
    const author = sim.fixtures!.sam.id;
    const a1 = sim.state.addNote(first!, { body: 'first a' }, author);
    const a2 = sim.state.addNote(first!, { body: 'first b' }, author);
    const b1 = sim.state.addNote(second!, { body: 'second a' }, author);

    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.comment')).toMatchObject({ outcome: 'done', mode: 'full' });
    const before = await commentState(connectionId);
    const remoteIdOf = (noteId: number) => [...before.keys()].find((k) => k === String(noteId) || k.endsWith(`:${noteId}`) || k.endsWith(`/${noteId}`));
    for (const n of [a1, a2, b1]) expect(remoteIdOf(n.id)).toBeDefined();

    sim.state.deleteNote(a1.id);
    const callsBefore = sim.requests.length;
    const run = await sync.run(connectionId, 'ticketing.comment');
    expect(run).toMatchObject({ outcome: 'done', mode: 'incremental' });
    const after = await commentState(connectionId);
    expect(after.get(remoteIdOf(a1.id)!)).toBe(true);
    expect(after.get(remoteIdOf(a2.id)!)).toBe(false);
    expect(after.get(remoteIdOf(b1.id)!)).toBe(false);
    // Only the notes of the issues changed within the overlap window (the two given notes) were read: no call per ticket.
    const noteReads = sim.requests.slice(callsBefore).filter((r) => /\/issues\/\d+\/notes$/.test(r.path));
    expect(noteReads.length).toBeLessThanOrEqual(2);
    expect(noteReads.length).toBeLessThan(issues.length);
  });
});

describe('Jira comments deleted', () => {
  it('are marked deleted by the next incremental comment run in which their issue changed, other comments kept', async () => {
    const cred = jira.credentials[0]!;
    const res = await server.call('POST', '/connections', {
      body: { provider: 'jira', linked_user_origin_id: 'jira-comments', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: jira.url },
    });
    expect(res.status).toBe(201);
    const connectionId = res.body.data.id_connection as string;
    const [first, second] = jira.seedIssues(2, { commentsPerIssue: 2, spacingMs: 1_000 });
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.comment')).toMatchObject({ outcome: 'done', mode: 'full' });
    const [gone, kept] = first!.comments.map((c) => c.id);
    const other = second!.comments[0]!.id;
    const before = await commentState(connectionId);
    for (const id of [gone, kept, other]) expect(before.get(id!)).toBe(false);

    // Jira does not document whether deleting a comment changes its issue: the deletion is seen once the issue
    // changes for any reason, as here.
    jira.deleteCommentRemotely(first!.key, gone!);
    jira.updateIssueRemotely(first!.key, { summary: 'Changed after a comment was deleted' });
    expect(await sync.run(connectionId, 'ticketing.comment')).toMatchObject({ outcome: 'done', mode: 'incremental' });
    const after = await commentState(connectionId);
    expect(after.get(gone!)).toBe(true);
    expect(after.get(kept!)).toBe(false);
    expect(after.get(other)).toBe(false);
  });
});
