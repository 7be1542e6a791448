import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../store/database';
import type { ControlPlaneRepo } from '../store/control-plane.repo';
import type { SyncService } from '../core/sync';

const SYNC_QUEUE = 'sync';
const SCHEDULE_QUEUE = 'sync-schedule';

interface SyncJob {
  connectionId: string;
  stream: string;
  full?: boolean;
}

export interface JobRunnerOptions {
  /** Take jobs in this process (false on API-only nodes). */
  work: boolean;
  /** How often workers poll for jobs. */
  pollingIntervalSeconds?: number;
  /** A job works at most this long, then queues its own continuation (keeps jobs short and crash-safe). */
  jobSliceMs?: number;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * pg-boss on the service's own database: one job per connection and sync stream (at most one queued and
 * one running per stream), a minute tick that queues connections due by their project's interval.
 */
export class JobRunner {
  private readonly boss: PgBoss;
  /** Set once the HTTP server's logger exists. */
  logger: JobLogger | undefined;
  private started: Promise<void> | undefined;

  constructor(
    database: DatabaseHandle,
    databaseUrl: string | undefined,
    private readonly sync: SyncService,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly opts: JobRunnerOptions,
  ) {
    const common = { schedule: opts.work, supervise: opts.work, migrate: true };
    this.boss =
      database.kind === 'postgres' && databaseUrl
        ? new PgBoss({ connectionString: databaseUrl, max: 4, ...common })
        : new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) }, ...common });
    this.boss.on('error', (err) => this.logger?.error({ err: { message: err.message } }, 'job queue error'));
  }

  /**
   * Starts the queue (creating pg-boss's schema on a new database, which takes seconds on PGlite).
   * Callers need not wait: enqueueing waits for it, so the HTTP server can answer meanwhile.
   */
  start(): Promise<void> {
    this.started ??= this.doStart();
    return this.started;
  }

  private async doStart(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(SYNC_QUEUE, { name: SYNC_QUEUE, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 15 * 60 });
    await this.boss.createQueue(SCHEDULE_QUEUE, { name: SCHEDULE_QUEUE, policy: 'singleton' });
    if (!this.opts.work) return;
    await this.boss.schedule(SCHEDULE_QUEUE, '* * * * *');
    const pollingIntervalSeconds = this.opts.pollingIntervalSeconds ?? 2;
    await this.boss.work<SyncJob>(SYNC_QUEUE, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
      if (!job) return;
      const { connectionId, stream, full } = job.data;
      const result = await this.sync.run(connectionId, stream, { full, deadline: Date.now() + (this.opts.jobSliceMs ?? 5 * 60_000) });
      this.logger?.info({ connectionId, ...result }, 'sync job finished');
      if (result.outcome === 'continued') await this.enqueue(connectionId, [stream]);
    });
    await this.boss.work(SCHEDULE_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
      for (const { id } of await this.controlPlane.connectionsDueForSync()) await this.enqueueAll(id);
    });
  }

  /** Queues every stream of a connection. */
  async enqueueAll(connectionId: string, opts: { full?: boolean } = {}): Promise<string[]> {
    const connection = await this.controlPlane.findConnectionById(connectionId);
    if (!connection) return [];
    const streams = this.sync.streamsOf(connection);
    await this.enqueue(connectionId, streams, opts);
    return streams;
  }

  async enqueue(connectionId: string, streams: string[], opts: { full?: boolean } = {}): Promise<void> {
    await this.start();
    for (const stream of streams) {
      await this.boss.send(SYNC_QUEUE, { connectionId, stream, full: opts.full } satisfies SyncJob, {
        singletonKey: `${connectionId}:${stream}`,
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
