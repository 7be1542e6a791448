/**
 * Dynamics syncers, in dependency order: users (systemuser), stages (the opportunity's sales stage option
 * set), companies (account), contacts, deals (opportunity), tasks, notes (annotation), engagements
 * (phonecall, then appointment). One batch per page (`Prefer: odata.maxpagesize`), each with the next link
 * to resume after it.
 *
 * Every stream but users and stages reads with change tracking (`Prefer: odata.track-changes`): the last
 * page of a read carries an `@odata.deltaLink`, saved as the stream's cursor (one per table, with the
 * columns it selects). An incremental run follows the saved delta link: it answers the rows created or
 * changed since, and the deleted ones as `$deletedEntity` entries (`{id, reason: "deleted"}`), reported
 * deleted by id. A run without a usable link (first run, columns changed, link refused as expired) reads
 * the whole table; complete full runs also mark what they no longer see as deleted.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { API, pages, type Metadata, type Page, type ResolvedOptions, type Row } from './api';
import { TABLES, idOf, unifyAccount, unifyContact, unifyEngagement, unifyNote, unifyOpportunity, unifyStage, unifyTask, unifyUser, type TableName } from './mappers';

/** Tables whose custom columns are read (for field mapping). */
export const CUSTOM_TABLES = new Set<TableName>(['contact', 'account', 'opportunity']);

interface Cursor {
  /** Per table: the delta link and the `$select` it was made with. */
  links: Record<string, { link: string; select: string }>;
}
interface Position {
  phase: number;
  next: string | null;
}
function parse<T>(s: string | undefined): T | undefined {
  if (!s) return undefined;
  try {
    return JSON.parse(s) as T;
  } catch {
    return undefined;
  }
}

/** A `$deletedEntity` entry of a delta answer. */
const isRemoved = (r: Row) => (typeof r['@odata.context'] === 'string' && r['@odata.context'].includes('$deletedEntity')) || (r.reason === 'deleted' && typeof r.id === 'string');

/** Pages of a delta link, or of the whole table when the link is refused (expired or unknown token) before any page. */
async function* readTable(ctx: AdapterContext, o: ResolvedOptions, first: Parameters<typeof pages>[2], whole: () => Parameters<typeof pages>[2]): AsyncGenerator<Page> {
  const it = pages(ctx, o, first, true);
  let head: IteratorResult<Page>;
  try {
    head = await it.next();
  } catch (err) {
    const refused = typeof first === 'string' && err instanceof ProviderError && [400, 404, 410, 422].includes(err.providerStatus ?? 0);
    if (!refused) throw err;
    yield* pages(ctx, o, whole(), true);
    return;
  }
  if (head.done) return;
  yield head.value;
  yield* it;
}

interface TrackedSpec {
  key: string;
  objectType: string;
  tables: TableName[];
  unify(ctx: AdapterContext, table: TableName, rows: Row[]): Promise<UnifiedRecord[]> | UnifiedRecord[];
}

function trackedSyncer(o: ResolvedOptions, metadata: Metadata, spec: TrackedSpec): ObjectSyncer {
  async function* run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
    const saved = parse<Cursor>(opts.cursor)?.links ?? {};
    const links = { ...saved };
    const start = parse<Position>(opts.resume) ?? { phase: 0, next: null };
    for (let phase = Math.max(0, start.phase); phase < spec.tables.length; phase++) {
      const table = TABLES[spec.tables[phase]!];
      const select = (await metadata.select(ctx, table.name, table.select, CUSTOM_TABLES.has(table.name))).join(',');
      const whole = () => ({ path: `${API}/${table.set}`, query: { $select: select } });
      const resumed = phase === start.phase ? start.next : null;
      const delta = opts.since && saved[table.name]?.select === select ? saved[table.name]!.link : null;
      for await (const page of readTable(ctx, o, resumed ?? delta ?? whole(), whole)) {
        const gone = page.rows.filter(isRemoved);
        const rows = page.rows.filter((r) => !isRemoved(r) && typeof r[table.key] === 'string');
        if (page.deltaLink) links[table.name] = { link: page.deltaLink, select };
        const after: Position | null = page.next ? { phase, next: page.next } : phase + 1 < spec.tables.length ? { phase: phase + 1, next: null } : null;
        yield {
          records: await spec.unify(ctx, spec.tables[phase]!, rows),
          deleted: gone.map((r) => ({ objectType: spec.objectType, remoteId: String(r.id).toLowerCase() })),
          resume: after ? JSON.stringify(after) : null,
          ...(page.deltaLink ? { cursor: JSON.stringify({ links } satisfies Cursor) } : {}),
        };
      }
    }
  }
  return {
    key: spec.key,
    objectTypes: [spec.objectType],
    incremental: true,
    // Delta links report deletions, but a run without one (a first or a restarted read) does not: complete
    // full runs still mark what they did not see.
    reportsDeletions: false,
    run,
  };
}

export function dynamicsSyncers(o: ResolvedOptions, metadata: Metadata): ObjectSyncer[] {
  const tracked = (key: string, tables: TableName[], unify: TrackedSpec['unify']) => trackedSyncer(o, metadata, { key, objectType: key, tables, unify });
  return [
    {
      key: 'crm.user',
      objectTypes: ['crm.user'],
      incremental: false,
      reportsDeletions: false,
      async *run(ctx, opts) {
        const t = TABLES.systemuser;
        const first = parse<Position>(opts.resume)?.next ?? { path: `${API}/${t.set}`, query: { $select: t.select.join(',') } };
        for await (const page of pages(ctx, o, first)) {
          yield { records: page.rows.filter((r) => typeof r[t.key] === 'string').map(unifyUser), resume: page.next ? JSON.stringify({ phase: 0, next: page.next }) : null };
        }
      },
    },
    {
      key: 'crm.stage',
      objectTypes: ['crm.stage'],
      incremental: false,
      reportsDeletions: false,
      async *run(ctx) {
        const options = await metadata.options(ctx, 'opportunity', 'salesstage');
        yield { records: options.map((x, i) => unifyStage(x, i)), resume: null };
      },
    },
    tracked('crm.company', ['account'], (ctx, _t, rows) => rows.map((r) => unifyAccount(r, ctx.ids))),
    tracked('crm.contact', ['contact'], (ctx, _t, rows) => rows.map((r) => unifyContact(r, ctx.ids))),
    tracked('crm.deal', ['opportunity'], async (ctx, _t, rows) => {
      const currencies = rows.length ? await metadata.currencies(ctx) : new Map<string, string>();
      return rows.map((r) => unifyOpportunity(r, ctx.ids, currencies));
    }),
    tracked('crm.task', ['task'], (ctx, _t, rows) => rows.map((r) => unifyTask(r, ctx.ids))),
    tracked('crm.note', ['annotation'], (ctx, _t, rows) => rows.map((r) => unifyNote(r, ctx.ids))),
    tracked('crm.engagement', ['phonecall', 'appointment'], (ctx, t, rows) => rows.map((r) => unifyEngagement(r, ctx.ids, t as 'phonecall' | 'appointment'))),
  ];
}

export { idOf };
