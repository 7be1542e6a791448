import { timingSafeEqual } from 'node:crypto';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors';
import { httpRequestDuration, registry } from './metrics';
import { runWithRequestContext } from './request-context';
import { incomingContext, tracer } from './tracing';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * Per request: the request id carried into what it starts, a server span (continuing an incoming
 * `traceparent`), the latency histogram; and GET /metrics.
 */
export function registerObservability(app: FastifyInstance, opts: { metricsToken?: string }): void {
  // Callback style: the rest of the request (hooks, handler) runs inside these async contexts.
  app.addHook('onRequest', (request, _reply, done) => {
    const span = tracer().startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': request.routeOptions.url ?? 'unmatched', 'omniport.request_id': String(request.id) },
    }, incomingContext(request.headers));
    spans.set(request, span);
    const traced = trace.setSpan(incomingContext(request.headers), span);
    runWithRequestContext({ requestId: String(request.id) }, () => context.with(traced, done));
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (!metricsAllowed(request, opts.metricsToken)) {
      throw new AppError(
        'unauthorized',
        opts.metricsToken ? 'GET /metrics needs Authorization: Bearer <OMNIPORT_METRICS_TOKEN>' : 'GET /metrics is served to loopback clients only; set OMNIPORT_METRICS_TOKEN to scrape it from elsewhere',
      );
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

/**
 * With OMNIPORT_METRICS_TOKEN: the bearer token, from anywhere. Without: only a client on this machine, and
 * not through a proxy (a proxy on the same machine would make every client look local).
 */
function metricsAllowed(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const sent = Buffer.from(/^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }
  const address = request.socket.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return loopback && !request.headers['x-forwarded-for'] && !request.headers.forwarded;
}
