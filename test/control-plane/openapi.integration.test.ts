/**
 * The OpenAPI document as a product, held for every operation: a unique operationId shaped like
 * `ticketing.tickets.list`, a description, an example request (where there is a body) and an example
 * answer that the document itself accepts, the connection token as a security scheme (never a header
 * parameter), public operations marked public, the error code as the closed enum, one schema per model
 * (no zod `*Input` twins), integers without ±2^53 bounds, and servers from OMNIPORT_PUBLIC_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../support/harness';
import { loadOpenApiValidator } from '../support/openapi-validator';
import { operationIdOf } from '../../src/http/operation-ids';
import { errorCodes } from '../../src/core/errors';

let server: TestServer;
const PUBLIC_URL = 'https://api.omniport.example';
beforeAll(async () => {
  server = await startTestServer({ work: false, env: { OMNIPORT_PUBLIC_URL: PUBLIC_URL } });
});
afterAll(async () => {
  await server?.close();
});

type Media = { schema?: unknown; example?: unknown };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; example?: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type Doc = {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ path: p, method, op })));

it('names every operation uniquely, as a client method would be named', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as { paths: Record<string, Record<string, Operation>> };
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/);
      ids.push(op.operationId!);
    }
  }
  expect(ids.length).toBeGreaterThan(90);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(ids).toEqual(
    expect.arrayContaining(['ticketing.tickets.list', 'ticketing.tickets.create', 'ticketing.tickets.createBatch', 'ticketing.tickets.get', 'crm.deals.update', 'webhooks.rotateSecret', 'auth.generateApiKey', 'magicLink.create', 'sync.start']),
  );
  // Public operations need no API key; the control plane inherits the document's security (the API key).
  expect(doc.paths['/health']!.get!.security).toEqual([]);
  expect(doc.paths['/auth/api-keys']!.get!.security).toBeUndefined();
});

it('derives names from method and path', () => {
  expect(operationIdOf('GET', '/crm/contacts')).toBe('crm.contacts.list');
  expect(operationIdOf('GET', '/crm/contacts/:id')).toBe('crm.contacts.get');
  expect(operationIdOf('PATCH', '/crm/contacts')).toBe('crm.contacts.updateByQueryId');
  expect(operationIdOf('POST', '/webhooks/deliveries/:id/retry')).toBe('webhooks.deliveries.retry');
  expect(operationIdOf('GET', '/project')).toBe('project.get');
  expect(operationIdOf('PATCH', '/connect-settings')).toBe('connectSettings.update');
});

it('refuses an unknown query parameter with a 400 naming it', async () => {
  const res = await server.call('GET', '/auth/api-keys?limit=5&status=OPEN');
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).toContain('status');
  expect((await server.call('GET', '/auth/api-keys?limit=5')).status).toBe(200);
});

it('describes every operation, with an example request and answer the document itself accepts', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as Doc;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const validator = await loadOpenApiValidator(file);
  const problems: string[] = [];
  for (const { path: template, method, op } of operations(doc)) {
    const name = `${method.toUpperCase()} ${template}`;
    if (!op.description || op.description.length < 40) problems.push(`${name}: no description`);
    const body = op.requestBody?.content['application/json'];
    if (body && body.example === undefined) problems.push(`${name}: no example request`);
    const success = Object.entries(op.responses).filter(([code]) => /^2\d\d$/.test(code));
    if (success.length === 0) problems.push(`${name}: no success answer`);
    // A path and query made of the parameters' examples; the body is the example request.
    const params = op.parameters ?? [];
    for (const p of params.filter((p) => p.in === 'path' || p.required)) if (p.example === undefined) problems.push(`${name}: parameter ${p.name} has no example`);
    const concrete = template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(String(params.find((p) => p.name === n)?.example)));
    const query = Object.fromEntries(params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(p.example)]));
    if (body) {
      const { violations } = validator.validateRequest({ method, path: concrete, query, body: body.example });
      for (const v of violations.filter((v) => v.location === 'body')) problems.push(`${name}: example request: ${v.message}`);
    }
    for (const [code, answer] of success) {
      const media = answer.content?.['application/json'];
      if (!media) continue; // 204
      if (media.example === undefined) problems.push(`${name}: no example answer ${code}`);
      const violations = validator.validateResponse({ method, path: concrete, operation: op.operationId, status: Number(code), body: media.example });
      for (const v of violations) problems.push(`${name}: example answer ${code}: ${v.message}`);
    }
  }
  expect(problems).toEqual([]);
  // The check bites: a wrong answer is a violation.
  expect(validator.validateResponse({ method: 'get', path: '/health', operation: 'health.get', status: 200, body: { status: 'down' } })).not.toEqual([]);
  // Still a valid OpenAPI 3.0 document.
  const result = await new Validator().validate(doc as never);
  expect(result.errors ?? []).toEqual([]);
});

it('declares error answers on every operation, each example with its real status; a licence; summaries without internal numbering', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as Doc & { info: { license?: { name: string } } };
  expect(doc.info.license?.name).toBe('Apache-2.0');
  let examples = 0;
  for (const { path: p, method, op } of operations(doc)) {
    const label = `${method} ${p}`;
    expect(op.summary, label).not.toMatch(/endpoint \d/i);
    const errors = Object.entries(op.responses).filter(([code]) => /^[45]/.test(code));
    expect(errors.length, label).toBeGreaterThan(0);
    for (const [code, res] of errors) {
      const example = res.content?.['application/json']?.example as { statusCode: number; error: string; details: { code: keyof typeof errorCodes } } | undefined;
      expect(example, `${label} ${code}`).toBeDefined();
      examples++;
      const status = example!.statusCode;
      // A class key (4XX, 5XX) carries a status of its class; a numbered key that very status.
      if (/^\d{3}$/.test(code)) expect(status, `${label} ${code}`).toBe(Number(code));
      else expect(String(status)[0], `${label} ${code}`).toBe(code[0]);
      expect(errorCodes[example!.details.code], `${label} ${code}`).toBe(status);
    }
  }
  expect(examples).toBeGreaterThan(200);
});

it('states security as schemes: the connection token is one, public operations need nothing', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as Doc;
  expect(doc.servers).toEqual([{ url: PUBLIC_URL }]);
  expect(doc.components.securitySchemes.connectionToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-connection-token' });
  for (const { path: p, method, op } of operations(doc)) {
    expect(op.parameters?.some((x) => x.in === 'header' && x.name.toLowerCase() === 'x-connection-token'), `${method} ${p}`).toBeFalsy();
  }
  const op = (p: string, m: string) => doc.paths[p]![m]!;
  for (const p of ['/health', '/ready']) expect(op(p, 'get').security).toEqual([]);
  // Endpoint 5 needs the token with the key; a read by id accepts it optionally; the control plane needs the key only.
  expect(op('/ticketing/tickets', 'get').security).toEqual([
    { apiKey: [], connectionToken: [] },
    { bearer: [], connectionToken: [] },
  ]);
  expect(op('/ticketing/tickets/{id}', 'get').security).toEqual(expect.arrayContaining([{ apiKey: [] }, { apiKey: [], connectionToken: [] }]));
  expect(op('/linked-users', 'post').security).toBeUndefined();
});

it('has one schema per model, the error codes as an enum, and integers without ±2^53 bounds', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as Doc;
  expect(Object.keys(doc.components.schemas).filter((id) => id.endsWith('Input'))).toEqual([]);
  const text = JSON.stringify(doc);
  expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  expect(text).not.toMatch(/#\/components\/schemas\/\w+Input"/);
  const error = doc.components.schemas.Error as { properties: { details: { properties: { code: { enum: string[] } } } } };
  expect(error.properties.details.properties.code.enum.sort()).toEqual(Object.keys(errorCodes).sort());
});

it('marks the Panora client’s forms deprecated', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as Doc;
  const deprecated = operations(doc)
    .filter(({ op }) => op.deprecated)
    .map(({ path: p, method }) => `${method.toUpperCase()} ${p}`);
  expect(deprecated).toEqual(
    expect.arrayContaining(['POST /linked-users/create', 'GET /linked-users/single', 'GET /magic-link/single', 'GET /field-mapping/attribute', 'PATCH /crm/contacts', 'PATCH /crm/deals']),
  );
});

it('takes the server from the request without OMNIPORT_PUBLIC_URL', async () => {
  const local = await startTestServer({ work: false });
  try {
    const doc = (await local.call('GET', '/openapi.json', { apiKey: null })).body as Doc;
    expect(doc.servers).toEqual([{ url: local.url }]);
  } finally {
    await local.close();
  }
});
