/**
 * Zendesk redaction removes text for good (GDPR requests, a card number typed by a customer) and changes
 * no timestamp: Omniport must not keep the text. The redaction's own audit event makes the next sync read
 * the comment again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/harness';
import { syncAndWait } from '../../support/sync-wait';
import { connectZendesk } from '../../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../../simulators/zendesk';

let server: TestServer;
let sim: ZendeskSimulator;
let token: string;
/** The simulator's clock: the comment is written a day ago, far outside any sync overlap window. */
let clock = Date.now() - 86_400_000;

beforeAll(async () => {
  sim = await startZendeskSimulator({ now: () => clock });
  server = await startTestServer();
  token = await connectZendesk(server, sim, { origin: 'redaction' });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

it('replaces a comment whose text was redacted in Zendesk at the next incremental sync', async () => {
  const ticket = sim.createTicketRemotely({ subject: 'Card problem', comment: { body: 'My card is 4111 1111 1111 1111, please check' } });
  clock = Date.now();
  await syncAndWait(server, token);
  const comment = ticket.comments[0]!;
  const stored = async () =>
    (await server.sql(`select data->>'body' as body, remote_data::text as raw from unified_objects where object_type = 'ticketing.comment' and remote_id = $1`, [String(comment.id)]))[0] as {
      body: string;
      raw: string;
    };
  expect((await stored()).body).toContain('4111 1111 1111 1111');

  const redact = await fetch(`${sim.url}/api/v2/tickets/${ticket.id}/comments/${comment.id}/redact.json`, {
    method: 'PUT',
    headers: { authorization: sim.authHeader(), 'content-type': 'application/json' },
    body: JSON.stringify({ text: '4111 1111 1111 1111' }),
  });
  expect(redact.status).toBe(200);
  const status = await syncAndWait(server, token);
  expect(status.streams.find((s) => s.stream === 'ticketing.comment')!.mode).toBe('incremental');
  const after = await stored();
  expect(after.body).toBe(`My card is ${'\u2587'.repeat(19)}, please check`);
  expect(after.raw).not.toContain('4111');
});
