/**
 * The OpenAPI document as a product: what zod and @fastify/swagger produce, finished so that readers and
 * generators get one schema per model, the connection token as a security scheme, examples and a
 * description on every operation, and integers without zod's ±2^53 bounds.
 */
import { STATUS_CODES } from 'node:http';
import { errorCodes } from '../core/errors';

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  example?: unknown;
  default?: unknown;
};
interface Operation {
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema; example?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema; example?: unknown }> }>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

const CONNECTION_TOKEN = 'x-connection-token';
const REF = '#/components/schemas/';
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The API key alone, and the API key with the connection token, as OpenAPI security requirements. */
export const apiKeySecurity: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
const withConnectionToken = apiKeySecurity.map((r) => ({ ...r, connectionToken: [] }));

export function finishDocument(doc: OpenApiDocument): OpenApiDocument {
  const out = structuredClone(doc);
  mergeInputSchemas(out);
  walk(out, dropSafeIntegerBounds);
  out.components = {
    ...out.components,
    securitySchemes: {
      ...out.components?.securitySchemes,
      connectionToken: {
        type: 'apiKey',
        in: 'header',
        name: CONNECTION_TOKEN,
        description: 'The connection token of a linked user’s connection (from the connection.created event or GET /connections).',
      },
    },
  };
  for (const item of Object.values(out.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const token = op.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === CONNECTION_TOKEN);
      if (token) {
        op.parameters = op.parameters!.filter((p) => p !== token);
        if (op.parameters.length === 0) delete op.parameters;
        // An optional token (calls addressed by an object id) is checked when sent.
        op.security = token.required ? withConnectionToken : [...apiKeySecurity, ...withConnectionToken];
      }
      addExamples(op, out.components?.schemas ?? {});
      op.description = describe(op, token ? (token.required ? 'required' : 'optional') : 'none');
    }
  }
  return out;
}

/** Applies `fn` to every object in the document, depth first. */
function walk(value: unknown, fn: (o: Json) => void) {
  if (Array.isArray(value)) value.forEach((v) => walk(v, fn));
  else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) walk(v, fn);
    fn(value as Json);
  }
}

/** zod states every integer's range as ±(2^53 − 1): noise for readers and generators. */
function dropSafeIntegerBounds(o: Json) {
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
}

/**
 * fastify-type-provider-zod documents every named schema twice, as read (`X`) and as written (`XInput`).
 * Where the two are the same (all but schemas with defaults or transforms), `XInput` is folded into `X`;
 * one left unused is dropped.
 */
function mergeInputSchemas(doc: OpenApiDocument) {
  const schemas = doc.components?.schemas;
  if (!schemas) return;
  const renames = new Map<string, string>();
  const rename = (s: unknown) => JSON.stringify(s).replace(/#\/components\/schemas\/([A-Za-z0-9_]+)Input"/g, (m, id: string) => (schemas[id] ? `${REF}${id}"` : m));
  for (const id of Object.keys(schemas)) {
    const base = id.endsWith('Input') ? id.slice(0, -'Input'.length) : undefined;
    if (base && schemas[base] && rename(schemas[id]) === rename(schemas[base])) renames.set(id, base);
  }
  const text = JSON.stringify(doc).replace(/"#\/components\/schemas\/([A-Za-z0-9_]+)"/g, (m, id: string) => (renames.has(id) ? `"${REF}${renames.get(id)}"` : m));
  const merged = JSON.parse(text) as OpenApiDocument;
  for (const id of renames.keys()) delete merged.components!.schemas![id];
  // Input variants nothing refers to (dropping one may leave another unreferenced: repeat until none).
  const all = merged.components!.schemas!;
  const used = JSON.stringify({ ...merged, components: { ...merged.components, schemas: undefined } });
  const referenced = (id: string) => used.includes(`"${REF}${id}"`) || Object.entries(all).some(([other, s]) => other !== id && JSON.stringify(s).includes(`"${REF}${id}"`));
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const id of Object.keys(all)) {
      if (id.endsWith('Input') && !referenced(id)) {
        delete all[id];
        dropped = true;
      }
    }
  }
  Object.assign(doc, merged);
}

function describe(op: Operation, token: 'required' | 'optional' | 'none'): string {
  const parts = [op.description ?? `${op.summary ?? ''}.`.replace(/\.\.$/, '.')];
  if (op.security && op.security.length === 0) parts.push('Public: no API key needed.');
  else if (token === 'required') parts.push('Needs the API key (x-api-key or Authorization: Bearer) and the connection token (x-connection-token).');
  else if (token === 'optional') parts.push('Needs the API key (x-api-key or Authorization: Bearer); a connection token, if sent, must be the object’s connection.');
  else parts.push('Needs the API key (x-api-key or Authorization: Bearer).');
  const [status, answer] = Object.entries(op.responses ?? {}).find(([code]) => /^2\d\d$/.test(code)) ?? [];
  const props = answer?.content?.['application/json']?.schema?.properties ?? {};
  if (status === '204') parts.push('Answers 204 with no body.');
  else if ('next_cursor' in props) parts.push(`Answers ${status} with a page: the envelope {message, statusCode, data} with next_cursor and prev_cursor beside data.`);
  else if ('statusCode' in props && 'data' in props) parts.push(`Answers ${status} with the envelope {message, statusCode, data}.`);
  else if (status) parts.push(`Answers ${status} with the object itself (no envelope).`);
  parts.push('Errors have the shape {statusCode, error, message, details: {code, request_id}}.');
  if (op.deprecated) parts.push('Deprecated: kept for clients migrating from Panora; new code should use the form named in the summary.');
  return parts.join(' ');
}

