import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import { sendError } from './errors';

/**
 * A budget of failed authentications per source address: requests to authenticated routes answered 401
 * without an API key being accepted (none sent, or a wrong or revoked one) are counted; past
 * `perMinute` of them within a minute, that address's requests to authenticated routes are answered 429
 * with Retry-After before any key is looked up, until the minute is over. Requests with a valid key
 * never count, so a client that authenticates is not slowed by this budget (the per-key budget applies).
 * Counted in memory, per process, like the per-key budget.
 */
export function registerFailedAuthLimit(app: FastifyInstance, perMinute: number) {
  if (perMinute <= 0) return;
  const failures = new RateLimiterMemory({ points: perMinute, duration: 60 });
  const guarded = (request: { routeOptions: { config: { public?: boolean } }; is404: boolean }) =>
    !request.routeOptions.config.public && !request.is404;

  // Registered before the API key check, so an address over its budget costs no key lookup.
  app.addHook('onRequest', async (request, reply) => {
    if (!guarded(request)) return;
    const seen = await failures.get(request.ip);
    if (!seen || seen.consumedPoints < perMinute) return;
    const retryAfter = Math.max(1, Math.ceil(seen.msBeforeNext / 1000));
    return sendError(
      request,
      reply,
      new AppError('rate_limited', `too many requests without a valid API key from this address (the server's OMNIPORT_AUTH_FAILURES_PER_MINUTE); retry in ${retryAfter} s`, {}, { 'retry-after': String(retryAfter) }),
    );
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && !request.access && guarded(request)) await failures.penalty(request.ip, 1);
  });
}
