/**
 * Pipedrive notes are an offset-paginated list (API v1): notes deleted in Pipedrive while a sync pages
 * through them must not make it skip a note that is still there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUp, type PipedriveSetup } from './support';

const NOTES = 60;
const PAGE = 20;
let s: PipedriveSetup;
const deleted: number[] = [];

beforeAll(async () => {
  s = await setUp({
    contactSync: false,
    adapter: { v1PageSize: PAGE },
    seed: (sim) => {
      sim.seedPersons(3);
      const notes = sim.seedNotes(NOTES, { linkTo: 'persons' }).sort((a, b) => a.id - b.id);
      const remove = (n: { id: number }) => {
        sim.deleteEntity('notes', n.id);
        deleted.push(n.id);
      };
      // The simulator's address is a company domain: API v1 under /api/v1. Before the second page: one note of the first page goes (every later note moves back by one).
      sim.faults.add({ method: 'GET', path: '/api/v1/notes', when: (req) => req.query.get('start') !== '0', before: () => remove(notes[3]!) });
      // Before the third page: more notes of pages already read than the walk reads back.
      sim.faults.add({
        method: 'GET',
        path: '/api/v1/notes',
        when: (req) => Number(req.query.get('start')) > PAGE,
        before: () => notes.slice(5, 5 + PAGE / 2).forEach(remove),
      });
    },
  });
}, 180_000);
afterAll(async () => {
  await s?.close();
});

describe('pipedrive notes deleted during a sync', () => {
  it('every note still in Pipedrive is read by the run, however many were deleted from pages already read', async () => {
    expect(deleted).toHaveLength(1 + PAGE / 2);
    const live = s.sim.entities('notes').map((n) => String(n.id));
    expect(live).toHaveLength(NOTES - deleted.length);
    const rows = await s.server.sql("select remote_id from unified_objects where connection_id = $1 and object_type = 'crm.note'", [s.connectionId]);
    const stored = new Set(rows.map((r) => String(r.remote_id)));
    expect(live.filter((id) => !stored.has(id))).toEqual([]);
    // The walk reads a little back (and further back once), not the whole list again.
    const pages = s.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/notes');
    expect(pages.length).toBeLessThanOrEqual(6);
  });
});
