import { randomUUID } from 'node:crypto';
import { AppError } from './errors';
import { isDatabaseUnavailable } from '../store/database';
import { readAhead } from './read-ahead';
import { inSlices, yieldToRequests } from './slices';
import { DELETION_CHECK_SUFFIX } from '../store/schema';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo } from '../store/control-plane.repo';
import type { SyncStateRow, UnifiedRepo } from '../store/unified.repo';
import type { ObjectSyncer } from '../providers/types';
import type { SyncRunResult } from './sync-result';

export const deletionCheckStream = (stream: string) => `${stream}${DELETION_CHECK_SUFFIX}`;
export const isDeletionCheck = (stream: string) => stream.endsWith(DELETION_CHECK_SUFFIX);
export const streamOfDeletionCheck = (stream: string) => stream.slice(0, -DELETION_CHECK_SUFFIX.length);

/** Streams that need a deletion check: incremental runs that cannot see deletions, and an id listing. */
/** Listed ids saved in one transaction, and objects marked deleted in one statement (issue 32). */
const ID_SLICE = 5_000;
const MARK_SLICE = 500;

const needsCheck = (s: ObjectSyncer) => s.incremental && !s.reportsDeletions && s.deletionCheck !== undefined;

/**
 * Deletion checks: for streams whose incremental runs cannot see deletions, a periodic listing of the
 * remote ids alone (the lightest listing the provider allows) marks the objects no longer listed as
 * deleted, with their `.deleted` record events. Like a sync stream it runs as a job, saves its position
 * with every page (resumable, sliced by a deadline), waits out rate limits, and marks nothing unless the
 * listing completed: a failed or partial listing changes no object. Its state is a sync state row under
 * `<stream>#deletions`.
 */
export class DeletionChecks {
  constructor(
    private readonly repo: UnifiedRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly contexts: ProviderContexts,
    private readonly heartbeatMs: number,
  ) {}

  /** The deletion-check streams of a connection (`<stream>#deletions`). */
  streamsOf(connection: ConnectionRow): string[] {
    return this.contexts.adapterOf(connection).syncers.filter(needsCheck).map((s) => deletionCheckStream(s.key));
  }

  /** Deletion checks due now: per connection whose oldest check is older than its project's interval, the streams whose own check is. */
  async due(): Promise<{ connectionId: string; streams: string[] }[]> {
    const out: { connectionId: string; streams: string[] }[] = [];
    for (const { id, interval_minutes } of await this.controlPlane.connectionsDueForDeletionCheck()) {
      const connection = await this.controlPlane.findConnectionById(id);
      if (!connection) continue;
      const states = new Map((await this.repo.listSyncStates(id)).map((s) => [s.stream, s]));
      const dueBefore = Date.now() - interval_minutes * 60_000 + 30_000;
      const streams = this.streamsOf(connection).filter((stream) => {
        const last = states.get(stream)?.lastSuccessAt ?? connection.createdAt;
        return last.getTime() < dueBefore;
      });
      if (streams.length) out.push({ connectionId: id, streams });
    }
    return out;
  }

  async run(connectionId: string, checkStream: string, opts: { deadline?: number } = {}): Promise<SyncRunResult> {
    const skipped: SyncRunResult = { stream: checkStream, outcome: 'skipped', records: 0, markedDeleted: 0 };
    const connection = await this.controlPlane.findConnectionById(connectionId);
    if (!connection || connection.status !== 'valid') return skipped;
    const { adapter, ctx } = this.contexts.forConnection(connection, { background: true });
    const syncer = adapter.syncers.find((s) => deletionCheckStream(s.key) === checkStream);
    if (!syncer || !needsCheck(syncer)) return skipped;

    const previous = await this.repo.getSyncState(connectionId, checkStream);
    const run = await this.planRun(connectionId, previous);
    const base = { connectionId, stream: checkStream, projectId: connection.projectId, runId: run.runId, mode: 'deletion_check', runStartedAt: run.startedAt };
    let listed = run.listed;
    let resume = run.resume;
    await this.repo.saveSyncState({ ...base, status: 'running', resume: run.resume, recordsInRun: listed, lastError: null, resumeAt: null });
    const heartbeat = setInterval(() => void this.repo.heartbeat(connectionId, checkStream, run.runId).catch(() => undefined), this.heartbeatMs);
    heartbeat.unref();
    try {
      for await (const page of readAhead(syncer.deletionCheck!.listIds(ctx, { resume: run.resume ?? undefined }))) {
        // In slices, each its own transaction with requests answered between them; the last moves the position
        // (a slice saved before a crash is listed again, harmlessly).
        for (let start = 0; start < page.remoteIds.length || start === 0; start += ID_SLICE) {
          if (start > 0) await yieldToRequests();
          const slice = page.remoteIds.slice(start, start + ID_SLICE);
          const last = start + ID_SLICE >= page.remoteIds.length;
          listed += slice.length;
          if (last) resume = page.resume;
          await this.repo.saveListedIds(connectionId, run.runId, slice, { ...base, status: 'running', resume, recordsInRun: listed, lastError: null });
        }
        if (opts.deadline && Date.now() > opts.deadline && page.resume) return { stream: checkStream, outcome: 'continued', records: listed, markedDeleted: 0 };
      }
      // The listing is complete: what it did not list is gone, marked in slices. Interrupted, the check runs
      // again and marks the rest (what is marked is no longer a candidate); the listed ids go with the final state.
      const marked = await inSlices(() => this.repo.markNotListedDeleted(connectionId, syncer.deletionCheck!.objectTypes, run.runId, run.startedAt, MARK_SLICE), MARK_SLICE);
      const markedDeleted = await this.repo.inTransaction(async (tx) => {
        await tx.forgetListedIds(connectionId, run.runId);
        await tx.saveSyncState({
          ...base,
          status: 'idle',
          resume: null,
          recordsInRun: listed,
          changesInRun: { created: 0, updated: 0, deleted: marked },
          lastSuccessAt: new Date(),
          lastError: null,
        });
        return marked;
      });
      return { stream: checkStream, outcome: 'done', records: listed, markedDeleted };
    } catch (err) {
      if (err instanceof AppError && err.code === 'provider_rate_limited') {
        const resumeAt = new Date(Date.now() + 1000 * Math.max(1, Number(err.headers['retry-after']) || 60));
        await this.repo.saveSyncState({ ...base, status: 'waiting_for_rate_limit', recordsInRun: listed, lastError: null, resumeAt });
        return { stream: checkStream, outcome: 'waiting', records: listed, markedDeleted: 0, resumeAt };
      }
      // Nothing is marked: the ids listed so far stay, and a retry of the job resumes the listing.
      const message = err instanceof AppError ? err.message : isDatabaseUnavailable(err) ? 'the database was unavailable' : 'internal error';
      await this.repo.saveSyncState({ ...base, status: 'failed', recordsInRun: listed, lastError: message }).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Continue an interrupted check with its listed ids, or start a new one (forgetting the last one's). */
  private async planRun(connectionId: string, previous: SyncStateRow | undefined) {
    if (previous && previous.status !== 'idle' && previous.runId && previous.runStartedAt) {
      return { runId: previous.runId, startedAt: previous.runStartedAt, resume: previous.resume, listed: previous.recordsInRun };
    }
    if (previous?.runId) await this.repo.forgetListedIds(connectionId, previous.runId);
    return { runId: randomUUID(), startedAt: new Date(), resume: null, listed: 0 };
  }
}
