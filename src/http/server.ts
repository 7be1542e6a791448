import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../services';
import rateLimit from '@fastify/rate-limit';
import compress from '@fastify/compress';
import { AppError } from '../core/errors';
import { registerApiKeyAuth } from './auth';
import { FailedAuthLimit } from './failed-auth-limit';
import type { TrustProxy } from '../config';
import { frameworkErrorHandler, registerTextGuard } from './input-guards';
import { errorHandler, notFoundHandler } from './errors';
import { authRoutes } from './routes/auth';
import { connectionRoutes } from './routes/connections';
import { healthRoutes } from './routes/health';
import { linkedUserRoutes } from './routes/linked-users';
import { providerRoutes } from './routes/providers';
import { syncRoutes } from './routes/sync';
import { ticketingRoutes } from './routes/ticketing';
import { crmRoutes } from './routes/crm';
import { fieldMappingRoutes } from './routes/field-mapping';
import type { JobRunner } from '../jobs/runner';
import { magicLinkRoutes } from './routes/magic-links';
import { oauthAppRoutes } from './routes/oauth-apps';
import { connectPageRoutes } from '../connect/routes';
import { passthroughRoutes } from './routes/passthrough';
import { registerIdempotency } from './idempotency';
import { registerAuditLog } from './audit';
import { registerOperationIds } from './operation-ids';
import { auditLogRoutes } from './routes/audit-log';
import { providerWebhookRoutes } from './routes/provider-webhooks';
import { webhookRoutes } from './routes/webhooks';
import { eventRoutes } from './routes/events';
import { apiKeySecurity, finishDocument, type OpenApiDocument } from './openapi';
import { publicBase } from '../connect/routes';
import { dashboardRoutes } from '../dashboard/routes';
import { registerObservability } from '../observability/http';
import { sharedRateLimitStore } from './shared-rate-limit';
import { isDispatched } from './dispatch';
import { collectRoutes } from '../mcp/tools';
import { registerMcp } from '../mcp/http';


/** A request URL fit for a log line: the magic link's secret, OAuth codes and states are masked. */
export function maskUrl(url: string): string {
  return url.replace(/\/connect\/ml_[A-Za-z0-9]+/, '/connect/ml_[redacted]').replace(/([?&](?:code|state|r)=)[^&]*/g, '$1[redacted]');
}

/** Fastify's request serializer, with the URL masked. */
function withMaskedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger;
  const base = logger as { serializers?: Record<string, unknown> };
  return {
    ...logger,
    serializers: {
      ...base.serializers,
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: maskUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  } as FastifyServerOptions['logger'];
}

export interface ServerOptions {
  services: Services;
  jobs: JobRunner;
  bodyLimitBytes: number;
  /** Requests per minute and API key; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** Requests without a valid API key per minute and source address; 0 disables the limit. */
  authFailuresPerMinute: number;
  /** Fastify's `trustProxy` (OMNIPORT_TRUST_PROXY): which proxies' X-Forwarded-For / -Proto / -Host are believed. */
  trustProxy?: TrustProxy;
  logger: FastifyServerOptions['logger'];
  publicUrl?: string;
  /** Bearer token for GET /metrics (without it, loopback clients only). */
  metricsToken?: string;
}

