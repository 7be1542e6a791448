import type { ProviderCallReport } from '../providers/http-client';
import { inSlices } from '../core/slices';
import { PURGE_SLICE } from '../store/purge';
import { rateLimitUsage } from '../providers/manifest';
import type { DashboardRepo, ProviderCallInsert, ProviderCallRow } from '../store/dashboard.repo';
import { isUuid, type AccessContext } from '../core/access';
import type { JobLogger } from '../jobs/runner';
import { loggableError } from '../store/database';

/** Query parameters whose values are credentials at some provider (Pipedrive's api_token, signed URLs …). */
const SECRET_PARAM = /token|key|secret|password|passwd|auth|sig|code|session|credential/i;

/** The path of a call fit for the log (decoded, for reading): the query kept, the values of secret-looking parameters masked. */
export function loggablePath(url: URL): string {
  const params = [...url.searchParams].map(([k, v]) => `${k}=${SECRET_PARAM.test(k) ? '[redacted]' : v}`);
  const path = params.length ? `${url.pathname}?${params.join('&')}` : url.pathname;
  return path.length > 500 ? `${path.slice(0, 499)}…` : path;
}

/** What the provider's rate-limit headers said about this call, as its manifest names them. */
export function rateLimitOf(call: ProviderCallReport): ProviderCallInsert['rateLimit'] {
  const out: NonNullable<ProviderCallInsert['rateLimit']> = {};
  for (const rl of [call.manifest.rateLimitHeaders ?? []].flat()) {
    // a header of use against a limit (used/max) is shown as what is left, like the others
    const remaining = rl.usage ? rateLimitUsage(rl, call.headers)?.remaining.toString() : call.headers?.[rl.remaining];
    if (remaining !== undefined && out.remaining === undefined) out.remaining = remaining.slice(0, 40);
    const reset = Number(rl.reset ? call.headers?.[rl.reset] : undefined);
    if (Number.isFinite(reset) && out.resetAt === undefined) {
      const at = rl.resetKind === 'epoch' ? reset * 1000 : rl.resetKind === 'epoch-ms' ? reset : call.startedAt.getTime() + call.durationMs + reset * 1000;
      if (Number.isFinite(at) && Math.abs(at - call.startedAt.getTime()) < 366 * 86_400_000) out.resetAt = new Date(at).toISOString();
    }
  }
  if (call.status === 429) out.limited = true;
  return Object.keys(out).length ? out : null;
}

export interface CallLogOptions {
  retentionDays: number;
  /** How long a call waits in memory before it is written with the others. */
  flushMs?: number;
  /** Calls kept in memory at most (the oldest are dropped when the database is slower than the providers). */
  maxBuffered?: number;
}

/**
 * The log of provider calls shown on the dashboard. Calls are buffered and written in batches, off the
 * call's path: recording never slows or fails a provider call, and a call that cannot be written is lost.
 */
export class ProviderCallLog {
  logger: JobLogger | undefined;
  private buffer: ProviderCallInsert[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly repo: DashboardRepo,
    private readonly opts: CallLogOptions,
  ) {}

  /** The `onCall` listener of the provider HTTP client. */
  readonly record = (call: ProviderCallReport): void => {
    // Credentials checked before their connection exists go by a made-up id ("verify:zendesk"): not logged.
    if (!isUuid(call.connectionId)) return;
    if (this.buffer.length >= (this.opts.maxBuffered ?? 10_000)) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push({
      connectionId: call.connectionId,
      method: call.method,
      path: loggablePath(call.url),
      status: call.status ?? null,
      error: call.error ?? null,
      durationMs: Math.max(0, Math.round(call.durationMs)),
      rateLimit: rateLimitOf(call),
      startedAt: call.startedAt,
    });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 1000);
      this.timer.unref();
    }
  };

  /** Writes what is buffered (and waits for a write under way). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(async () => {
      if (this.dropped) {
        this.logger?.error({ dropped: this.dropped }, 'provider calls dropped from the call log: the database is slower than the providers');
        this.dropped = 0;
      }
      for (let i = 0; i < batch.length; i += 500) await this.write(batch.slice(i, i + 500));
    });
    return this.writing;
  }

  /** Writes a batch; if it is refused, its calls one by one, so that one call the database refuses loses only itself. */
  private async write(calls: ProviderCallInsert[]): Promise<void> {
    try {
      await this.repo.insertCalls(calls);
      return;
    } catch (err) {
      if (calls.length === 1) {
        this.logger?.error({ err: loggableError(err) }, 'a provider call could not be written to the call log');
        return;
      }
    }
    for (const call of calls) await this.write([call]);
  }

  /** The newest calls of a connection of the caller's project. */
  list(ctx: AccessContext, connectionId: string, limit = 100): Promise<ProviderCallRow[]> {
    return this.repo.listCalls(ctx.projectId, connectionId, limit);
  }

  /** In slices, requests answered between them. */
  async purgeExpired(now = new Date()): Promise<void> {
    const cutoff = new Date(now.getTime() - this.opts.retentionDays * 86_400_000);
    await inSlices(() => this.repo.purgeCallsBefore(cutoff, PURGE_SLICE), PURGE_SLICE);
  }
}
