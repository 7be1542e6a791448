import pLimit from 'p-limit';
import { AppError } from './core/errors';
import type { Services } from './services';

interface StreamProgress {
  stream: string;
  status: 'queued' | 'running' | 'waiting' | 'done' | 'skipped' | 'failed';
  records: number;
  error?: string;
}

/**
 * `omniport sync <connection>`: runs every stream of the connection in this process (a few at once), each to
 * its end (continuing after each slice, waiting out provider rate limits), with a progress display on stderr
 * (redrawn on a terminal, a line per finished stream otherwise).
 */
export async function syncWithProgress(s: Services, connectionId: string, opts: { full?: boolean; json: boolean }) {
  const connection = /^[0-9a-f-]{36}$/i.test(connectionId) ? await s.controlPlane.findConnectionById(connectionId) : undefined;
  if (!connection) throw new AppError('not_found', `connection ${connectionId} not found`);
  // What stops every stream alike (a sandbox served by another process, a connection to authorise again) is said once.
  s.contexts.forConnection(connection, { background: true });
  const streams: StreamProgress[] = s.sync.streamsOf(connection).map((stream) => ({ stream, status: 'queued', records: 0 }));
  const display = new ProgressDisplay(streams, process.stderr.isTTY === true && !opts.json, opts.json);
  const started = performance.now();
  // Records counted while a slice runs, read from the saved sync state.
  const poll = setInterval(() => {
    void s.sync.status(connectionId).then((states) => {
      for (const st of states) {
        const p = streams.find((x) => x.stream === st.stream);
        if (p && (p.status === 'running' || p.status === 'waiting')) p.records = st.recordsInRun;
      }
      display.draw();
    }, () => {});
  }, 250);
  const limit = pLimit(4);
  await Promise.all(
    streams.map((p) =>
      limit(async () => {
        p.status = 'running';
        display.draw();
        try {
          for (let first = true; ; first = false) {
            const result = await s.sync.run(connectionId, p.stream, { full: first ? opts.full : undefined, deadline: Date.now() + 60_000 });
            p.records = result.records;
            if (result.outcome === 'continued') continue;
            if (result.outcome === 'waiting') {
              p.status = 'waiting';
              display.draw();
              await new Promise((r) => setTimeout(r, Math.max(0, (result.resumeAt?.getTime() ?? Date.now()) - Date.now())));
              p.status = 'running';
              continue;
            }
            p.status = result.outcome === 'done' ? 'done' : 'skipped';
            break;
          }
        } catch (err) {
          p.status = 'failed';
          p.error = (err as Error).message;
        }
        display.finished(p);
      }),
    ),
  );
  clearInterval(poll);
  display.draw();
  const elapsedMs = Math.round(performance.now() - started);
  const failed = streams.filter((p) => p.status === 'failed');
  const records = streams.reduce((n, p) => n + p.records, 0);
  if (!opts.json) console.log(`${failed.length ? 'sync failed' : 'sync finished'}: ${records} records in ${streams.length} streams, ${(elapsedMs / 1000).toFixed(1)} s`);
  return { id_connection: connectionId, elapsed_ms: elapsedMs, records, streams, failed: failed.map((p) => p.stream) };
}

class ProgressDisplay {
  private drawnLines = 0;

  constructor(
    private readonly streams: StreamProgress[],
    private readonly tty: boolean,
    private readonly quiet: boolean,
  ) {}

  /** On a terminal: the whole table again, in place. */
  draw(): void {
    if (!this.tty) return;
    const done = this.streams.filter((p) => p.status === 'done' || p.status === 'skipped' || p.status === 'failed').length;
    const width = 24;
    const filled = Math.round((done / Math.max(1, this.streams.length)) * width);
    const lines = [
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${this.streams.length} streams`,
      ...this.streams.map((p) => `  ${p.stream.padEnd(24)} ${p.status.padEnd(8)} ${String(p.records).padStart(8)} records${p.error ? `  ${p.error}` : ''}`),
    ];
    process.stderr.write(`${this.drawnLines ? `\x1b[${this.drawnLines}A` : ''}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
    this.drawnLines = lines.length;
  }

  /** Elsewhere (a log, a pipe): one line per finished stream. */
  finished(p: StreamProgress): void {
    if (this.tty || this.quiet) return this.draw();
    const done = this.streams.filter((x) => x.status === 'done' || x.status === 'skipped' || x.status === 'failed').length;
    process.stderr.write(`[${done}/${this.streams.length}] ${p.stream}: ${p.status}, ${p.records} records${p.error ? ` (${p.error})` : ''}\n`);
  }
}
