/**
 * GET /metrics after a sync, a ticket create and a webhook delivery; the trace of a ticket create (in-memory
 * exporter) continues the caller's traceparent and holds the provider call as a child span of the request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { startTracing, stopTracing } from '../../src/observability/tracing';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startTestServer, type TestServer } from '../support/harness';
import { waitForSync } from '../support/sync-wait';

const exporter = new InMemorySpanExporter();
let sim: ZendeskSimulator;
let server: TestServer;
let receiver: http.Server;
let delivered = 0;
let token: string;

beforeAll(async () => {
  await startTracing({ exporter });
  sim = await startZendeskSimulator();
  sim.seedTickets(3, { commentsPerTicket: 1 });
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  server = await startTestServer({ env: { OMNIPORT_WEBHOOK_POLL_MS: '100' } });
  const hook = await server.call('POST', '/webhooks', { body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['*'] } });
  expect(hook.status).toBe(201);
  const cred = sim.credentials[0]!;
  const startedAt = Date.now();
  const res = await server.call('POST', '/connections', {
    body: { provider: 'zendesk', linked_user_origin_id: 'metrics', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
  });
  expect(res.status).toBe(201);
  token = res.body.data.connection_token;
  await waitForSync(server, token, startedAt);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await sim?.close();
  receiver?.close();
  await stopTracing();
});

describe('tracing', () => {
  it('a ticket create continues the incoming traceparent and has the provider call as a child span', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    exporter.reset();
    const res = await server.call('POST', '/ticketing/tickets', {
      headers: { 'x-connection-token': token, traceparent: `00-${traceId}-${callerSpan}-01` },
      body: { name: 'Traced', description: 'a ticket with a trace' },
    });
    expect(res.status).toBe(201);
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const request = spans.find((s) => s.name === 'POST /ticketing/tickets');
    expect(request, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(request!.parentSpanContext?.spanId).toBe(callerSpan);
    const providerCalls = spans.filter((s) => s.attributes['omniport.provider'] === 'zendesk');
    expect(providerCalls.some((s) => s.name === 'zendesk POST' && s.attributes['http.response.status_code'] === 201)).toBe(true);
    for (const call of providerCalls) expect(call.parentSpanContext?.spanId).toBe(request!.spanContext().spanId);
  });
});

describe('GET /metrics', () => {
  it('serves the HTTP, provider, sync, queue and webhook series in Prometheus format', async () => {
    await server.call('GET', '/ticketing/tickets?limit=5', { headers: { 'x-connection-token': token } });
    await server.call('GET', '/no/such/path');
    const deadline = Date.now() + 30_000;
    while (delivered === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(delivered).toBeGreaterThan(0);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    const text = await res.text();
    const series = (name: string, labels: string) => new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} (\\d+(\\.\\d+)?)$`, 'm').exec(text)?.[1];
    expect(Number(series('omniport_http_request_duration_seconds_count', 'method="GET",route="/ticketing/tickets",status_code="200"'))).toBeGreaterThan(0);
    expect(series('omniport_http_request_duration_seconds_bucket', 'le="0.1",method="POST",route="/ticketing/tickets",status_code="201"')).toBeDefined();
    expect(Number(series('omniport_http_request_duration_seconds_count', 'route="unmatched",status_code="404"'))).toBeGreaterThan(0);
    expect(Number(series('omniport_provider_calls_total', 'provider="zendesk",method="GET",status="200",rate_limit="none"'))).toBeGreaterThan(0);
    expect(Number(series('omniport_provider_calls_total', 'provider="zendesk",method="POST",status="201",rate_limit="none"'))).toBeGreaterThan(0);
    expect(Number(series('omniport_provider_call_duration_seconds_count', 'provider="zendesk",method="GET"'))).toBeGreaterThan(0);
    expect(Number(series('omniport_sync_records_total', 'stream="ticketing.ticket"'))).toBeGreaterThanOrEqual(3);
    expect(Number(series('omniport_sync_job_duration_seconds_count', 'stream="ticketing.ticket",outcome="done"'))).toBeGreaterThan(0);
    expect(Number(series('omniport_webhook_delivery_attempts_total', 'outcome="delivered"'))).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE omniport_queue_jobs gauge$/m);
    expect(text).toMatch(/^omniport_process_resident_memory_bytes \d+/m);
    // The event loop's delay (issue 32: a blocked loop delays every request of the process).
    expect(text).toMatch(/^omniport_nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^omniport_nodejs_eventloop_lag_max_seconds \d/m);
  });

  it('is refused through a proxy without OMNIPORT_METRICS_TOKEN', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/OMNIPORT_METRICS_TOKEN/);
  });
});
