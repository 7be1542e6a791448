import { SpanKind, SpanStatusCode, context, propagation, trace, type Context, type Span } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';

/** The tracer every span comes from; a no-op until tracing is started. */
export const tracer = () => trace.getTracer('omniport');

let provider: { shutdown(): Promise<void> } | undefined;

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set, or with the
 * exporter given (tests). Off otherwise: spans are then no-ops that cost next to nothing. The SDK is imported
 * only when tracing is on.
 */
export async function startTracing(opts: { exporter?: SpanExporter; env?: NodeJS.ProcessEnv } = {}): Promise<boolean> {
  const env = opts.env ?? process.env;
  if (provider) return true;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!opts.exporter && (!endpoint || env.OTEL_SDK_DISABLED === 'true')) return false;
  const sdk = await import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  let processor;
  if (opts.exporter) processor = new sdk.SimpleSpanProcessor(opts.exporter);
  else {
    // The exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout) itself.
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new sdk.BatchSpanProcessor(new OTLPTraceExporter());
  }
  const nodeProvider = new sdk.NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'omniport' }),
    spanProcessors: [processor],
  });
  // Installs the AsyncLocalStorage context manager and the W3C trace-context propagator (traceparent).
  nodeProvider.register();
  provider = nodeProvider;
  return true;
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
}

/** The context of an incoming request: its `traceparent` continued when it sent one. */
export function incomingContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/** Runs `fn` inside a client span (a call out of Omniport), recording its failure. */
export function withClientSpan<T>(name: string, attributes: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}
