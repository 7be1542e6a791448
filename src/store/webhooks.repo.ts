import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from './database';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from './schema';
import { dateKey, keysetPage, pageByCreation, parseDateKey, type Page, type PageRequest } from './pagination';
import { insertEvents, type EventRow, type NewEvent } from './events.repo';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** A delivery taken by a worker, with what it needs to send it. */
export interface DueDelivery {
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
  event: EventRow;
}

export interface AttemptRecord {
  statusCode: number | null;
  durationMs: number;
  responseSnippet: string | null;
  error: string | null;
}

/** What an attempt means for its delivery and endpoint. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: Date }
  | { kind: 'failed' }
  /** The endpoint is disabled (410, or failing too long): this and its other pending deliveries stop. */
  | { kind: 'disable'; reason: string; event: NewEvent };

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

export class WebhooksRepo {
  constructor(private readonly db: Database) {}

  async insertEndpoint(values: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
    const [row] = await this.db.insert(webhookEndpoints).values(values).returning();
    return row!;
  }

  listEndpoints(projectId: string, page: PageRequest): Promise<Page<WebhookEndpointRow>> {
    return pageByCreation<WebhookEndpointRow>(this.db, webhookEndpoints, page, eq(webhookEndpoints.projectId, projectId));
  }

  async findEndpoint(projectId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)));
    return row;
  }

  async updateEndpoint(projectId: string, id: string, values: Partial<typeof webhookEndpoints.$inferInsert>): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ ...values, updatedAt: sql`date_trunc('milliseconds', now())` })
      .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
      .returning();
    return row;
  }

  async deleteEndpoint(projectId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.id, id)))
      .returning({ id: webhookEndpoints.id });
    return rows.length === 1;
  }

  /** An endpoint's deliveries, newest first, each with its attempts (two queries per page). */
  async listDeliveries(endpointId: string, page: PageRequest): Promise<Page<{ delivery: WebhookDeliveryRow; eventType: string; attempts: WebhookAttemptRow[] }>> {
    const deliveries = await keysetPage<WebhookDeliveryRow & { eventType: string }>({
      sortColumn: webhookDeliveries.createdAt,
      idColumn: webhookDeliveries.id,
      keyOf: (r) => [dateKey(r.createdAt), r.id],
      parseSortValue: parseDateKey,
      newestFirst: true,
      page,
      fetch: async (cursor, order, limit) => {
        const rows = await this.db
          .select({ delivery: webhookDeliveries, eventType: events.type })
          .from(webhookDeliveries)
          .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
          .where(and(eq(webhookDeliveries.endpointId, endpointId), cursor))
          .orderBy(...order)
          .limit(limit);
        return rows.map((r) => ({ ...r.delivery, eventType: r.eventType }));
      },
    });
    const ids = deliveries.items.map((d) => d.id);
    const attempts = ids.length
      ? await this.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(webhookAttempts.attemptedAt)
      : [];
    return {
      ...deliveries,
      items: deliveries.items.map(({ eventType, ...delivery }) => ({ delivery, eventType, attempts: attempts.filter((a) => a.deliveryId === delivery.id) })),
    };
  }

  async findDelivery(projectId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, id)));
    return row;
  }

  /** Queues a delivery again now (same webhook-id). */
  async requeueDelivery(id: string): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: sql`date_trunc('milliseconds', now())`, lockedUntil: null })
      .where(eq(webhookDeliveries.id, id))
      .returning();
    return row;
  }

  /**
   * Takes up to `limit` due deliveries for `leaseMs` (skipping those another worker holds): a worker that
   * dies leaves them to be taken again when the lease ends, so a delivery is sent at least once.
   */
  async claimDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const claimed = rowsOf(
      await this.db.execute(sql`
        update webhook_deliveries set locked_until = now() + make_interval(secs => ${leaseMs / 1000})
        where id in (
          select d.id from webhook_deliveries d
          join webhook_endpoints w on w.id = d.endpoint_id and w.status = 'enabled'
          where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
          order by d.next_attempt_at limit ${limit}
          for update of d skip locked)
        returning id`),
    ).map((r) => r.id as string);
    if (claimed.length === 0) return [];
    const rows = await this.db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(inArray(webhookDeliveries.id, claimed))
      .orderBy(events.seq);
    return rows;
  }

  /** Frees every lease (the embedded database has one process: after a restart, no lease is held). */
  async releaseLeases(): Promise<void> {
    await this.db.update(webhookDeliveries).set({ lockedUntil: null }).where(eq(webhookDeliveries.status, 'pending'));
  }

  /** Records an attempt and what follows from it, in one transaction. */
  async recordAttempt(due: DueDelivery, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ due, attempt, outcome }]);
  }

  /**
   * Records a batch of attempts in one transaction: the delivered ones (nearly all of a backlog) in a few
   * statements for the whole batch, the others one by one. A statement per attempt, for a backlog sent 16 at a
   * time, left reads queueing behind the sender's writes (issue 32).
   */
  async recordAttempts(results: { due: DueDelivery; attempt: AttemptRecord; outcome: AttemptOutcome }[]): Promise<void> {
    if (results.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values(results.map(({ due, attempt }) => ({ deliveryId: due.delivery.id, ...attempt })));
      const now = sql`date_trunc('milliseconds', now())`;
      const delivered = results.filter((r) => r.outcome.kind === 'delivered');
      const byStatus = new Map<number | null, string[]>();
      for (const r of delivered) byStatus.set(r.attempt.statusCode, [...(byStatus.get(r.attempt.statusCode) ?? []), r.due.delivery.id]);
      for (const [statusCode, ids] of byStatus) {
        await tx
          .update(webhookDeliveries)
          .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lockedUntil: null, lastStatusCode: statusCode, status: 'delivered', deliveredAt: now })
          .where(inArray(webhookDeliveries.id, ids));
      }
      if (delivered.length > 0) {
        // Only when it was failing: concurrent deliveries to one endpoint must not queue on its row lock.
        const endpointIds = [...new Set(delivered.map((r) => r.due.endpoint.id))];
        await tx.update(webhookEndpoints).set({ failingSince: null }).where(and(inArray(webhookEndpoints.id, endpointIds), isNotNull(webhookEndpoints.failingSince)));
      }
      for (const { due, attempt, outcome } of results) {
        if (outcome.kind !== 'delivered') await recordFailure(tx as unknown as Database, due, attempt, outcome);
      }
    });
  }
}

