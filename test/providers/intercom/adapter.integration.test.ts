/**
 * The Intercom adapter driven directly against the Intercom simulator (no server, no database): state
 * and type mapping, replies by admins and contacts, refusals before any call, cursor sync to the last
 * page with resume, and the deletion check. Requests and answers are checked against Intercom's own
 * description where it is present.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { createIntercomAdapter, intercomErrorMessage } from '../../../src/providers/intercom';
import { startIntercomSimulator, type IntercomSimulator } from '../../simulators/intercom';
import { closeCheckingTraffic, collect, simulatorContext, syncerOf } from '../../support/adapter-context';

const ids = idFactory('conn-1');
let sim: IntercomSimulator | undefined;
let n = 0;

afterEach(async () => {
  if (!sim) return;
  const closing = sim;
  sim = undefined;
  await closeCheckingTraffic(closing, "Intercom's description");
});

async function setup() {
  sim = await startIntercomSimulator({ rateLimit: { per10s: 100_000 } });
  const adapter = createIntercomAdapter({ pageSize: 2 });
  const credentials = { access_token: sim.tokens[0]! };
  const connectionId = `conn-intercom-${++n}`;
  const ctx = simulatorContext(adapter, { connectionId, baseUrl: sim.url, credentials });
  return { sim, adapter, ctx, seed: sim.seed! };
}
const syncer = syncerOf;

describe('intercom adapter', () => {
  it('creates a ticket of a named type in the asked state, for the admin\'s email without a contact, and reads the seeded ticket\'s parts', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const { record } = await adapter.ticketing!.createTicket(ctx, { name: 'Outage', description: ['Down.', 'Since noon.'], type: 'Incident', status: 'IN_PROGRESS' });
    expect(record.data).toMatchObject({ name: 'Outage', type: 'Incident', status: 'IN_PROGRESS', description: ['Down.\n\nSince noon.'] });
    expect(sim.tickets.get(record.remoteId)!.contactIds).toHaveLength(1);
    const comments = (await collect(syncer(adapter, 'ticketing.comment'), ctx)).flatMap((b) => b.records);
    const seeded = comments.filter((r) => r.objectType === 'ticketing.comment' && r.parent?.remoteId === seed.ticket);
    expect(seeded.map((c) => [c.data.creator_type, c.data.is_private])).toEqual([['CONTACT', false], ['USER', false], ['USER', true]]);
    expect(comments.filter((r) => r.objectType === 'ticketing.attachment').map((a) => a.data.file_name)).toEqual(['label.txt']);
  });

  it('writes a contact\'s reply and an admin note; refuses what a 2.14 ticket cannot hold before any call', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const reply = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.ticket, body: 'thanks', contact_id: seed.casey, files: [] });
    expect(reply.record.data).toMatchObject({ creator_type: 'CONTACT', contact_id: ids('ticketing.contact', seed.casey) });
    const note = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.ticket, body: 'internal', is_private: true, user_id: seed.robin, files: [] });
    expect(note.record.data).toMatchObject({ is_private: true, user_id: ids('ticketing.user', seed.robin) });
    const before = sim.requests.length;
    for (const field of ['priority', 'tags', 'due_date', 'account_id'] as const) {
      const value = field === 'tags' ? ['x'] : field === 'due_date' ? '2030-01-01T00:00:00Z' : field === 'priority' ? 'HIGH' : seed.northwind;
      const err = await adapter.ticketing!.createTicket(ctx, { name: 'x', [field]: value }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).details.field).toBe(field);
    }
    const files = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.ticket, body: 'x', files: [{ fileName: 'a', contentType: 'text/plain', content: Buffer.from('a') }] }).catch((e: unknown) => e);
    expect((files as AppError).details.field).toBe('attachments');
    expect(sim.requests.length).toBe(before);
  });

  it('searches tickets to the last page, resumes, sees only changes since, and lists ids for the deletion check', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const made = sim.seedTickets(5);
    const full = await collect(syncer(adapter, 'ticketing.ticket'), ctx);
    expect(new Set(full.flatMap((b) => b.records.map((r) => r.remoteId))).size).toBe(6);
    expect(full.at(-1)!.resume).toBeNull();
    const resumed = await collect(syncer(adapter, 'ticketing.ticket'), ctx, { resume: full[0]!.resume! });
    expect(resumed.flatMap((b) => b.records)).toHaveLength(4);
    // Intercom keeps seconds: the change is made in a later second than \`since\`, every other ticket in an earlier one or the same.
    const since = new Date();
    await new Promise((r) => setTimeout(r, 1_100));
    sim.updateTicketRemotely(made[2]!, { _default_title_: 'changed' });
    const inc = (await collect(syncer(adapter, 'ticketing.ticket'), ctx, { since })).flatMap((b) => b.records);
    expect(inc.map((r) => r.data.name)).toEqual(['changed']);
    sim.deleteTicketRemotely(made[0]!);
    const listed: string[] = [];
    for await (const b of syncer(adapter, 'ticketing.ticket').deletionCheck!.listIds(ctx, {})) listed.push(...b.remoteIds);
    expect(listed).not.toContain(made[0]);
    expect(listed).toContain(seed.ticket);
    expect(intercomErrorMessage({ type: 'error.list', errors: [{ code: 'parameter_invalid', message: 'bad', field: 'x' }] })).toBe('x: bad');
  });
});
