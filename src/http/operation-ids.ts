import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

/** Last path segments that name an action rather than a resource, and the method name they become. */
const ACTIONS: Record<string, string> = {
  batch: 'createBatch',
  'generate-apikey': 'generateApiKey',
  'rotate-secret': 'rotateSecret',
  retry: 'retry',
  define: 'define',
  map: 'map',
  create: 'create',
  status: 'getStatus',
  types: 'listTypes',
  'remote-fields': 'listRemoteFields',
};

/** Resources there is one of per project: GET reads it, PATCH changes it. */
const SINGLETONS = new Set(['project', 'connect-settings', 'health', 'ready']);

/** Where the rule would name an operation less well than a person. */
const NAMED: Record<string, string> = {
  'POST /sync': 'sync.start',
  'POST /passthrough': 'passthrough.send',
  // The Panora client's paths (deprecated aliases).
  'POST /linked-users/create': 'linkedUsers.createByPanoraPath',
  'GET /linked-users/single': 'linkedUsers.getByOriginId',
  'GET /magic-link/single': 'magicLink.getByQueryId',
  'GET /field-mapping/attribute': 'fieldMapping.attributes.listByPanoraPath',
};

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The operationId of a route, from its method and path: `<segments>.<verb>` — `ticketing.tickets.list`,
 * `crm.deals.update`, `webhooks.rotateSecret` — so generated clients get methods named like the API.
 */
export function operationIdOf(method: string, url: string): string {
  const named = NAMED[`${method} ${url}`];
  if (named) return named;
  const parts = url.split('/').filter(Boolean);
  const last = parts[parts.length - 1]!;
  const item = last.startsWith(':');
  const segments = parts.filter((p) => !p.startsWith(':'));
  const tail = segments[segments.length - 1]!;
  if (!item && ACTIONS[tail]) return [...segments.slice(0, -1).map(camel), ACTIONS[tail]].join('.');
  const resource = segments.map(camel);
  if (SINGLETONS.has(tail)) return [...resource, method === 'GET' ? 'get' : 'update'].join('.');
  const verb = { GET: item ? 'get' : 'list', POST: 'create', PUT: 'set', PATCH: 'update', DELETE: 'delete' }[method] ?? method.toLowerCase();
  // The Panora client's `?id=` form of an item route.
  const byQuery = !item && (method === 'PATCH' || method === 'DELETE') ? 'ByQueryId' : '';
  return [...resource, verb + byQuery].join('.');
}

/**
 * Names every documented operation (operationId), marks the public ones as needing no API key in the
 * OpenAPI document, and makes query strings strict. Registered before the routes.
 */
export function registerOperationIds(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as { hide?: boolean; operationId?: string };
    if (schema.hide || route.url.startsWith('/docs')) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length !== 1) return;
    // An unknown query parameter is a 400 naming it, like an unknown body field (`?status=OPEN` on a list
    // that has no such filter must not answer everything, unfiltered).
    const querystring = (route.schema as { querystring?: unknown } | undefined)?.querystring;
    route.schema = {
      ...schema,
      operationId: schema.operationId ?? operationIdOf(methods[0]!, route.url),
      ...(route.config?.public ? { security: [] } : {}),
      ...(querystring instanceof z.ZodObject ? { querystring: querystring.strict() } : {}),
    };
  });
}
