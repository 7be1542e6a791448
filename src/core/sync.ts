import type { Skips, SyncRunResult } from './sync-result';
import { randomUUID } from 'node:crypto';
import { yieldToRequests } from './slices';
import { AppError } from './errors';
import { DeletionChecks } from './deletion-check';
import { isDatabaseUnavailable } from '../store/database';
import { toRows } from './unified/records';
import { readAhead } from './read-ahead';
import { unifiedId } from './unified/ids';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo } from '../store/control-plane.repo';
import type { SyncStateRow, UnifiedRepo } from '../store/unified.repo';
import type { AdapterContext, ObjectSyncer } from '../providers/types';
import { addChanges, type SavedBatch } from '../store/unified.repo';
import type { ChangeCounts } from '../store/schema';

/**
 * A run that changed this many objects refreshes the planner's statistics (see UnifiedRepo.analyze), and again
 * each time its changes double while it runs: planned on the statistics of a store a fraction of its size, each
 * page's save scans every stored object (a 16,000-issue first sync on the embedded database took 20 times as
 * long as a 4,000-issue one).
 */
const ANALYZE_AFTER_CHANGES = 1_000;
const changesOf = (p: { changes: { created: number; updated: number; deleted: number } }) => p.changes.created + p.changes.updated + p.changes.deleted;
/** Unlisted objects of an offset-walked stream confirmed with the provider per run (one call each); the rest wait for the next runs. */
const MAX_CONFIRMED_PER_RUN = 50;

/** What a run has done so far (kept in its sync state, so a resumed run goes on counting). */
interface RunProgress {
  records: number;
  skipped: Skips;
  changes: ChangeCounts;
}
const NO_CHANGES: ChangeCounts = { created: 0, updated: 0, deleted: 0 };

const withGone = (p: RunProgress, gone: number): RunProgress => (gone ? { ...p, changes: { ...p.changes, deleted: p.changes.deleted + gone } } : p);

function groupByType(objects: { objectType: string; remoteId: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of objects) out.set(o.objectType, [...(out.get(o.objectType) ?? []), o.remoteId]);
  return out;
}

/**
 * Records saved per transaction: a slice of 250 tickets is a few tens of milliseconds on the embedded database,
 * which runs on the event loop (bench/responsiveness.ts).
 */
const SAVE_SLICE = 250;

export type { SyncRunResult } from './sync-result';

function advance(p: RunProgress, read: number, saved: SavedBatch): RunProgress {
  return {
    records: p.records + read - saved.skipped.length,
    skipped: { count: p.skipped.count + saved.skipped.length, named: [...p.skipped.named, ...saved.skipped].slice(0, 20) },
    changes: addChanges(p.changes, saved.changes),
  };
}

const progressColumns = (p: RunProgress) => ({
  recordsInRun: p.records,
  skippedInRun: p.skipped.count,
  skipped: p.skipped.count ? p.skipped.named : null,
  changesInRun: p.changes,
});


export interface SyncOptions {
  /** Ignore the watermark and read everything again. */
  full?: boolean;
  /** Stop after the batch that crosses this time; the run continues in the next job. */
  deadline?: number;
}

/**
 * Runs sync streams: full on the first run, then incremental from the last successful start minus an
 * overlap window; every batch is saved together with the position after it, so a crashed or interrupted
 * run resumes where it stopped. Deletions are inferred only from a completed full run.
 */
export class SyncService {
  constructor(
    private readonly repo: UnifiedRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly contexts: ProviderContexts,
    private readonly overlapMs = 5 * 60_000,
    /** How often a running stream says it is alive; a stream silent for `staleAfterMs` lost its worker. */
    readonly liveness = { heartbeatMs: 15_000, staleAfterMs: 60_000 },
  ) {
    this.deletions = new DeletionChecks(repo, controlPlane, contexts, liveness.heartbeatMs);
  }

  /** Periodic deletion checks of the streams whose incremental runs cannot see deletions. */
  readonly deletions: DeletionChecks;

  streamsOf(connection: ConnectionRow): string[] {
    return this.contexts.adapterOf(connection).syncers.map((s) => s.key);
  }

