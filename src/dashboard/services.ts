import type { Config } from '../config';
import { inSlices } from '../core/slices';
import { PURGE_SLICE } from '../store/purge';
import type { SecretBox } from '../core/secrets';
import type { DatabaseHandle } from '../store/database';
import { DashboardRepo } from '../store/dashboard.repo';
import { ProviderCallLog } from './provider-calls';
import { DatabaseSessionStore } from './sessions';

/** What the operator dashboard needs besides the core services. */
export interface DashboardServices {
  /** Every provider call's attempt, recorded through the HTTP client's `onCall` hook. */
  calls: ProviderCallLog;
  sessions: DatabaseSessionStore;
  sessionLifetimeMs: number;
  /** Signs the session and CSRF cookies; derived from the secret key, so every process shares it. */
  cookieSecret: string;
  repo: DashboardRepo;
  /** Sessions past their end are forgotten by the housekeeping timer. */
  purgeExpired(now?: Date): Promise<void>;
}

export function createDashboardServices(
  database: DatabaseHandle,
  box: SecretBox,
  config: Partial<Pick<Config, 'providerCallRetentionDays' | 'dashboardSessionHours'>>,
): DashboardServices {
  const repo = new DashboardRepo(database.db);
  const sessionLifetimeMs = (config.dashboardSessionHours ?? 12) * 3_600_000;
  const calls = new ProviderCallLog(repo, { retentionDays: config.providerCallRetentionDays ?? 7 });
  return {
    calls,
    sessions: new DatabaseSessionStore(repo, sessionLifetimeMs),
    sessionLifetimeMs,
    cookieSecret: box.deriveKey('dashboard-cookies').toString('base64url'),
    repo,
    async purgeExpired(now = new Date()) {
      await calls.purgeExpired(now);
      await inSlices(() => repo.purgeSessionsBefore(now, PURGE_SLICE), PURGE_SLICE);
    },
  };
}
