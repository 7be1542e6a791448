import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * The MCP tools are the REST routes: each tool is one documented operation of the unified API, its input
 * schema the route's own zod schemas (path parameters, query, body) merged into one object, its output
 * schema the route's success answer. Nothing is declared twice: a field added to a route is a field of its
 * tool, with the same description and the same validation (the call is dispatched to the route itself).
 */

/** Where an argument of a tool goes in the dispatched request. */
type ArgPlace = 'params' | 'query' | 'body';

export interface ToolSpec {
  /** Stable: `<vertical>_<verb>_<object>` (ticketing_create_ticket, crm_update_deal, sync_get_status …). */
  name: string;
  /** ticketing or crm; null for the tools every connection has (sync, passthrough). */
  vertical: 'ticketing' | 'crm' | null;
  /** The unified object type (`ticketing.ticket`), when the tool acts on one. */
  objectType?: string;
  /** The provider capability this tool needs (`create`, `batch_create`, `update`). */
  capability?: string;
  /** Changes the customer's data: hidden in read-only mode, takes a required idempotency key. */
  mutates: boolean;
  /** Sends Idempotency-Key (every POST and PATCH). */
  idempotent: boolean;
  passthrough: boolean;
  method: string;
  url: string;
  /** The route's audit action, if it has one (named in the tool call's audit entry). */
  auditAction?: string;
  summary: string;
  routeDescription?: string;
  /** Argument name → where it goes; `items` is a batch's body array. */
  places: Record<string, ArgPlace>;
  bodyIsArray: boolean;
  inputShape: Record<string, z.ZodType>;
  outputSchema: Record<string, unknown>;
}

export interface CollectedRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
  config: RouteOptions['config'];
}

/** Records every route as registered (after the other onRoute hooks changed its schema). */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length !== 1 || !route.schema) return;
    routes.push({ method: methods[0]!, url: route.url, schema: route.schema as Record<string, unknown>, config: route.config });
  });
  return routes;
}

const singular = (plural: string) => (plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, ''));
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');

/** The tool of a route, or undefined for routes agents do not get (control plane, deprecated aliases). */
function toolName(operationId: string): { name: string; vertical: ToolSpec['vertical']; objects?: string; verb: string } | undefined {
  const parts = operationId.split('.');
  const [head] = parts;
  if (head === 'sync' || head === 'passthrough') return { name: `${head}_${snake(parts[1]!)}`, vertical: null, verb: parts[1]! };
  if ((head !== 'ticketing' && head !== 'crm') || parts.length !== 3) return undefined;
  const [, objects, verb] = parts as [string, string, string];
  if (verb.endsWith('ByQueryId')) return undefined; // the Panora client's `?id=` alias of the same operation
  const name =
    verb === 'list' ? `${head}_list_${snake(objects)}` : verb === 'createBatch' ? `${head}_create_${snake(objects)}_batch` : `${head}_${snake(verb)}_${snake(singular(objects))}`;
  return { name, vertical: head, objects, verb };
}

const CAPABILITY: Record<string, string> = { create: 'create', createBatch: 'batch_create', update: 'update' };

/** Objects whose properties are all known to the JSON Schema, made lenient: an answer may carry more. */
function lenient(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lenient);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (!(key === 'additionalProperties' && value === false)) out[key] = lenient(value);
  return out;
}

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // Draft 7: the dialect the SDK's client validates structured answers with.
  let json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  // A named schema (`.meta({ id })`, the bare Ticket of a PATCH) is a $ref at the root: MCP wants the object itself.
  const ref = typeof json.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  if (ref) {
    const definitions = json.definitions as Record<string, Record<string, unknown>>;
    json = { ...definitions[ref], definitions };
  }
  return io === 'output' ? (lenient(json) as Record<string, unknown>) : json;
}

const objectShape = (schema: unknown): Record<string, z.ZodType> | undefined => {
  if (schema instanceof z.ZodOptional) return objectShape(schema.unwrap());
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
};

/** The tools of the unified API, from its registered routes. */
export function buildToolSpecs(routes: CollectedRoute[]): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const route of routes) {
    const schema = route.schema as {
      operationId?: string;
      hide?: boolean;
      deprecated?: boolean;
      summary?: string;
      description?: string;
      params?: unknown;
      querystring?: unknown;
      body?: unknown;
      response?: Record<string, unknown>;
    };
    if (!schema.operationId || schema.hide || schema.deprecated) continue;
    const named = toolName(schema.operationId);
    if (!named) continue;
    const places: Record<string, ArgPlace> = {};
    const inputShape: Record<string, z.ZodType> = {};
    // Path parameters first, then the query, then the body: a body field repeating one of them (the `id` a
    // PATCH body may carry, "must be the addressed id") is the same value and not asked twice.
    const add = (shape: Record<string, z.ZodType> | undefined, place: ArgPlace) => {
      for (const [key, field] of Object.entries(shape ?? {})) {
        if (places[key]) continue;
        places[key] = place;
        inputShape[key] = field;
      }
    };
    const params = { ...objectShape(schema.params) };
    // The routes' `:id` says nothing of itself (idParams is shared, and not changed here): the tool says what it is.
    if (params.id && !params.id.description && named.objects) {
      params.id = params.id.describe(`The ${singular(named.objects)}’s Omniport id (the \`id\` of list answers, not the provider’s remote_id).`);
    }
    add(params, 'params');
    add(objectShape(schema.querystring), 'query');
    const bodyIsArray = schema.body instanceof z.ZodArray;
    if (bodyIsArray) add({ items: schema.body as z.ZodType }, 'body');
    else if (schema.body !== undefined) {
      const shape = objectShape(schema.body);
      if (!shape) throw new Error(`${route.method} ${route.url}: a body that is not an object cannot become tool arguments`);
      add(shape, 'body');
    }
    const success = Object.entries(schema.response ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
    if (!(success instanceof z.ZodType)) throw new Error(`${route.method} ${route.url}: no success schema for its tool's output`);
    const objectType = named.objects ? `${named.vertical}.${singular(named.objects)}` : undefined;
    const write = route.method !== 'GET';
    specs.push({
      name: named.name,
      vertical: named.vertical,
      objectType,
      capability: CAPABILITY[named.verb],
      // A manual sync reads the provider: allowed to read-only agents.
      mutates: write && route.url !== '/sync',
      idempotent: write,
      passthrough: route.url === '/passthrough',
      method: route.method,
      url: route.url,
      auditAction: route.config?.audit?.action,
      summary: schema.summary ?? named.name,
      routeDescription: schema.description,
      places,
      bodyIsArray,
      inputShape,
      outputSchema: jsonSchemaOf(success, 'output'),
    });
  }
  const names = new Set<string>();
  for (const spec of specs) {
    if (names.has(spec.name)) throw new Error(`two routes make the MCP tool ${spec.name}`);
    names.add(spec.name);
  }
  return specs.sort((a, b) => a.name.localeCompare(b.name));
}
