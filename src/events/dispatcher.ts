import pLimit from 'p-limit';
import { webhookDeliveries } from '../observability/metrics';
import { Webhook } from 'standardwebhooks';
import { isBlockedAddress, outboundAgent } from '../core/network';
import type { SecretBox } from '../core/secrets';
import { loggableError, type DatabaseHandle } from '../store/database';
import { yieldToRequests } from '../core/slices';
import type { AttemptOutcome, AttemptRecord, DueDelivery, WebhooksRepo } from '../store/webhooks.repo';
import type { JobLogger } from '../jobs/runner';
import { presentEvent, webhookIdOf } from './present';

export interface DispatcherOptions {
  allowPrivateUrls: boolean;
  /** Waits before each retry: the last one used, the delivery has failed. */
  retrySchedule: number[];
  /** A 2xx within this time counts as delivered. */
  timeoutMs: number;
  pollMs: number;
  /** Deliveries in flight per process. */
  concurrency: number;
  /**
   * Deliveries claimed, sent and recorded together: their outcomes are written in one transaction, and the
   * event loop and the database are left to requests between two batches.
   */
  batchSize: number;
  /** How long a claimed delivery is this worker's; past it (the worker died) another takes it. */
  leaseMs: number;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
}

/** 5 s, 1 min, 10 min, 1 h, 6 h, 12 h: about a day in all. */
export const DEFAULT_RETRY_SCHEDULE = [5_000, 60_000, 600_000, 3_600_000, 6 * 3_600_000, 12 * 3_600_000];

const SNIPPET_BYTES = 500;

/** ±20 %, so that receivers coming back are not hit by every retry at once. */
const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/**
 * Sends webhook deliveries: the outbox rows written with their events. Each is signed (Standard Webhooks,
 * with the endpoint's secret), POSTed once per attempt through the same address policy as every outbound
 * call, and its outcome recorded; failures are retried on the schedule with jitter under the same
 * `webhook-id`. A worker that dies mid-delivery leaves its lease to expire: the delivery is sent again
 * (at least once, same id).
 */
/** The channel deliveries are announced on when written (migration 0019_webhook_wakeup). */
export const DELIVERIES_CHANNEL = 'omniport_deliveries';

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private draining = false;
  /** Woken while draining: drain again at once instead of waiting for the next poll. */
  private wokenMeanwhile = false;
  private stopListening: (() => Promise<void>) | undefined;
  logger: JobLogger | undefined;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly box: SecretBox,
    private readonly opts: DispatcherOptions,
  ) {}

  /**
   * `releaseLeases`: on the embedded database, leases of a previous process are stale at once. With
   * `database`, new deliveries wake the sender at once (their insert notifies, in any process); the poll
   * remains for retries that come due and for a notification lost while the listener reconnects.
   */
  async start(opts: { releaseLeases: boolean; database?: Pick<DatabaseHandle, 'listen'> }): Promise<void> {
    if (opts.releaseLeases) await this.repo.releaseLeases();
    this.stopListening = await opts.database?.listen(DELIVERIES_CHANNEL, { onNotify: () => this.wake(), onListening: () => {} });
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.stopListening?.();
    await this.running;
  }

  /** Deliveries were written: send them now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.wokenMeanwhile = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.draining = true;
      this.wokenMeanwhile = false;
      this.running = this.drain()
        .then(() => undefined)
        .catch((err) => this.logger?.error({ err: loggableError(err) }, 'webhook delivery failed; will try again'))
        .finally(() => {
          this.draining = false;
          this.schedule(this.wokenMeanwhile ? 0 : this.opts.pollMs);
        });
    }, ms);
    this.timer.unref();
  }

  /**
   * Sends everything due, batch after batch, then waits for the next poll. A batch is bounded (`batchSize`
   * claimed, `concurrency` in flight) and recorded in one transaction; requests get a turn between batches,
   * so a backlog of thousands drains at a steady rate beside reads instead of ahead of them (issue 32).
   */
  async drain(): Promise<number> {
    const limit = pLimit(this.opts.concurrency);
    let sent = 0;
    while (!this.stopped) {
      const due = await this.repo.claimDue(this.opts.batchSize, this.opts.leaseMs);
      if (due.length === 0) break;
      const results = await Promise.all(
        due.map((d) =>
          limit(async () => {
            const attempt = await this.send(d);
            return { due: d, attempt, outcome: this.outcome(d, attempt) };
          }),
        ),
      );
      await this.repo.recordAttempts(results);
      for (const r of results) webhookDeliveries.inc({ outcome: r.outcome.kind });
      sent += due.length;
      await yieldToRequests();
    }
    return sent;
  }

  private async send(due: DueDelivery): Promise<AttemptRecord> {
    const body = JSON.stringify(presentEvent(due.event, this.box));
    const id = webhookIdOf(due.delivery.id);
    const now = new Date();
    const signature = new Webhook(this.box.decrypt(due.endpoint.secretEncrypted)).sign(id, now, body);
    const started = performance.now();
    try {
      const res = await fetch(due.endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Omniport-Webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        // @ts-expect-error undici's option on Node's fetch: the dial-time address check
        dispatcher: outboundAgent(this.opts.allowPrivateUrls),
      });
      const snippet = await readSnippet(res);
      return { statusCode: res.status, durationMs: Math.round(performance.now() - started), responseSnippet: snippet, error: null };
    } catch (err) {
      return { statusCode: null, durationMs: Math.round(performance.now() - started), responseSnippet: null, error: describe(err, this.opts.timeoutMs) };
    }
  }

  private outcome(due: DueDelivery, attempt: AttemptRecord): AttemptOutcome {
    const status = attempt.statusCode;
    if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
    const { endpoint } = due;
    const disable = (reason: string): AttemptOutcome => ({
      kind: 'disable',
      reason,
      event: { projectId: endpoint.projectId, type: 'webhook_endpoint.disabled', payload: { id_webhook_endpoint: endpoint.id, url: endpoint.url, reason } },
    });
    if (status === 410) return disable('the receiver answered 410 Gone');
    if (endpoint.failingSince && Date.now() - endpoint.failingSince.getTime() >= this.opts.disableAfterMs) {
      return disable(`every delivery failed for ${Math.round(this.opts.disableAfterMs / 86_400_000)} days`);
    }
    const done = due.delivery.attempts + 1;
    if (done > this.opts.retrySchedule.length) return { kind: 'failed' };
    return { kind: 'retry', at: new Date(Date.now() + jitter(this.opts.retrySchedule[done - 1]!)) };
  }
}

async function readSnippet(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8');
}

/** Why an attempt got no answer, in words that name no internal address. */
function describe(err: unknown, timeoutMs: number): string {
  if (isBlockedAddress(err)) return 'the address is not public (private, loopback and link-local addresses are refused)';
  const e = err as { name?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = e?.cause?.code;
  return code ? `could not connect (${code})` : 'could not connect';
}
