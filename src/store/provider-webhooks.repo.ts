import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { deleteSlice, PURGE_SLICE } from './purge';
import type { Database } from './database';
import { connections, providerWebhookReceipts, providerWebhooks } from './schema';
import { storable } from './storable';

export type ProviderWebhookRow = typeof providerWebhooks.$inferSelect;

/** Provider webhooks of connections and the delivery ids they accepted. */
export class ProviderWebhooksRepo {
  constructor(private readonly db: Database) {}

  async insert(values: typeof providerWebhooks.$inferInsert): Promise<ProviderWebhookRow> {
    const [row] = await this.db.insert(providerWebhooks).values(values).returning();
    return row!;
  }

  async byRoute(routeKey: string): Promise<ProviderWebhookRow | undefined> {
    const [row] = await this.db.select().from(providerWebhooks).where(eq(providerWebhooks.routeKey, routeKey)).limit(1);
    return row;
  }

  /** App-level rows (mode `app`) of a provider app's address. */
  async ofApp(provider: string, appKey: string): Promise<ProviderWebhookRow[]> {
    return this.db
      .select()
      .from(providerWebhooks)
      .where(and(eq(providerWebhooks.provider, provider), eq(providerWebhooks.mode, 'app'), sql`${providerWebhooks.remoteIds}->>'appKey' = ${appKey}`));
  }

  /** Valid connections of these providers that have no provider webhook (ids only). */
  async connectionsWithout(providers: string[]): Promise<string[]> {
    if (providers.length === 0) return [];
    const rows = await this.db
      .select({ id: connections.id })
      .from(connections)
      .leftJoin(providerWebhooks, eq(providerWebhooks.connectionId, connections.id))
      .where(and(inArray(connections.provider, providers), eq(connections.status, 'valid'), isNull(providerWebhooks.id)));
    return rows.map((r) => r.id);
  }

  async ofConnection(connectionId: string): Promise<ProviderWebhookRow | undefined> {
    const [row] = await this.db.select().from(providerWebhooks).where(eq(providerWebhooks.connectionId, connectionId)).limit(1);
    return row;
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(providerWebhooks).where(eq(providerWebhooks.id, id));
  }

  /**
   * Records a delivery id (and, with `touch`, the time of the request); false when the id was accepted before
   * (a replay). One statement, so two copies arriving together cannot both pass.
   */
  async accept(webhookId: string, deliveryId: string, touch = true): Promise<boolean> {
    const inserted = await this.db
      .insert(providerWebhookReceipts)
      // A provider's delivery id holding U+0000 (which PostgreSQL text refuses) is kept in its storable form.
      .values({ webhookId, deliveryId: storable(deliveryId) })
      .onConflictDoNothing()
      .returning({ deliveryId: providerWebhookReceipts.deliveryId });
    if (!inserted.length) return false;
    if (!touch) return true;
    await this.db.update(providerWebhooks).set({ lastReceivedAt: sql`date_trunc('milliseconds', now())` }).where(eq(providerWebhooks.id, webhookId));
    return true;
  }

  /** Delivery ids older than the replay windows: their requests are refused for their timestamp anyway. */
  purgeReceipts(before: Date, limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, providerWebhookReceipts, [providerWebhookReceipts.webhookId, providerWebhookReceipts.deliveryId], lt(providerWebhookReceipts.receivedAt, before), limit);
  }

  /** Registered webhooks the provider drops before `before` (renewed by the caller), and registrations waiting for a handshake. */
  async expiringBefore(before: Date): Promise<ProviderWebhookRow[]> {
    return this.db
      .select()
      .from(providerWebhooks)
      .where(and(inArray(providerWebhooks.mode, ['registered', 'pending']), lt(providerWebhooks.expiresAt, before)));
  }

  async update(id: string, values: Partial<Pick<ProviderWebhookRow, 'remoteIds' | 'secretEncrypted' | 'expiresAt' | 'mode'>>): Promise<void> {
    await this.db.update(providerWebhooks).set({ ...values, updatedAt: sql`date_trunc('milliseconds', now())` }).where(eq(providerWebhooks.id, id));
  }
}
