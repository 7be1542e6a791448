import PgBoss from 'pg-boss';
import pg from 'pg';
import { isDatabaseUnavailable, loggableError, type DatabaseHandle } from '../store/database';
import type { ControlPlaneRepo } from '../store/control-plane.repo';
import type { SyncService } from '../core/sync';
import { isDeletionCheck } from '../core/deletion-check';
import { setQueueDepthSource, syncJobDuration, syncRecords } from '../observability/metrics';
import { currentRequestId, runWithRequestContext } from '../observability/request-context';

const SYNC_QUEUE = 'sync';
const SCHEDULE_QUEUE = 'sync-schedule';
/** PostgreSQL channel on which a process that queued sync jobs wakes the workers of every process. */
const WAKE_CHANNEL = 'omniport_sync_jobs';
/** pg-boss's default schema, where its job table lives. */
const PGBOSS_SCHEMA = 'pgboss';

interface SyncJob {
  connectionId: string;
  stream: string;
  full?: boolean;
  /** The request that queued the sync (its id in the job's log lines). */
  requestId?: string;
}

export interface JobRunnerOptions {
  /** Take jobs in this process (false on API-only nodes). */
  work: boolean;
  /** How often idle workers poll for jobs (a queued job wakes them before that). */
  pollingIntervalSeconds?: number;
  /** Sync jobs (streams, of one connection or several) this process runs at once. */
  concurrency?: number;
  /** A job works at most this long, then queues its own continuation (keeps jobs short and crash-safe). */
  jobSliceMs?: number;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * pg-boss on the service's own database: one job per connection and sync stream or deletion check (at most
 * one queued and one running each), a minute tick that queues what is due by its project's intervals.
 */
export class JobRunner {
  private readonly boss: PgBoss;
  /** Set once the HTTP server's logger exists. */
  logger: JobLogger | undefined;
  private started: Promise<void> | undefined;