function addExamples(op: Operation, schemas: Record<string, Schema>) {
  const body = op.requestBody?.content?.['application/json'];
  if (body?.schema && body.example === undefined) body.example = exampleOf(body.schema, schemas, 'body');
  for (const p of op.parameters ?? []) if (p.example === undefined && p.schema && (p.required || p.in === 'path')) p.example = exampleOf(p.schema, schemas, p.name);
  for (const [code, res] of Object.entries(op.responses ?? {})) {
    const json = res.content?.['application/json'];
    if (json?.schema && json.example === undefined) json.example = exampleOf(json.schema, schemas, /^2/.test(code) ? 'answer' : 'error', code);
  }
}

const EXAMPLE_ID = '5b1f3c2e-8d4a-4c6b-9e7f-2a1d0c3b4e5f';
const EXAMPLE_TIME = '2026-11-24T09:30:00.000Z';

/** An example value valid for `schema`, named by its property where the schema says little. */
function exampleOf(schema: Schema, schemas: Record<string, Schema>, name: string, status?: string, depth = 0): unknown {
  if (schema.$ref) return exampleOf(schemas[schema.$ref.slice(REF.length)] ?? {}, schemas, name, status, depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (name === 'code' && schema.enum && status) return errorCodeFor(status, schema.enum);
  if (name === 'statusCode' && status) return statusOf(status);
  if (schema.enum) return schema.enum.find((v) => v !== null) ?? null;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return exampleOf(branches.find((b) => !(b.nullable && b.enum?.[0] === null)) ?? branches[0]!, schemas, name, status, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, schemas, name, status, depth)));
  switch (schema.type) {
    case 'object': {
      if (depth > 6) return {};
      const out: Record<string, unknown> = {};
      for (const [key, s] of Object.entries(schema.properties ?? {})) out[key] = exampleOf(s, schemas, key, status, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items ?? {}, schemas, singular(name), status, depth + 1));
    case 'integer':
    case 'number':
      return Math.min(Math.max(name === 'limit' ? 50 : 1, schema.minimum ?? 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return name !== 'include_deleted';
    case 'string':
      return stringExample(schema, name, status);
    default:
      return schema.nullable ? null : {};
  }
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

function stringExample(schema: Schema, name: string, status?: string): string {
  if (schema.format === 'date-time' || /(_at|_date|_after|_before)$/.test(name)) return EXAMPLE_TIME;
  if (schema.format === 'email' || /email/.test(name)) return 'ada@example.com';
  if (schema.format === 'uri' || /url$/.test(name)) return name === 'base_url' ? 'https://acme.zendesk.com' : 'https://example.com/files/report.pdf';
  if (schema.format === 'uuid' || /(^id|_id|Id)$/.test(name) || name === 'id' || name === 'uploader' || name === 'assigned_to') return EXAMPLE_ID;
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return ['1234.56', 'EUR', 'tier', EXAMPLE_TIME, EXAMPLE_ID, 'example'].find((v) => pattern.test(v)) ?? 'example';
  }
  if (name === 'message') return status && !/^2/.test(status) ? (ERROR_MESSAGES[statusOf(status)] ?? STATUS_CODES[statusOf(status)]!) : 'Done';
  if (name === 'error') return STATUS_CODES[status && !/^2/.test(status) ? statusOf(status) : 400]!;
  if (name === 'cursor' || name.endsWith('_cursor')) return 'eyJzIjoxMDB9';
  const value = `Example ${name.replace(/_/g, ' ')}`;
  return value.slice(0, schema.maxLength ?? value.length).padEnd(schema.minLength ?? 0, 'x');
}

/**
 * The status an example answer carries: the declared one, or for a class (`4XX`, `5XX`; any case) its most
 * common member — 400 for invalid input, 502 for a provider that failed.
 */
function statusOf(status: string): number {
  if (/^\d{3}$/.test(status)) return Number(status);
  return /^4/.test(status) ? 400 : /^5/.test(status) ? 502 : 200;
}

const ERROR_MESSAGES: Record<number, string> = {
  400: 'body.name: Invalid input',
  502: 'zendesk answered 500: the provider failed',
  503: 'the database does not answer',
};

/** The first error code of the example's status. */
function errorCodeFor(status: string, codes: unknown[]): unknown {
  const wanted = statusOf(status);
  return codes.find((c) => typeof c === 'string' && (errorCodes as Record<string, number>)[c] === wanted) ?? codes[0];
}
