import { ConfigError } from '../config';
import type { Database } from '../store/database';
import { SEALED_COLUMNS, SealedValuesRepo, type SealedColumn } from '../store/sealed-values.repo';
import type { SecretBox } from './secrets';

export interface ColumnReport {
  column: string;
  /** Re-encrypted under the newest key (or, for values found in clear, encrypted). */
  rotated: number;
  /** Changed by another writer between read and write: left as that writer stored it, read again. */
  changedMeanwhile: number;
  /** Not readable with any configured key. */
  failed: number;
  /** Still not under the newest key at the end (failed ones included). */
  remaining: number;
}

export interface RotationReport {
  keyId: string;
  columns: ColumnReport[];
  rotated: number;
  failed: number;
  remaining: number;
}

export interface RotationOptions {
  batchSize?: number;
  /** Called after each batch is read and before it is written (progress; tests race a writer here). */
  onBatch?: (column: string, ids: string[]) => Promise<void> | void;
}

/** Passes over a column: a value changed meanwhile by a writer with the old key list is picked up again. */
const MAX_PASSES = 5;

/**
 * Re-encrypts every stored secret under the newest key of `box`, without stopping the service: keyset
 * batches, each value written only if it is still the one read (a concurrent token refresh wins), values
 * already under the newest key skipped, so it can be stopped and run again at any time.
 */
export async function rotateKeys(db: Database, box: SecretBox, opts: RotationOptions = {}): Promise<RotationReport> {
  const repo = new SealedValuesRepo(db);
  const batchSize = opts.batchSize ?? 500;
  const columns: ColumnReport[] = [];
  for (const col of SEALED_COLUMNS) {
    const report: ColumnReport = { column: col.name, rotated: 0, changedMeanwhile: 0, failed: 0, remaining: 0 };
    const unreadable = new Set<string>();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const changedBefore = report.changedMeanwhile;
      await rotateColumn(repo, box, col, batchSize, report, unreadable, opts.onBatch);
      if (report.changedMeanwhile === changedBefore) break;
    }
    report.failed = unreadable.size;
    report.remaining = await repo.countNotCurrent(col, box.currentKeyId);
    columns.push(report);
  }
  const sum = (f: (c: ColumnReport) => number) => columns.reduce((n, c) => n + f(c), 0);
  return { keyId: box.currentKeyId, columns, rotated: sum((c) => c.rotated), failed: sum((c) => c.failed), remaining: sum((c) => c.remaining) };
}

async function rotateColumn(
  repo: SealedValuesRepo,
  box: SecretBox,
  col: SealedColumn,
  batchSize: number,
  report: ColumnReport,
  unreadable: Set<string>,
  onBatch: RotationOptions['onBatch'],
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const rows = await repo.batch(col, box.currentKeyId, after, batchSize);
    if (rows.length === 0) return;
    await onBatch?.(col.name, rows.map((r) => r.id));
    for (const row of rows) {
      let sealed: string;
      try {
        sealed = box.encrypt(col.clear ? row.value : box.decrypt(row.value));
      } catch {
        unreadable.add(row.id);
        continue;
      }
      if (await repo.compareAndSet(col, row.id, row.value, sealed)) report.rotated++;
      else report.changedMeanwhile++;
    }
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * Refuses keys that cannot read the database before serving anything: a key removed from the list before
 * its values were rotated, or a generated key file where the real one went missing (each value would
 * otherwise fail on use, and new values would be written under a key that reads nothing else).
 */
export async function assertKeysReadDatabase(db: Database, box: SecretBox, keyFile?: string): Promise<void> {
  const repo = new SealedValuesRepo(db);
  for (const col of SEALED_COLUMNS.filter((c) => c.checkedAtStart)) {
    for (const { keyId, sample } of await repo.keyIdsInUse(col)) {
      if (keyId !== 'v1' && box.keyIds.includes(keyId)) continue;
      let readable = true;
      try {
        box.decrypt(sample);
      } catch {
        readable = false;
      }
      if (readable) continue;
      const where = keyFile ? `the key file ${keyFile}` : 'OMNIPORT_SECRET_KEYS';
      throw new ConfigError(
        `the database holds values (${col.name}) encrypted with ${keyId === 'v1' ? 'a key' : `key ${keyId}`} that ${where} does not hold ` +
          `(configured: ${box.keyIds.join(', ')}). Restore that key (OMNIPORT_SECRET_KEY_FILE, or list it after the newest in OMNIPORT_SECRET_KEYS), ` +
          'then run `omniport keys rotate` before removing it.',
      );
    }
  }
}
