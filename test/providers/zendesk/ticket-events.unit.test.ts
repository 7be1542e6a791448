/**
 * The comment stream over the Incremental Ticket Event Export, against scripted Zendesk answers:
 * time-based paging (end_time → start_time, boundary seconds given twice), comment child events
 * mapped with the comment mapper, roles looked up per page for new authors only, deleted tickets left out.
 */
import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import type { ProviderHttpClient } from '../../../src/providers/http-client';
import type { AdapterContext, SyncBatch } from '../../../src/providers/types';
import { createZendeskAdapter } from '../../../src/providers/zendesk';
import { ticketEventPages } from '../../../src/providers/zendesk/api';

type Query = Record<string, string | number | boolean | undefined>;
type Answer = (query: Query) => unknown;

const ids = idFactory('c');

/** A context whose HTTP client answers each path from `routes` (in call order when a list) and records the calls. */
function fakeContext(routes: Record<string, Answer | Answer[]>) {
  const calls: Array<{ path: string; query: Query }> = [];
  const used = new Map<string, number>();
  const http = {
    async get(path: string, opts: { query?: Query } = {}) {
      const query = opts.query ?? {};
      calls.push({ path, query });
      const route = routes[path];
      if (!route) throw new Error(`unexpected call ${path}`);
      const n = used.get(path) ?? 0;
      used.set(path, n + 1);
      const answer = Array.isArray(route) ? route[Math.min(n, route.length - 1)]! : route;
      return { status: 200, data: answer(query), headers: {} };
    },
  };
  const ctx: AdapterContext = { connectionId: 'c', baseUrl: 'https://acme.zendesk.com', credentials: {}, http: http as unknown as ProviderHttpClient, ids };
  return { ctx, calls };
}

const comment = (id: number, authorId: number, body: string, extra: Record<string, unknown> = {}) => ({
  id,
  via: { channel: 'web', source: { from: {}, to: {}, rel: null } },
  via_reference_id: null,
  type: 'Comment',
  author_id: authorId,
  body,
  html_body: `<p>${body}</p>`,
  public: true,
  attachments: [],
  audit_id: id - 1,
  created_at: '2024-05-01T10:00:00Z',
  event_type: 'Comment',
  ...extra,
});

const event = (id: number, ticketId: number, timestamp: number, children: unknown[]) => ({
  id,
  ticket_id: ticketId,
  timestamp,
  created_at: new Date(timestamp * 1000).toISOString().replace('.000Z', 'Z'),
  updater_id: 1,
  via: 'Web form',
  event_type: 'Audit',
  child_events: children,
});

const page = (events: unknown[], endTime: number, endOfStream: boolean) => () => ({
  ticket_events: events,
  next_page: `https://acme.zendesk.com/api/v2/incremental/ticket_events.json?start_time=${endTime}`,
  count: events.length,
  end_of_stream: endOfStream,
  end_time: endTime,
});

const noDeleted = () => ({ deleted_tickets: [], meta: { has_more: false, after_cursor: null } });
const users = (query: Query) => ({
  users: String(query.ids)
    .split(',')
    .map(Number)
    .filter((id) => id !== 404)
    .map((id) => ({ id, role: id >= 100 ? 'end-user' : 'agent' })),
});

async function collect(run: AsyncIterable<SyncBatch>) {
  const out: SyncBatch[] = [];
  for await (const b of run) out.push(b);
  return out;
}

describe('ticketEventPages', () => {
  it('follows end_time to end_of_stream, leaving out the boundary second given again', async () => {
    const a = event(10, 1, 1000, []);
    const b = event(11, 2, 1005, []);
    const c = event(12, 3, 1005, []);
    const d = event(13, 4, 1009, []);
    const { ctx, calls } = fakeContext({
      '/api/v2/incremental/ticket_events': [page([a, b, c], 1005, false), page([b, c, d], 1009, true)],
    });
    const pages = [];
    for await (const p of ticketEventPages(ctx, { startTime: 0 })) pages.push(p);
    expect(calls.map((x) => x.query)).toEqual([
      { start_time: 0, include: 'comment_events' },
      { start_time: 1005, include: 'comment_events' },
    ]);
    expect(pages.map((p) => p.events.map((e) => e.id))).toEqual([[10, 11, 12], [13]]);
    expect(pages.map((p) => [p.next, p.last])).toEqual([
      [1005, false],
      [1009, true],
    ]);
  });

  it('moves on when a page that is not the last ends where it started', async () => {
    const { ctx, calls } = fakeContext({
      '/api/v2/incremental/ticket_events': [page([event(1, 1, 50, [])], 50, false), page([], 51, true)],
    });
    const pages = [];
    for await (const p of ticketEventPages(ctx, { startTime: 50 })) pages.push(p);
    expect(calls.map((x) => x.query.start_time)).toEqual([50, 51]);
    expect(pages.at(-1)).toMatchObject({ events: [], next: 51, last: true });
  });
});

