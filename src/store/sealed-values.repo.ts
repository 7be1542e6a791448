import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './database';

/**
 * Every value stored encrypted with the SecretBox, as one column (or one field of a JSON column) each:
 * key rotation walks them all. A new encrypted column must be added here.
 */
export interface SealedColumn {
  /** How reports name it. */
  name: string;
  table: string;
  /** The stored value (text). */
  value: SQL;
  /** The assignment that replaces it with `sealed`. */
  assign(sealed: string): SQL;
  /** The value is stored in clear (an older version's) and must be encrypted, not re-encrypted. */
  clear?: boolean;
  /** Read when the process starts, to refuse keys that cannot read the database (small tables only). */
  checkedAtStart?: boolean;
}

const column = (table: string, name: string): SealedColumn => ({
  name: `${table}.${name}`,
  table,
  value: sql.raw(name),
  assign: (sealed) => sql`${sql.raw(name)} = ${sealed}`,
  checkedAtStart: table !== 'oauth_flows',
});

export const SEALED_COLUMNS: SealedColumn[] = [
  column('connections', 'token_encrypted'),
  column('connections', 'credentials_encrypted'),
  column('oauth_apps', 'client_secret_encrypted'),
  column('oauth_flows', 'code_verifier_encrypted'),
  column('oauth_flows', 'pending_encrypted'),
  column('webhook_endpoints', 'secret_encrypted'),
  {
    name: 'events.payload.connection_token_encrypted',
    table: 'events',
    value: sql`payload->>'connection_token_encrypted'`,
    assign: (sealed) => sql`payload = jsonb_set(payload, '{connection_token_encrypted}', to_jsonb(${sealed}::text))`,
  },
  {
    // Events written before tokens were encrypted in them.
    name: 'events.payload.connection_token',
    table: 'events',
    value: sql`payload->>'connection_token'`,
    assign: (sealed) => sql`payload = (payload - 'connection_token') || jsonb_build_object('connection_token_encrypted', ${sealed}::text)`,
    clear: true,
  },
  {
    // Replayed answers of writes with an Idempotency-Key (they can hold tokens and API keys).
    name: 'idempotency_keys.response_body',
    table: 'idempotency_keys',
    value: sql`(case when response_body ~ '^v[12][.]' then response_body end)`,
    assign: (sealed) => sql`response_body = ${sealed}`,
  },
  {
    // Answers stored in clear by versions before they were encrypted.
    name: 'idempotency_keys.response_body (clear)',
    table: 'idempotency_keys',
    value: sql`(case when response_body !~ '^v[12][.]' then response_body end)`,
    assign: (sealed) => sql`response_body = ${sealed}`,
    clear: true,
  },
];

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** Reads and compare-and-set writes of the encrypted values, in keyset batches (no long transaction, no lock held). */
export class SealedValuesRepo {
  constructor(private readonly db: Database) {}

  /** The next values, by id, that are not under the key `currentKeyId` (clear values: all of them). */
  async batch(col: SealedColumn, currentKeyId: string, afterId: string | undefined, limit: number): Promise<{ id: string; value: string }[]> {
    const notCurrent = col.clear ? sql`true` : sql`${col.value} not like ${`v2.${currentKeyId}.%`}`;
    const result = await this.db.execute(sql`
      select id::text as id, ${col.value} as value from ${sql.raw(col.table)}
      where ${col.value} is not null and ${notCurrent} and id > ${afterId ?? FIRST_ID}::uuid
      order by id limit ${limit}`);
    return rowsOf(result).map((r) => ({ id: r.id as string, value: r.value as string }));
  }

  /** Replaces the value only if it is still `expected` (a concurrent writer wins); true if it was replaced. */
  async compareAndSet(col: SealedColumn, id: string, expected: string, sealed: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      update ${sql.raw(col.table)} set ${col.assign(sealed)}
      where id = ${id}::uuid and ${col.value} = ${expected} returning id`);
    return rowsOf(result).length === 1;
  }

  /** How many values are not under `currentKeyId`. */
  async countNotCurrent(col: SealedColumn, currentKeyId: string): Promise<number> {
    const notCurrent = col.clear ? sql`true` : sql`${col.value} not like ${`v2.${currentKeyId}.%`}`;
    const result = await this.db.execute(sql`select count(*)::int as n from ${sql.raw(col.table)} where ${col.value} is not null and ${notCurrent}`);
    return Number(rowsOf(result)[0]!.n);
  }

  /** The key ids in use in a column (`v1` for values written before key ids), with one value of each. */
  async keyIdsInUse(col: SealedColumn): Promise<{ keyId: string; sample: string }[]> {
    const result = await this.db.execute(sql`
      select case when ${col.value} like 'v2.%' then split_part(${col.value}, '.', 2) else 'v1' end as key_id, min(${col.value}) as sample
      from ${sql.raw(col.table)} where ${col.value} is not null group by 1`);
    return rowsOf(result).map((r) => ({ keyId: r.key_id as string, sample: r.sample as string }));
  }
}
