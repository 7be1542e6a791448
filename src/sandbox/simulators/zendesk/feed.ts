/**
 * Change feed backing the incremental exports: an append-only log of (seq, id, ts)
 * where a record's newest entry supersedes its older ones (or, `appendOnly`, where every entry
 * stays: the ticket event log). Timestamps never decrease
 * along the log, so both `start_time` (binary search on ts) and cursors (binary search
 * on seq) resolve in O(log n); stale entries are skipped and compacted away.
 */
export interface FeedEntry {
  seq: number;
  id: number;
  ts: number;
}

export class ChangeFeed {
  private seqs: number[] = [];
  private ids: number[] = [];
  private tss: number[] = [];
  private readonly current = new Map<number, number>(); // id -> newest seq
  private nextSeq = 1;
  private stale = 0;

  /**
   * `appendOnly`: every entry stays live (a log of events, each with its own id, such as ticket
   * audits), so no per-id bookkeeping is kept.
   */
  constructor(private readonly opts: { appendOnly?: boolean } = {}) {}

  /** Timestamp of the newest entry (0 when empty). */
  get lastTs(): number {
    return this.tss.length ? (this.tss[this.tss.length - 1] as number) : 0;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Records a change; returns the timestamp actually used (clamped so the log stays ordered). */
  touch(id: number, ts: number): number {
    const t = Math.max(ts, this.lastTs);
    const seq = this.nextSeq++;
    this.seqs.push(seq);
    this.ids.push(id);
    this.tss.push(t);
    if (this.opts.appendOnly) return t;
    if (this.current.has(id)) this.stale++;
    this.current.set(id, seq);
    if (this.stale > 1000 && this.stale > this.current.size) this.compact();
    return t;
  }

  private compact(): void {
    const seqs: number[] = [];
    const ids: number[] = [];
    const tss: number[] = [];
    for (let i = 0; i < this.seqs.length; i++) {
      const id = this.ids[i] as number;
      if (this.current.get(id) === this.seqs[i]) {
        seqs.push(this.seqs[i] as number);
        ids.push(id);
        tss.push(this.tss[i] as number);
      }
    }
    this.seqs = seqs;
    this.ids = ids;
    this.tss = tss;
    this.stale = 0;
  }

  /** Index of the first entry with seq > s. */
  private indexAfterSeq(s: number): number {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) <= s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The seq just before the first entry with ts >= tsMs (a position usable with `after`). */
  positionAtTime(tsMs: number): number {
    let lo = 0;
    let hi = this.tss.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.tss[mid] as number) < tsMs) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : (this.seqs[lo - 1] as number);
  }

  private entryAt(i: number): FeedEntry {
    return { seq: this.seqs[i] as number, id: this.ids[i] as number, ts: this.tss[i] as number };
  }

  private live(i: number): boolean {
    return this.opts.appendOnly === true || this.current.get(this.ids[i] as number) === this.seqs[i];
  }

  /**
   * Up to `limit` live entries after position `afterSeq` with ts <= cutoff, plus whether more
   * eligible entries follow. With `extendSameSecond`, keeps going while entries share the
   * last returned entry's second (time-based exports must not split a second across pages).
   */
  after(afterSeq: number, limit: number, cutoff = Infinity, extendSameSecond = false): { entries: FeedEntry[]; more: boolean } {
    const entries: FeedEntry[] = [];
    let i = this.indexAfterSeq(afterSeq);
    for (; i < this.seqs.length; i++) {
      if ((this.tss[i] as number) > cutoff) return { entries, more: false };
      if (!this.live(i)) continue;
      if (entries.length >= limit) {
        if (!extendSameSecond) break;
        const last = entries[entries.length - 1] as FeedEntry;
        if (Math.floor((this.tss[i] as number) / 1000) !== Math.floor(last.ts / 1000)) break;
      }
      entries.push(this.entryAt(i));
    }
    let more = false;
    for (; i < this.seqs.length; i++) {
      if ((this.tss[i] as number) > cutoff) break;
      if (this.live(i)) {
        more = true;
        break;
      }
    }
    return { entries, more };
  }

  /** Up to `limit` live entries before position `beforeSeq` (exclusive), ascending, and whether more precede. */
  before(beforeSeq: number, limit: number): { entries: FeedEntry[]; more: boolean } {
    const entries: FeedEntry[] = [];
    let i = this.indexAfterSeq(beforeSeq - 1) - 1;
    for (; i >= 0 && entries.length < limit; i--) if (this.live(i)) entries.push(this.entryAt(i));
    let more = false;
    for (; i >= 0; i--) {
      if (this.live(i)) {
        more = true;
        break;
      }
    }
    return { entries: entries.reverse(), more };
  }
}