export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withMaskedUrls(opts.logger),
    bodyLimit: opts.bodyLimitBytes,
    requestIdHeader: false, // read by genReqId, which validates it
    // An incoming request id is kept only when it is a plausible id, so logs cannot be forged.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: opts.trustProxy ?? false,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  // Every body we accept is JSON (uploads arrive as URLs or base64): anything else is a 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerObservability(app, { metricsToken: opts.metricsToken });

  // Answers over 1 KB compressed when the client accepts it (br, gzip or deflate): a page of 1,000 tickets
  // is about 1 MB of JSON. Brotli at the plugin's quality 4 costs little CPU for a large gain.
  await app.register(compress, { threshold: 1024 });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Omniport',
        version: '0.1.0',
        description: 'One REST interface over ticketing and CRM products. See README.md for a walkthrough.',
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
      },
      servers: opts.publicUrl ? [{ url: opts.publicUrl }] : [],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: apiKeySecurity,
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => finishDocument(jsonSchemaTransformObject(document) as OpenApiDocument) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  // swagger-ui registers its own routes: they are public documentation.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), public: true };
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true },
    // The plugin's policy for its own scripts, framed by nobody, usable over plain http too; the UI (React) sets
    // inline styles on its elements, so styles may be inline, never scripts.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';")
        .replace(/\s*upgrade-insecure-requests;/, ''),
  });
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/docs')) return;
    reply.headers({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  });

  registerOperationIds(app);
  registerApiKeyAuth(app, opts.services.apiKeys, new FailedAuthLimit(opts.authFailuresPerMinute));
  registerTextGuard(app);
  if (opts.rateLimitPerMinute > 0) {
    // After authentication (preHandler), so the budget belongs to the API key, not to an address.
    await app.register(rateLimit, {
      hook: 'preHandler',
      max: opts.rateLimitPerMinute,
      timeWindow: 60_000,
      store: sharedRateLimitStore(opts.services.database.db, opts.rateLimitPerMinute, 60_000),
      // The IETF draft's RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset (and Retry-After on a 429).
      enableDraftSpec: true,
      // A database that cannot count does not refuse requests (they fail on their own if it is really gone).
      skipOnError: true,
      // A tool call of an AI agent counts once: its MCP message, not the route it is dispatched to as well.
      allowList: (request) => !request.access || isDispatched(request),
      keyGenerator: (request) => request.access?.apiKeyId ?? request.ip,
      errorResponseBuilder: (_request, context) =>
        new AppError('rate_limited', `more than ${context.max} requests a minute with this API key (the server's OMNIPORT_RATE_LIMIT_PER_MINUTE); retry in ${context.after}`, {}, {
          'retry-after': String(Math.ceil(context.ttl / 1000)),
        }),
    });
  }

  // After authentication and the rate limit (preHandler hooks run in this order), before any route.
  registerIdempotency(app, opts.services.idempotency);
  registerAuditLog(app, opts.services.audit);
  // The MCP tools are made from the routes as registered (src/mcp/tools.ts).
  const routes = collectRoutes(app);

  // Without OMNIPORT_PUBLIC_URL, the server is the address the document was asked from.
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (request) => {
    const doc = app.swagger();
    return opts.publicUrl ? doc : { ...doc, servers: [{ url: publicBase(request, undefined) }] };
  });

  const deps = { services: opts.services };
  await app.register(healthRoutes, deps);
  await app.register(authRoutes, deps);
  await app.register(linkedUserRoutes, deps);
  await app.register(connectionRoutes, deps);
  await app.register(providerRoutes, deps);
  await app.register(ticketingRoutes, deps);
  await app.register(crmRoutes, deps);
  await app.register(fieldMappingRoutes, deps);
  await app.register(passthroughRoutes, deps);
  await app.register(auditLogRoutes, deps);
  await app.register(webhookRoutes, deps);
  await app.register(providerWebhookRoutes, deps);
  await app.register(eventRoutes, deps);
  await app.register(syncRoutes, { ...deps, jobs: opts.jobs });
  registerMcp(app, opts.services, routes);
  await app.register(magicLinkRoutes, { ...deps, publicUrl: opts.publicUrl });
  await app.register(oauthAppRoutes, { ...deps, publicUrl: opts.publicUrl });
  // The hosted connect page and the OAuth callback: public (config.public on each route), HTML.
  await app.register(connectPageRoutes, { ...deps, publicUrl: opts.publicUrl, prefix: '/connect' });
  // The operator dashboard: signed in with a session, not an API key header (see src/dashboard/routes.ts).
  await app.register(dashboardRoutes, { ...deps, jobs: opts.jobs, publicUrl: opts.publicUrl, prefix: '/dashboard' });
  return app;
}