/** What follows from an attempt that did not deliver: a retry, a failure, or the endpoint disabled. */
async function recordFailure(tx: Database, due: DueDelivery, attempt: AttemptRecord, outcome: Exclude<AttemptOutcome, { kind: 'delivered' }>): Promise<void> {
  const { delivery, endpoint } = due;
  const common = { attempts: sql`${webhookDeliveries.attempts} + 1`, lockedUntil: null, lastStatusCode: attempt.statusCode };
  const now = sql`date_trunc('milliseconds', now())`;
  const update = outcome.kind === 'retry' ? { ...common, nextAttemptAt: outcome.at } : { ...common, status: outcome.kind === 'failed' ? 'failed' : 'cancelled' };
  await tx.update(webhookDeliveries).set(update).where(eq(webhookDeliveries.id, delivery.id));
  await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
  if (outcome.kind === 'disable') {
    // Deliveries in flight together may each meet the 410: the endpoint is disabled, and announced, once.
    const disabled = await tx
      .update(webhookEndpoints)
      .set({ status: 'disabled', disabledReason: outcome.reason, updatedAt: now })
      .where(and(eq(webhookEndpoints.id, endpoint.id), ne(webhookEndpoints.status, 'disabled')))
      .returning({ id: webhookEndpoints.id });
    await tx
      .update(webhookDeliveries)
      .set({ status: 'cancelled', lockedUntil: null })
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, 'pending')));
    if (disabled.length > 0) await insertEvents(tx, [outcome.event]);
  }
}