  async run(connectionId: string, stream: string, opts: SyncOptions = {}): Promise<SyncRunResult> {
    const connection = await this.controlPlane.findConnectionById(connectionId);
    if (!connection || connection.status !== 'valid') return { stream, outcome: 'skipped', records: 0, markedDeleted: 0 };
    const { adapter, ctx } = this.contexts.forConnection(connection, { background: true });
    const syncer = adapter.syncers.find((s) => s.key === stream);
    if (!syncer) return { stream, outcome: 'skipped', records: 0, markedDeleted: 0 };

    const previous = await this.repo.getSyncState(connectionId, stream);
    const run = this.planRun(syncer, previous, opts);
    const base = { connectionId, stream, projectId: connection.projectId, runId: run.runId, mode: run.mode, runStartedAt: run.startedAt };
    let progress = run.progress;
    await this.repo.saveSyncState({ ...base, status: 'running', resume: run.resume, ...progressColumns(progress), lastError: null, resumeAt: null });
    // Alive while it runs, even through a long wait on the provider: a silent stream is taken over (JobRunner).
    const heartbeat = setInterval(() => void this.repo.heartbeat(connectionId, stream, run.runId).catch(() => undefined), this.liveness.heartbeatMs);
    heartbeat.unref();
    const syncEvent = (type: string, extra: Record<string, unknown>) => ({
      projectId: connection.projectId,
      connectionId,
      type,
      payload: {
        id_connection: connectionId,
        provider: connection.provider,
        stream,
        mode: run.mode,
        run_started_at: run.startedAt.toISOString(),
        records: progress.records,
        ...progress.changes,
        skipped_records: progress.skipped.count,
        ...extra,
      },
    });

    try {
      const since = run.mode === 'incremental' && previous?.watermark ? new Date(previous.watermark.getTime() - this.overlapMs) : undefined;
      let analyzeAt = Math.max(ANALYZE_AFTER_CHANGES, 2 * changesOf(progress));
      // The next page is read from the provider while this one is stored (one page ahead at most).
      for await (const batch of readAhead(syncer.run(ctx, { since, resume: run.resume ?? undefined, cursor: previous?.cursor ?? undefined }))) {
        const before = progress;
        // Deletions a change feed reports by id: marked before the batch's position moves past them (marking twice changes nothing).
        let reportedGone = 0;
        for (const [objectType, remoteIds] of groupByType(batch.deleted ?? [])) reportedGone += await this.repo.markRemoteDeleted(connectionId, objectType, remoteIds);
        // Saved in slices, each its own transaction with the event loop given back between them, so that requests
        // never wait behind a whole provider page (however large) and the progress shows as it goes. Only the last
        // slice moves the position on: a crash mid-page reads the page again (saving a record twice changes nothing).
        progress = withGone(before, reportedGone);
        for (let start = 0; start < batch.records.length || start === 0; start += SAVE_SLICE) {
          const slice = batch.records.slice(start, start + SAVE_SLICE);
          const last = start + SAVE_SLICE >= batch.records.length;
          if (start > 0) await yieldToRequests();
          const sliceStart = progress;
          const saved = await this.repo.saveBatch(toRows(connection, slice, run.runId), (saved) => ({
            ...base,
            status: 'running',
            ...(last ? { resume: batch.resume, ...(batch.cursor !== undefined ? { cursor: batch.cursor } : {}) } : {}),
            ...progressColumns(advance(sliceStart, slice.length, saved)),
            lastError: null,
          }));
          progress = advance(sliceStart, slice.length, saved);
        }
        if (batch.completeChildren) {
          // The batch lists every child of these parents: the stored children it does not list are gone.
          const { objectType, parents } = batch.completeChildren;
          const listed = batch.records.filter((r) => r.objectType === objectType).map((r) => r.remoteId);
          const parentIds = parents.map((p) => unifiedId(connectionId, p.objectType, p.remoteId));
          const gone = await this.repo.markChildrenNotListedDeleted(connectionId, objectType, parentIds, listed, run.startedAt);
          progress = { ...progress, changes: { ...progress.changes, deleted: progress.changes.deleted + gone } };
        }
        if (changesOf(progress) >= analyzeAt) {
          // The columns this run's saves are planned on; the whole store's statistics after the run.
          await this.repo.analyze('keys');
          analyzeAt = 2 * changesOf(progress);
        }
        if (opts.deadline && Date.now() > opts.deadline && batch.resume) {
          return { stream, outcome: 'continued', mode: run.mode, records: progress.records, markedDeleted: 0, skipped: progress.skipped };
        }
      }
      // A list walked by offset can miss an item when another is deleted meanwhile: the provider confirms each unlisted one gone.
      const confirmedGone = run.mode === 'full' && !syncer.reportsDeletions && syncer.stillExists ? await this.confirmGone(connectionId, syncer, ctx, run) : undefined;
      // The deletions a full run infers, the final state and sync.completed: together or not at all.
      const markedDeleted = await this.repo.inTransaction(async (tx) => {
        const deleted =
          run.mode === 'full' && !syncer.reportsDeletions ? await tx.markUnseenDeleted(connectionId, syncer.objectTypes, run.runId, run.startedAt, confirmedGone) : 0;
        progress = { ...progress, changes: { ...progress.changes, deleted: progress.changes.deleted + deleted } };
        await tx.saveSyncState({
          ...base,
          status: 'idle',
          resume: null,
          ...progressColumns(progress),
          watermark: run.startedAt,
          lastSuccessAt: new Date(),
          lastError: null,
        });
        await tx.insertEvents([syncEvent('sync.completed', { finished_at: new Date().toISOString() })]);
        return deleted;
      });
      if (changesOf(progress) >= ANALYZE_AFTER_CHANGES) await this.repo.analyze();
      return { stream, outcome: 'done', mode: run.mode, records: progress.records, markedDeleted, skipped: progress.skipped };
    } catch (err) {
      if (err instanceof AppError && err.code === 'provider_rate_limited') {
        // A wait, not a failure: the position of the last saved batch is kept, and the run goes on then.
        const resumeAt = new Date(Date.now() + 1000 * Math.max(1, Number(err.headers['retry-after']) || 60));
        await this.repo.saveSyncState({ ...base, status: 'waiting_for_rate_limit', ...progressColumns(progress), lastError: null, resumeAt });
        return { stream, outcome: 'waiting', mode: run.mode, records: progress.records, markedDeleted: 0, resumeAt };
      }
      const message = err instanceof AppError ? err.message : isDatabaseUnavailable(err) ? 'the database was unavailable' : 'internal error';
      // With the database gone this cannot be saved: the stream then stays `running`, goes stale, and is taken over.
      await this.repo
        .inTransaction(async (tx) => {
          await tx.saveSyncState({ ...base, status: 'failed', ...progressColumns(progress), lastError: message });
          // The job is retried from the last saved batch: a sync.completed follows if a retry succeeds.
          await tx.insertEvents([syncEvent('sync.failed', { error: message })]);
        })
        .catch(() => undefined);
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The objects a full run did not list that the provider says are gone (at most MAX_CONFIRMED_PER_RUN a run). */
  private async confirmGone(connectionId: string, syncer: ObjectSyncer, ctx: AdapterContext, run: { runId: string; startedAt: Date }) {
    const unlisted = await this.repo.unseenInRun(connectionId, syncer.objectTypes, run.runId, run.startedAt, MAX_CONFIRMED_PER_RUN);
    const gone = [];
    for (const object of unlisted) if (!(await syncer.stillExists!(ctx, object))) gone.push(object);
    return gone;
  }

  /** `stalled`: said to be running, but its worker has not been heard of for `staleAfterMs`. */
  displayStatus(state: SyncStateRow): string {
    if (state.status === 'running' && Date.now() - state.updatedAt.getTime() > this.liveness.staleAfterMs) return 'stalled';
    return state.status;
  }

  /** Continue an interrupted run with its id (so deletion detection stays right), or start a new one. */
  private planRun(syncer: ObjectSyncer, previous: SyncStateRow | undefined, opts: SyncOptions) {
    const interrupted = previous && previous.status !== 'idle' && previous.runId && previous.mode && previous.runStartedAt;
    if (interrupted && !opts.full) {
      return {
        runId: previous.runId!,
        mode: previous.mode as 'full' | 'incremental',
        startedAt: previous.runStartedAt!,
        resume: previous.resume,
        progress: {
          records: previous.recordsInRun,
          skipped: { count: previous.skippedInRun, named: previous.skipped ?? [] },
          changes: previous.changesInRun ?? NO_CHANGES,
        },
      };
    }
    const incremental = syncer.incremental && Boolean(previous?.watermark) && !opts.full;
    return {
      runId: randomUUID(),
      mode: incremental ? ('incremental' as const) : ('full' as const),
      startedAt: new Date(),
      resume: null,
      progress: { records: 0, skipped: { count: 0, named: [] }, changes: NO_CHANGES } as RunProgress,
    };
  }

  /** Streams said to be running whose worker has not been heard of for `staleAfterMs`. */
  stalledStreams(staleAfterMs: number) {
    return this.repo.stalledStreams(staleAfterMs);
  }

  status(connectionId: string) {
    return this.repo.listSyncStates(connectionId);
  }
}
