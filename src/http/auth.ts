import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors';
import type { AccessContext } from '../core/access';
import type { ApiKeyService } from '../core/api-keys';
import { sendError } from './errors';
import type { FailedAuthLimit } from './failed-auth-limit';

declare module 'fastify' {
  interface FastifyRequest {
    access?: AccessContext;
  }
  interface FastifyContextConfig {
    /** Routes open without an API key (health, docs, hosted connect page, OAuth callback). */
    public?: boolean;
  }
}

/** The key presented as `x-api-key: <key>` or `Authorization: Bearer <key>`. */
export function presentedApiKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header) return header.trim();
  const authorization = request.headers.authorization;
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Authenticates every request except public routes and unknown routes (which answer 404). Failed attempts count
 * against the source address's budget (`limit`): past it they are answered 429, while a valid key is still served.
 */
export function registerApiKeyAuth(app: FastifyInstance, apiKeys: ApiKeyService, limit: FailedAuthLimit) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public || request.is404) return;
    const refuse = async (message: string) =>
      sendError(request, reply, await limit.refusal([request.ip], new AppError('unauthorized', message), 'requests without a valid API key (the server\'s OMNIPORT_AUTH_FAILURES_PER_MINUTE)'));
    const presented = presentedApiKey(request);
    if (!presented) return refuse('an API key is required (x-api-key or Authorization: Bearer)');
    const access = await apiKeys.authenticate(presented);
    if (!access) return refuse('invalid or revoked API key');
    request.access = access;
  });
}

/** The caller's access context; only on authenticated routes. */
export function accessOf(request: FastifyRequest): AccessContext {
  if (!request.access) throw new AppError('unauthorized', 'an API key is required');
  return request.access;
}
