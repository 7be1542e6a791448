import { and, eq, inArray, like, lt, sql } from 'drizzle-orm';
import { deleteSlice, PURGE_SLICE } from './purge';
import type { Database } from './database';
import { events } from './schema';
import { keysetPage, whereAll, type Page, type PageRequest } from './pagination';

export type EventRow = typeof events.$inferSelect;

export interface NewEvent {
  projectId: string;
  connectionId?: string | null;
  type: string;
  payload: Record<string, unknown>;
}

export interface EventFilter {
  /** One type (`ticketing.ticket.updated`) or every type under a prefix ending with a dot (`ticketing.`). */
  type?: string;
  connectionId?: string;
}

/**
 * The deliveries of the events a statement just wrote (the CTE `newEvents`, with id, project_id and type),
 * one per enabled endpoint of the project that takes the type. Part of the same statement, so an event
 * and its deliveries are written together or not at all (the outbox the webhook worker reads).
 */
export function deliveriesOf(newEvents: string): string {
  return `
    insert into webhook_deliveries (project_id, endpoint_id, event_id)
    select e.project_id, w.id, e.id from ${newEvents} e
    join webhook_endpoints w on w.project_id = e.project_id and w.status = 'enabled' and (w.event_types ? '*' or w.event_types ? e.type)`;
}

/** Writes events and their webhook deliveries in one statement (inside the caller's transaction, if any). */
export async function insertEvents(db: Database, rows: NewEvent[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => ({ project_id: r.projectId, connection_id: r.connectionId ?? null, type: r.type, payload: r.payload })));
  await db.execute(sql`
    with new_events as (
      insert into events (project_id, connection_id, type, payload)
      select project_id, connection_id, type, payload from jsonb_to_recordset(${json}::jsonb) as x(project_id uuid, connection_id uuid, type text, payload jsonb)
      returning id, project_id, type
    )
    ${sql.raw(deliveriesOf('new_events'))}`);
}

const typeCondition = (type: string | undefined) =>
  type === undefined ? undefined : type.endsWith('.') ? like(events.type, `${type.replace(/[%_\\]/g, '\\$&')}%`) : eq(events.type, type);

export class EventsRepo {
  constructor(private readonly db: Database) {}

  insert(rows: NewEvent[]): Promise<void> {
    return insertEvents(this.db, rows);
  }

  /** A project's events in the order they were written (oldest first), by their sequence. */
  list(projectId: string, filter: EventFilter, page: PageRequest): Promise<Page<EventRow>> {
    const conditions = whereAll(eq(events.projectId, projectId), typeCondition(filter.type), filter.connectionId ? eq(events.connectionId, filter.connectionId) : undefined);
    return keysetPage<EventRow>({
      sortColumn: events.seq,
      idColumn: events.id,
      keyOf: (r) => [String(r.seq), r.id],
      parseSortValue: (v) => {
        if (!/^\d{1,18}$/.test(v)) throw new Error('not a sequence');
        return Number(v);
      },
      page,
      fetch: (cursor, order, limit) =>
        this.db
          .select()
          .from(events)
          .where(and(conditions, cursor))
          .orderBy(...order)
          .limit(limit),
    });
  }

  async findByIds(projectId: string, ids: string[]): Promise<EventRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(events)
      .where(and(eq(events.projectId, projectId), inArray(events.id, ids)));
  }

  /** Up to `limit` events older than `cutoff`, with their deliveries and attempts (cascade); says how many went. */
  purgeBefore(cutoff: Date, limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, events, [events.id], lt(events.createdAt, cutoff), limit);
  }
}
