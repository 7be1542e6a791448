import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The process's metrics, served at GET /metrics in Prometheus's text format. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'omniport_' });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'omniport_http_request_duration_seconds',
  help: 'HTTP requests served, by method, route (its pattern, "unmatched" for unknown paths) and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: seconds,
  registers: [registry],
});

export const providerCalls = new Counter({
  name: 'omniport_provider_calls_total',
  help: 'Calls to providers (retries inside one call included in it), by provider, method, final status (HTTP status or error code) and rate-limit outcome (none, waited, refused)',
  labelNames: ['provider', 'method', 'status', 'rate_limit'] as const,
  registers: [registry],
});

export const providerCallDuration = new Histogram({
  name: 'omniport_provider_call_duration_seconds',
  help: 'Duration of provider calls, waits for rate limits and retries included',
  labelNames: ['provider', 'method'] as const,
  buckets: seconds,
  registers: [registry],
});

export const syncJobDuration = new Histogram({
  name: 'omniport_sync_job_duration_seconds',
  help: 'Sync jobs (one slice of a run of one stream), by stream and outcome (done, continued, waiting, skipped, failed)',
  labelNames: ['stream', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const syncRecords = new Counter({
  name: 'omniport_sync_records_total',
  help: 'Records read by sync runs that completed, by stream',
  labelNames: ['stream'] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'omniport_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (delivered, retry, failed, disable)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Jobs in the queue by state; read from the database when scraped. */
type QueueDepthSource = () => Promise<{ queue: string; state: string; count: number }[]>;
let queueDepthSource: QueueDepthSource | undefined;

export function setQueueDepthSource(source: QueueDepthSource | undefined): void {
  queueDepthSource = source;
}

new Gauge({
  name: 'omniport_queue_jobs',
  help: 'Jobs in the pg-boss queues, by queue and state (created, retry, active)',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!queueDepthSource) return;
    try {
      for (const row of await queueDepthSource()) this.set({ queue: row.queue, state: row.state }, row.count);
    } catch {
      // The database is away: the scrape still answers, without this gauge.
    }
  },
});
