import { AppError } from '../core/errors';
import { providerCallDuration, providerCalls } from './metrics';
import { withClientSpan } from './tracing';

/** What the client tells about one call while making it. */
export interface ProviderCallRecord {
  /** Rate-limit answers the client waited out before its final answer. */
  rateLimitWaits: number;
}

/** One call to a provider, as a metric and a span (child of the request or job that made it). */
export function observeProviderCall<T extends { status: number }>(provider: string, method: string, call: (record: ProviderCallRecord) => Promise<T>): Promise<T> {
  const record: ProviderCallRecord = { rateLimitWaits: 0 };
  const started = performance.now();
  return withClientSpan(`${provider} ${method}`, { 'omniport.provider': provider, 'http.request.method': method }, async (span) => {
    let status = 'error';
    let refused = false;
    try {
      const res = await call(record);
      status = String(res.status);
      span.setAttribute('http.response.status_code', res.status);
      return res;
    } catch (err) {
      status = failureStatus(err);
      refused = err instanceof AppError && err.code === 'provider_rate_limited';
      throw err;
    } finally {
      const rateLimit = refused ? 'refused' : record.rateLimitWaits > 0 ? 'waited' : 'none';
      span.setAttribute('omniport.rate_limit', rateLimit);
      providerCalls.inc({ provider, method, status, rate_limit: rateLimit });
      providerCallDuration.observe({ provider, method }, (performance.now() - started) / 1000);
    }
  });
}

/** The provider's HTTP status when it answered, otherwise our error code (provider_timeout, outcome_unknown …). */
function failureStatus(err: unknown): string {
  if (!(err instanceof AppError)) return 'error';
  const providerStatus = err.details.provider_status;
  return typeof providerStatus === 'number' ? String(providerStatus) : err.code;
}