describe('zendesk comment stream (ticket event export)', () => {
  const adapter = createZendeskAdapter();
  const comments = adapter.syncers.find((s) => s.key === 'ticketing.comment')!;

  it('maps comment child events with their attachments, page by page, roles looked up once per author', async () => {
    const withFile = comment(21, 100, 'See the log', {
      attachments: [{ id: 900, file_name: 'crash.log', content_url: 'https://acme.zendesk.com/attachments/token/x/?name=crash.log', size: 3 }],
    });
    const { ctx, calls } = fakeContext({
      '/api/v2/deleted_tickets': noDeleted,
      '/api/v2/users/show_many': users,
      '/api/v2/incremental/ticket_events': [
        page(
          [
            event(20, 7, 1000, [withFile, { id: 22, via: 'Web form', via_reference_id: null, status: 'open', event_type: 'Create' }]),
            event(30, 7, 1001, [{ id: 31, via: 'Web form', via_reference_id: null, priority: 'high', previous_value: 'low', event_type: 'Change' }]),
          ],
          1001,
          false,
        ),
        page([event(40, 8, 1002, [comment(41, 5, 'Agent reply', { public: false }), comment(42, 100, 'Thanks')])], 1002, true),
      ],
    });
    const batches = await collect(comments.run(ctx, {}));
    expect(batches.map((b) => b.resume)).toEqual(['1001', '1002']);
    const [first, second] = batches;
    expect(first!.records.map((r) => [r.objectType, r.remoteId])).toEqual([
      ['ticketing.comment', '21'],
      ['ticketing.attachment', '900'],
    ]);
    expect(first!.records[0]).toMatchObject({
      parent: { objectType: 'ticketing.ticket', remoteId: '7' },
      data: { body: 'See the log', creator_type: 'CONTACT', contact_id: ids('ticketing.contact', 100), attachments: [ids('ticketing.attachment', 900)] },
    });
    expect(first!.records[1]!.data).toMatchObject({ file_name: 'crash.log', comment_id: ids('ticketing.comment', 21), ticket_id: ids('ticketing.ticket', 7) });
    expect(second!.records.map((r) => [r.remoteId, r.data.creator_type, r.data.is_private])).toEqual([
      ['41', 'USER', true],
      ['42', 'CONTACT', false],
    ]);
    // Author 100 was looked up on the first page only.
    expect(calls.filter((c) => c.path === '/api/v2/users/show_many').map((c) => c.query.ids)).toEqual(['100', '5']);
  });

  it('leaves out deleted tickets, flag-only comments, and authors it cannot find', async () => {
    const { ctx } = fakeContext({
      '/api/v2/deleted_tickets': () => ({ deleted_tickets: [{ id: 9, subject: 'gone' }], meta: { has_more: false, after_cursor: null } }),
      '/api/v2/users/show_many': users,
      '/api/v2/incremental/ticket_events': page(
        [
          event(1, 9, 1000, [comment(2, 100, 'of a deleted ticket')]),
          event(3, 10, 1000, [{ id: 4, via: 'Web form', via_reference_id: null, comment_present: true, comment_public: true, event_type: 'Comment' }]),
          event(5, 11, 1000, [comment(6, 404, 'by a deleted user')]),
        ],
        1000,
        true,
      ),
    });
    const records = (await collect(comments.run(ctx, {}))).flatMap((b) => b.records);
    expect(records.map((r) => r.remoteId)).toEqual(['6']);
    expect(records[0]!.data).toMatchObject({ creator_type: null, user_id: null, contact_id: null });
  });

  it('starts from since (kept a minute in the past) or from the saved start_time', async () => {
    const answers = { '/api/v2/deleted_tickets': noDeleted, '/api/v2/users/show_many': users, '/api/v2/incremental/ticket_events': page([], 0, true) };
    const since = new Date(Date.now() - 3600_000);
    const incremental = fakeContext(answers);
    await collect(comments.run(incremental.ctx, { since }));
    expect(incremental.calls.find((c) => c.path === '/api/v2/incremental/ticket_events')!.query.start_time).toBe(Math.floor(since.getTime() / 1000));
    const recent = fakeContext(answers);
    await collect(comments.run(recent.ctx, { since: new Date() }));
    expect(Number(recent.calls.find((c) => c.path === '/api/v2/incremental/ticket_events')!.query.start_time)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) - 65);
    const resumed = fakeContext(answers);
    await collect(comments.run(resumed.ctx, { since, resume: '1700000000' }));
    expect(resumed.calls.find((c) => c.path === '/api/v2/incremental/ticket_events')!.query.start_time).toBe(1700000000);
  });
});