  private reaper: NodeJS.Timeout | undefined;
  private readonly workerIds: string[] = [];
  private listener: pg.Client | undefined;
  private stopping = false;
  /**
   * Streams this process is running now (`streamKey` → jobs): never taken over by this process, whose
   * heartbeat writes can lag a minute behind a busy embedded database without the run being lost.
   */
  private readonly runningHere = new Map<string, number>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly databaseUrl: string | undefined,
    private readonly sync: SyncService,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly opts: JobRunnerOptions,
  ) {
    const common = { schedule: opts.work, supervise: opts.work, migrate: true };
    this.boss =
      database.kind === 'postgres' && databaseUrl
        ? new PgBoss({ connectionString: databaseUrl, max: 4, ...common })
        : new PgBoss({
            db: {
              // A job still running when the queue stops (its slice outlasted the graceful stop) reports after the
              // database closed: dropped, as the stream's heartbeat has it taken over at the next start. Answered
              // as pg-boss's own closed pool answers (no result): its completion and failure of a job, which its
              // worker does not await, read `rows[0]` of any result and would throw an unhandled rejection.
              executeSql: (text: string, values?: unknown[]) =>
                database.executeSql(text, values).catch((err: unknown) => {
                  if (this.stopping) return undefined as unknown as { rows: Record<string, unknown>[] };
                  throw err;
                }),
            },
            ...common,
          });
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
    setQueueDepthSource(async () => {
      const result = await this.boss.getDb().executeSql(
        `select name as queue, state, count(*)::int as count from ${PGBOSS_SCHEMA}.job where state in ('created', 'retry', 'active') group by 1, 2`,
        [],
      );
      return result.rows as { queue: string; state: string; count: number }[];
    });
    if (!this.opts.work) return;
    await this.boss.schedule(SCHEDULE_QUEUE, '* * * * *');
    const pollingIntervalSeconds = this.opts.pollingIntervalSeconds ?? 2;
    // Several workers, one job each: streams of one connection and of several run side by side, bounded.
    for (let i = 0; i < (this.opts.concurrency ?? 4); i++) {
      const id = await this.boss.work<SyncJob>(SYNC_QUEUE, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
        if (!job) return;
        const { connectionId, stream, full, requestId } = job.data;
        try {
          // Jobs this one queues (its continuation) keep the id of the request that started the sync.
          return await runWithRequestContext({ requestId: requestId ?? `job:${job.id}` }, () => this.runSyncJob(job.id, connectionId, stream, full, requestId));
        } finally {
          // Look for the next job at once instead of after the polling interval.
          this.boss.notifyWorker(id);
        }
      });
      this.workerIds.push(id);
    }
    if (this.database.kind === 'postgres' && this.databaseUrl) await this.listenForWakeUps(this.databaseUrl);
    // Streams whose worker died (kill -9, lost machine) are taken over: at once on the embedded database,
    // which only this process can use, and on PostgreSQL once their heartbeat is stale.
    await this.takeOverStalled(this.database.kind === 'pglite' ? 0 : this.sync.liveness.staleAfterMs);
    this.reaper = setInterval(() => void this.takeOverStalled(this.sync.liveness.staleAfterMs), this.sync.liveness.heartbeatMs);
    this.reaper.unref();
    // Polled every 5 s: the minute tick is due within seconds, not half a minute later.
    await this.boss.work(SCHEDULE_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
      for (const { id } of await this.controlPlane.connectionsDueForSync()) await this.enqueueAll(id);
      for (const { connectionId, streams } of await this.sync.deletions.due()) await this.send(connectionId, streams);
    });
  }

  /** Wakes this process's idle workers, so a queued job starts now rather than at their next poll. */
  private wakeWorkers(): void {
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  /** Workers of other processes (API nodes queue, workers run) are woken through LISTEN/NOTIFY. */
  private async listenForWakeUps(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    client.on('notification', () => this.wakeWorkers());
    client.on('error', (err) => {
      this.logger?.error({ err: loggableError(err) }, 'job wake-up listener lost its connection; polling meanwhile');
      this.listener = undefined;
      void client.end().catch(() => {});
      setTimeout(() => void (this.stopping ? undefined : this.listenForWakeUps(url).catch(() => {})), 5_000).unref();
    });
    try {
      await client.connect();
      await client.query(`listen ${WAKE_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      client.emit('error', err as Error);
    }
  }

  private async runSyncJob(jobId: string, connectionId: string, stream: string, full: boolean | undefined, requestId: string | undefined): Promise<void> {
    const key = streamKey(connectionId, stream);
    this.runningHere.set(key, (this.runningHere.get(key) ?? 0) + 1);
    try {
      await this.runSyncJobHere(jobId, connectionId, stream, full, requestId);
    } finally {
      const left = (this.runningHere.get(key) ?? 1) - 1;
      if (left > 0) this.runningHere.set(key, left);
      else this.runningHere.delete(key);
    }
  }

  private async runSyncJobHere(jobId: string, connectionId: string, stream: string, full: boolean | undefined, requestId: string | undefined): Promise<void> {
    const started = performance.now();
    const observe = (outcome: string) => syncJobDuration.observe({ stream, outcome }, (performance.now() - started) / 1000);
    try {
      const deadline = Date.now() + (this.opts.jobSliceMs ?? 5 * 60_000);
      const result = isDeletionCheck(stream) ? await this.sync.deletions.run(connectionId, stream, { deadline }) : await this.sync.run(connectionId, stream, { full, deadline });
      observe(result.outcome);
      if (result.outcome === 'done') syncRecords.inc({ stream }, result.records);
      const { skipped, ...summary } = result;
      this.logger?.info({ connectionId, requestId, ...summary, skipped: skipped?.count ?? 0 }, 'sync job finished');
      // Which records, never their content; GET /sync/status shows them too.
      if (skipped?.count) (this.logger?.warn ?? this.logger?.info)?.call(this.logger, { connectionId, requestId, stream, skipped: skipped.named }, 'records the database refused were skipped');
      if (result.outcome === 'continued') await this.enqueue(connectionId, [stream]);
      if (result.outcome === 'waiting') await this.send(connectionId, [stream], { startAfter: result.resumeAt });
    } catch (err) {
      observe('failed');
      // pg-boss retries the job later (with backoff); the run resumes from its saved position.
      this.logger?.error({ connectionId, requestId, stream, err: loggableError(err) }, 'sync job failed');
      if (isDatabaseUnavailable(err)) void this.requeueWhenDatabaseIsBack(jobId, connectionId, stream);
      throw err;
    }
  }

  /**
   * With the database gone, the queue cannot record a job's failure either: the job would stay active until its
   * stream is found stalled (a minute or more after the database is back). Once the database answers again, a
   * job still active is cancelled and its stream queued anew, so the run resumes from its last saved batch at once.
   */
  private async requeueWhenDatabaseIsBack(jobId: string, connectionId: string, stream: string): Promise<void> {
    for (let waitedMs = 0; !this.stopping && waitedMs < 10 * 60_000; waitedMs += 1_000) {
      await new Promise((r) => setTimeout(r, 1_000).unref());
      try {
        const stuck = await this.boss.getDb().executeSql(`select 1 from ${PGBOSS_SCHEMA}.job where name = $1 and id = $2 and state = 'active'`, [SYNC_QUEUE, jobId]);
        // Recorded as failed after all (then pg-boss retries it), or finished: nothing to do.
        if (stuck.rows.length === 0) return;
        await this.requeue(connectionId, stream, [jobId]);
        (this.logger?.warn ?? this.logger?.info)?.call(this.logger, { connectionId, stream }, 'sync stream queued again after the database came back');
        return;
      } catch {
        // Still unavailable: try again in a second.
      }
    }
  }

  /** Cancels a stream's jobs that no worker runs any more, and queues the stream again (it resumes from its last saved batch). */
  private async requeue(connectionId: string, stream: string, abandonedJobIds: string[]): Promise<void> {
    for (const id of abandonedJobIds) await this.boss.cancel(SYNC_QUEUE, id);
    await this.send(connectionId, [stream]);
  }

  /**
   * Cancels the queue's job of every stream silent for `staleAfterMs` (its worker is gone, but pg-boss would
   * keep the job active until it expires) and queues the stream again: the next run resumes from the
   * position saved with its last batch. Safe in several workers at once (cancelling twice is harmless,
   * and the queue keeps at most one waiting job per stream).
   */
  private async takeOverStalled(staleAfterMs: number): Promise<void> {
    try {
      for (const { connectionId, stream } of await this.sync.stalledStreams(staleAfterMs)) {
        if (this.runningHere.has(streamKey(connectionId, stream))) continue;
        const active = await this.boss.getDb().executeSql(`select id from ${PGBOSS_SCHEMA}.job where name = $1 and singleton_key = $2 and state = 'active'`, [
          SYNC_QUEUE,
          streamKey(connectionId, stream),
        ]);
        await this.requeue(connectionId, stream, (active.rows as { id: string }[]).map((r) => r.id));
        (this.logger?.warn ?? this.logger?.info)?.call(this.logger, { connectionId, stream, jobs: active.rows.length }, 'sync stream taken over after its worker stopped');
      }
    } catch (err) {
      this.logger?.error({ err: loggableError(err) }, 'taking over stalled sync streams failed; will try again');
    }
  }

  /** Queues every stream of a connection. */
  async enqueueAll(connectionId: string, opts: { full?: boolean } = {}): Promise<string[]> {
    const connection = await this.controlPlane.findConnectionById(connectionId);
    if (!connection) return [];
    const streams = this.sync.streamsOf(connection);
    await this.enqueue(connectionId, streams, opts);
    return streams;
  }

  /** Queues the deletion checks of a connection now (they also run on their project's interval). */
  async enqueueDeletionChecks(connectionId: string): Promise<string[]> {
    const connection = await this.controlPlane.findConnectionById(connectionId);
    if (!connection) return [];
    const streams = this.sync.deletions.streamsOf(connection);
    await this.enqueue(connectionId, streams);
    return streams;
  }

  async enqueue(connectionId: string, streams: string[], opts: { full?: boolean } = {}): Promise<void> {
    await this.start();
    await this.send(connectionId, streams, opts);
  }

  private async send(connectionId: string, streams: string[], opts: { full?: boolean; startAfter?: Date } = {}): Promise<void> {
    await this.sendJobs(connectionId, streams, opts);
    if (opts.startAfter) return;
    this.wakeWorkers();
    if (this.database.kind === 'postgres') {
      await this.boss
        .getDb()
        .executeSql(`select pg_notify('${WAKE_CHANNEL}', '')`, [])
        .catch(() => {}); // the workers' polling finds the jobs anyway
    }
  }

  private async sendJobs(connectionId: string, streams: string[], opts: { full?: boolean; startAfter?: Date }): Promise<void> {
    for (const stream of streams) {
      await this.boss.send(SYNC_QUEUE, { connectionId, stream, full: opts.full, requestId: currentRequestId() } satisfies SyncJob, {
        singletonKey: streamKey(connectionId, stream),
        ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      });
    }
  }

  /**
   * Streams whose sync jobs wait in the queue, not yet taken by a worker, of these connections (the dashboard
   * shows them as queued). Empty before the queue exists.
   */
  async queuedStreams(connectionIds: string[]): Promise<Map<string, Set<string>>> {
    const queued = new Map<string, Set<string>>();
    if (connectionIds.length === 0) return queued;
    const rows = await this.database
      .executeSql(
        `select data->>'connectionId' as connection_id, data->>'stream' as stream from ${PGBOSS_SCHEMA}.job
          where name = $1 and state in ('created', 'retry') and data->>'connectionId' = any($2::text[])`,
        [SYNC_QUEUE, connectionIds],
      )
      .then((r) => r.rows as { connection_id: string; stream: string }[])
      .catch(() => []); // no queue yet (jobs never started in this database)
    for (const r of rows) queued.set(r.connection_id, (queued.get(r.connection_id) ?? new Set()).add(r.stream));
    return queued;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.reaper);
    await this.listener?.end().catch(() => {});
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}

/** A stream's key in the queue (its jobs' singleton key) and in `runningHere`. */
const streamKey = (connectionId: string, stream: string) => `${connectionId}:${stream}`;
