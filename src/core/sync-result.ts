import type { SkippedRecord } from '../store/schema';

/** Skipped records as the sync state keeps them: the count of the run, and the first 20 named. */
export interface Skips {
  count: number;
  named: SkippedRecord[];
}

/** What one run of a stream did (the sync engine and the deletion checks answer it). */
export interface SyncRunResult {
  stream: string;
  /**
   * done: the run completed; continued: it stopped at its deadline and must be continued; waiting: the
   * provider's rate limit asks for a longer wait than a call may hold, the run goes on at `resumeAt`;
   * skipped: no such connection/stream.
   */
  outcome: 'done' | 'continued' | 'waiting' | 'skipped';
  resumeAt?: Date;
  mode?: 'full' | 'incremental';
  records: number;
  markedDeleted: number;
  /** Records of this run the database refused (named, never their content): skipped, the run went on. */
  skipped?: Skips;
}
