/**
 * Generic OpenAPI 3.x request/response validator for provider simulators and
 * contract tests (Zendesk, Jira, GitHub, GitLab, Front, Pipedrive, ...).
 *
 * Built on openapi-backend (routing, parameter parsing, Ajv compilation) with:
 *  - one parsed + dereferenced document per (file, options), cached for the process;
 *  - lazily compiled Ajv validators, cached per operation (first validation of an
 *    operation pays the compile, later ones are plain Ajv calls: list pages of
 *    hundreds of records validate in well under a millisecond per record);
 *  - a path-template matcher compiled once (openapi-backend's own matcher rebuilds
 *    every operation and regex on each call);
 *  - flat query parsing: `page[size]=100` stays the key `page[size]` (as declared in
 *    most vendor specs) instead of being turned into `{page:{size}}` by qs;
 *  - human-readable, de-duplicated violations (array indices folded into `*`).
 *
 * Vendor specs are often wrong about nullability; `relaxNullable` makes properties
 * nullable at load time (`'scalars'`: string/number/integer/boolean properties,
 * `'all'`: every typed property). Everything else that a vendor gets wrong is left to
 * the caller: see {@link KnownDeviation} / {@link filterKnownDeviations}.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { OpenAPIBackend } from 'openapi-backend';
import type { Operation, OpenAPIValidator as BackendValidator } from 'openapi-backend';
import type { OpenAPIV3 } from 'openapi-types';
import YAML from 'yaml';

import type {
  MatchedOperation,
  RequestToValidate,
  ResponseToValidate,
  SpecViolation,
  ViolationKind,
} from '../../src/sandbox/simulators/spec-check';

export type { MatchedOperation, RequestToValidate, ResponseToValidate, SpecViolation, ViolationKind };

export interface ValidatorOptions {
  /** Treat property schemas as nullable (vendor specs routinely omit `nullable: true`). Default `'none'`. */
  relaxNullable?: 'none' | 'scalars' | 'all';
  /** Report undocumented response status codes (when the operation has no matching code or `default`). Default true. */
  reportUndocumentedStatus?: boolean;
}

export interface OpenApiValidator {
  readonly specFile: string;
  readonly title: string;
  readonly version: string;
  readonly operationCount: number;
  matchOperation(method: string, path: string): MatchedOperation | undefined;
  validateRequest(req: RequestToValidate): { operation?: MatchedOperation; violations: SpecViolation[] };
  validateResponse(res: ResponseToValidate): SpecViolation[];
}

/**
 * An accepted difference between a vendor's document and the vendor's real behaviour.
 * Every given criterion must match; `reason` documents why the spec is wrong.
 */
export interface KnownDeviation {
  reason: string;
  kind?: ViolationKind;
  operationId?: string | RegExp;
  status?: number | ((status: number) => boolean);
  location?: string;
  pointer?: RegExp;
  keyword?: string | string[];
  when?: (v: SpecViolation) => boolean;
}

export function deviationMatches(d: KnownDeviation, v: SpecViolation): boolean {
  if (d.kind && d.kind !== v.kind) return false;
  if (d.operationId !== undefined) {
    if (!v.operationId) return false;
    if (typeof d.operationId === 'string' ? d.operationId !== v.operationId : !d.operationId.test(v.operationId)) return false;
  }
  if (d.status !== undefined) {
    if (v.status === undefined) return false;
    if (typeof d.status === 'number' ? d.status !== v.status : !d.status(v.status)) return false;
  }
  if (d.location !== undefined && d.location !== v.location) return false;
  if (d.pointer && !d.pointer.test(v.pointer)) return false;
  if (d.keyword !== undefined) {
    const kws = Array.isArray(d.keyword) ? d.keyword : [d.keyword];
    if (!kws.includes(v.keyword)) return false;
  }
  if (d.when && !d.when(v)) return false;
  return true;
}

/** Splits violations into those to report and those explained by a known deviation. */
export function filterKnownDeviations(
  violations: SpecViolation[],
  deviations: readonly KnownDeviation[],
): { kept: SpecViolation[]; suppressed: Array<{ violation: SpecViolation; reason: string }> } {
  const kept: SpecViolation[] = [];
  const suppressed: Array<{ violation: SpecViolation; reason: string }> = [];
  for (const v of violations) {
    const d = deviations.find((x) => deviationMatches(x, v));
    if (d) suppressed.push({ violation: v, reason: d.reason });
    else kept.push(v);
  }
  return { kept, suppressed };
}

export function formatViolation(v: SpecViolation): string {
  const op = v.operationId ? ` [${v.operationId}]` : '';
  const times = v.count > 1 ? ` (x${v.count})` : '';
  return `${v.kind} ${v.method} ${v.path}${op}: ${v.message}${times}`;
}

// ---------------------------------------------------------------------------

const cache = new Map<string, Promise<OpenApiValidator>>();

/** Loads (once per process and options) an OpenAPI 3 document (.yaml/.yml/.json) and returns a validator. */
export function loadOpenApiValidator(specFile: string, options: ValidatorOptions = {}): Promise<OpenApiValidator> {
  const file = path.resolve(specFile);
  const key = `${file}|${options.relaxNullable ?? 'none'}|${options.reportUndocumentedStatus ?? true}`;
  let p = cache.get(key);
  if (!p) {
    p = build(file, options);
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
const NON_SCHEMA_KEYS = new Set(['example', 'examples', 'enum', 'default', 'const']);

function relaxNullability(node: unknown, mode: 'scalars' | 'all'): void {
  if (Array.isArray(node)) {
    for (const x of node) relaxNullability(x, mode);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  const props = obj.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    for (const s of Object.values(props as Record<string, unknown>)) {
      if (!s || typeof s !== 'object' || '$ref' in s) continue;
      const schema = s as Record<string, unknown>;
      const t = schema.type;
      if (typeof t !== 'string' || t === 'null') continue;
      if (mode === 'scalars' && !SCALAR_TYPES.has(t)) continue;
      if (schema.nullable === undefined) schema.nullable = true;
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    if (NON_SCHEMA_KEYS.has(k) || k.startsWith('x-')) continue;
    relaxNullability(v, mode);
  }
}

interface CompiledOp {
  op: Operation<OpenAPIV3.Document>;
  matched: MatchedOperation;
  regex: RegExp | null; // null when the template has no parameters
  score: number;
  segments: number;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function parseQueryString(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

function preview(data: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(data) ?? String(data);
  } catch {
    s = String(data);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

interface AjvErrorLike {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

function foldIndices(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

/** Ajv formats openapi-backend does not register (it silently ignores unknown formats). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const URIish = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/;

/**
 * Operation ids repeated across paths (Close's description names most operations `list`, `get`, `create`)
 * would make operations share compiled schemas: repeated ids get their path appended (`list /user/`).
 */
function uniqueOperationIds(doc: Record<string, unknown>): void {
  const ops: { op: Record<string, unknown>; method: string; path: string }[] = [];
  for (const [p, item] of Object.entries((doc.paths as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (op && typeof op === 'object' && typeof (op as Record<string, unknown>).operationId === 'string') ops.push({ op: op as Record<string, unknown>, method, path: p });
    }
  }
  const count = new Map<string, number>();
  for (const { op } of ops) count.set(op.operationId as string, (count.get(op.operationId as string) ?? 0) + 1);
  for (const { op, path: p } of ops) if ((count.get(op.operationId as string) ?? 0) > 1) op.operationId = `${String(op.operationId)} ${p}`;
}

/**
 * Request paths are matched without their trailing slash (openapi-backend drops it too): document paths
 * written with one (Close: `/lead/{id}/`) lose it, unless the document also has the path without it.
 */
function withoutTrailingSlashes(doc: Record<string, unknown>): void {
  const paths = doc.paths as Record<string, unknown> | undefined;
  if (!paths) return;
  doc.paths = Object.fromEntries(
    Object.entries(paths).map(([p, item]) => [p.length > 1 && p.endsWith('/') && !(p.slice(0, -1) in paths) ? p.slice(0, -1) : p, item]),
  );
}

async function build(file: string, options: ValidatorOptions): Promise<OpenApiValidator> {
  const text = await readFile(file, 'utf8');
  const doc = (/\.ya?ml$/i.test(file) ? YAML.parse(text, { maxAliasCount: -1 }) : JSON.parse(text)) as Record<string, unknown>;
  if (!doc || typeof doc !== 'object' || typeof doc.openapi !== 'string') {
    throw new Error(`${file}: not an OpenAPI 3 document`);
  }
  const relax = options.relaxNullable ?? 'none';
  if (relax !== 'none') relaxNullability(doc, relax);
  uniqueOperationIds(doc);
  withoutTrailingSlashes(doc);
  const reportUndocumentedStatus = options.reportUndocumentedStatus ?? true;

  const api = new OpenAPIBackend({
    definition: doc as unknown as OpenAPIV3.Document,
    quick: true, // no whole-document meta validation, lazy Ajv compilation
    strict: true,
    validate: true,
    ajvOpts: { strict: false, allErrors: true, verbose: true, logger: false },
    customizeAjv: (ajv) => {
      ajv.addFormat('date-time', DATE_TIME);
      ajv.addFormat('date', DATE);
      ajv.addFormat('email', EMAIL);
      ajv.addFormat('uri', URIish);
      ajv.addFormat('url', URIish);
      return ajv;
    },
  });
  await api.init();
  const router = api.router;
  const validator = api.validator as BackendValidator;

  // openapi-backend recomputes the flattened operation list on every lookup; freeze it.
  const operations = router.getOperations();
  for (const op of operations) {
    if (!op.operationId) (op as { operationId?: string }).operationId = `${op.method}-${op.path}`;
  }
  router.getOperations = () => operations;

  const compiled: CompiledOp[] = operations.map((op) => {
    const hasParams = /\{[^}]+\}/.test(op.path);
    const pattern = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : escapeRegex(part)))
      .join('');
    return {
      op,
      matched: { operationId: op.operationId as string, method: op.method, pathTemplate: op.path },
      regex: hasParams ? new RegExp(`^${pattern}$`) : null,
      score: op.path.replace(/\{[^}]+\}/g, '').length,
      segments: op.path.split('/').length,
    };
  });
  const exact = new Map<string, CompiledOp>();
  const templated = new Map<string, CompiledOp[]>(); // key: method|segmentCount
  for (const c of compiled) {
    if (!c.regex) exact.set(`${c.op.method}|${c.op.path}`, c);
    else {
      const k = `${c.op.method}|${c.segments}`;
      const list = templated.get(k) ?? [];
      list.push(c);
      templated.set(k, list);
    }
  }
  for (const list of templated.values()) list.sort((a, b) => b.score - a.score);
  const byId = new Map(compiled.map((c) => [c.matched.operationId, c]));

  // Path prefixes of the declared servers (e.g. `/v1` for `https://api.pipedrive.com/v1`):
  // request paths may include them, document paths do not.
  const serverPrefixes = ((doc.servers as Array<{ url?: string }> | undefined) ?? [])
    .map((srv) => {
      const u = String(srv.url ?? '').replace(/\{[^}]+\}/g, 'x');
      try {
        return new URL(u, 'http://x').pathname.replace(/\/+$/, '');
      } catch {
        return '';
      }
    })
    .filter((x) => x && x !== '/');

  function lookup(m: string, p: string): CompiledOp | undefined {
    const hit = exact.get(`${m}|${p}`);
    if (hit) return hit;
    const list = templated.get(`${m}|${p.split('/').length}`);
    return list?.find((c) => c.regex!.test(p));
  }

  /** The operation for method+path and the path relative to the document (server prefix removed). */
  function resolve(method: string, rawPath: string): { c: CompiledOp; path: string } | undefined {
    let p = rawPath.split('?')[0] ?? '';
    if (!p.startsWith('/')) p = `/${p}`;
    while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    const m = method.toLowerCase();
    const c = lookup(m, p);
    if (c) return { c, path: p };
    for (const prefix of serverPrefixes) {
      if (!p.startsWith(`${prefix}/`)) continue;
      const rel = p.slice(prefix.length);
      const hit = lookup(m, rel);
      if (hit) return { c: hit, path: rel };
    }
    return undefined;
  }

  function findCompiled(method: string, rawPath: string): CompiledOp | undefined {
    return resolve(method, rawPath)?.c;
  }

  const title = String((doc.info as Record<string, unknown> | undefined)?.title ?? path.basename(file));
  const version = String((doc.info as Record<string, unknown> | undefined)?.version ?? '');

  const compileFailures = new Map<string, string>();

  function collect(
    base: Omit<SpecViolation, 'location' | 'pointer' | 'keyword' | 'message' | 'count' | 'data'>,
    errors: AjvErrorLike[],
    describeLocation: (e: AjvErrorLike) => { location: string; pointer: string; prefix: string },
  ): SpecViolation[] {
    const out = new Map<string, SpecViolation>();
    for (const e of errors) {
      const { location, pointer, prefix } = describeLocation(e);
      let msg: string;
      const params = e.params ?? {};
      if (e.keyword === 'additionalProperties') {
        const name = String(params.additionalProperty);
        msg =
          location === 'query' || location === 'path' || location === 'header'
            ? `unknown ${location} parameter '${name}'`
            : `${prefix}${pointer || '/'} has property '${name}' not allowed by the schema`;
      } else if (e.keyword === 'required') {
        const name = String(params.missingProperty);
        msg =
          location === 'query' || location === 'path' || location === 'header'
            ? `missing required ${location} parameter '${name}'`
            : `${prefix}${pointer || '/'} is missing required property '${name}'`;
      } else if (e.keyword === 'enum') {
        const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map((x) => JSON.stringify(x)).join(', ') : '';
        msg = `${prefix}${pointer || '/'} must be one of [${allowed}]; got ${preview(e.data)}`;
      } else if (e.keyword === 'parse') {
        msg = `${prefix}is not valid JSON: ${e.message ?? ''}`;
      } else {
        msg = `${prefix}${pointer || '/'} ${e.message ?? e.keyword}${e.keyword === 'type' || e.keyword === 'format' ? `; got ${preview(e.data)}` : ''}`;
      }
      const key = `${location}|${pointer}|${e.keyword}|${msg}`;
      const prev = out.get(key);
      if (prev) prev.count++;
      else out.set(key, { ...base, location, pointer, keyword: e.keyword, message: msg, data: e.data, count: 1 });
    }
    return [...out.values()];
  }

  return {
    specFile: file,
    title,
    version,
    operationCount: compiled.length,

    matchOperation(method, p) {
      return findCompiled(method, p)?.matched;
    },

    validateRequest(req) {
      const method = req.method.toUpperCase();
      const qi = req.path.indexOf('?');
      const pathOnly = qi >= 0 ? req.path.slice(0, qi) : req.path;
      const qs = qi >= 0 ? req.path.slice(qi + 1) : '';
      const resolved = resolve(method, pathOnly);
      const c = resolved?.c;
      const base = { kind: 'request' as const, method, path: pathOnly };
      if (!c) {
        return {
          violations: [
            { ...base, location: 'route', pointer: '', keyword: 'route', message: `no operation for ${method} ${pathOnly} in ${title}`, count: 1 },
          ],
        };
      }
      const query = req.query ?? parseQueryString(qs);
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
      let result;
      try {
        result = validator.validateRequest(
          { method: method.toLowerCase(), path: resolved!.path, query: { ...query } as never, headers, body: req.body as never },
          c.op,
        );
      } catch (err) {
        return {
          operation: c.matched,
          violations: [
            {
              ...base,
              operationId: c.matched.operationId,
              location: 'route',
              pointer: '',
              keyword: 'compile',
              message: `cannot compile request schema: ${(err as Error).message}`,
              count: 1,
            },
          ],
        };
      }
      const errors = (result.errors ?? []) as AjvErrorLike[];
      const violations = collect({ ...base, operationId: c.matched.operationId }, errors, (e) => {
        const m = /^\/(requestBody|query|path|header|cookie)(\/.*)?$/.exec(e.instancePath);
        if (!m) {
          // Errors on the root (e.g. a missing required requestBody / parameter group).
          if (e.keyword === 'required' && e.params?.missingProperty === 'requestBody') {
            return { location: 'body', pointer: '', prefix: 'request body ' };
          }
          return { location: e.keyword === 'parse' ? 'body' : 'request', pointer: foldIndices(e.instancePath), prefix: '' };
        }
        const loc = m[1] === 'requestBody' ? 'body' : (m[1] as string);
        return { location: loc, pointer: foldIndices(m[2] ?? ''), prefix: loc === 'body' ? 'body ' : `${loc} ` };
      });
      for (const v of violations) {
        if (v.keyword === 'required' && v.pointer === '' && v.message.includes("'requestBody'")) v.message = 'request body is required';
      }
      return { operation: c.matched, violations };
    },

    validateResponse(res) {
      const method = res.method.toUpperCase();
      const pathOnly = res.path.split('?')[0] ?? '';
      const c =
        typeof res.operation === 'string'
          ? byId.get(res.operation)
          : res.operation
            ? byId.get(res.operation.operationId)
            : findCompiled(method, pathOnly);
      const base = { kind: 'response' as const, method, path: pathOnly, status: res.status };
      if (!c) {
        return [{ ...base, location: 'route', pointer: '', keyword: 'route', message: `no operation for ${method} ${pathOnly} in ${title}`, count: 1 }];
      }
      const operationId = c.matched.operationId;
      const responses = (c.op.responses ?? {}) as Record<string, unknown>;
      const code = String(res.status);
      const rangeKey = `${code[0]}XX`;
      const statusKey =
        code in responses ? code : rangeKey in responses ? rangeKey : rangeKey.toLowerCase() in responses ? rangeKey.toLowerCase() : 'default' in responses ? 'default' : undefined;
      if (statusKey === undefined) {
        if (!reportUndocumentedStatus) return [];
        return [
          {
            ...base,
            operationId,
            location: 'status',
            pointer: '',
            keyword: 'status',
            message: `status ${res.status} is not documented (documented: ${Object.keys(responses).join(', ') || 'none'})`,
            count: 1,
          },
        ];
      }
      if (res.body === undefined) return [];
      if (compileFailures.has(operationId)) return [];
      let validate: ((data: unknown) => boolean) & { errors?: unknown } | undefined;
      try {
        const map = validator.getStatusBasedResponseValidatorForOperation(operationId) as Record<string, typeof validate> | null;
        validate = map?.[statusKey] ?? undefined;
      } catch (err) {
        const message = `cannot compile response schemas: ${(err as Error).message}`;
        compileFailures.set(operationId, message);
        return [{ ...base, operationId, location: 'response', pointer: '', keyword: 'compile', message, count: 1 }];
      }
      if (!validate) return []; // documented without a JSON schema
      if (validate(res.body)) return [];
      const prefix = `response ${res.status} `;
      return collect({ ...base, operationId }, (validate.errors ?? []) as AjvErrorLike[], (e) => ({
        location: 'response',
        pointer: foldIndices(e.instancePath),
        prefix,
      }));
    },
  };
}

/**
 * What a simulator found against its provider's description: violations (merged by kind, operation,
 * place and message, with a count), and the suppressed known deviations (capped) with their reasons.
 */
export function createViolationLog(known: readonly KnownDeviation[]) {
  const violations: SpecViolation[] = [];
  const deviations: { violation: SpecViolation; reason: string }[] = [];
  const index = new Map<string, SpecViolation>();
  return {
    violations,
    deviations,
    record(found: SpecViolation[]) {
      const { kept, suppressed } = filterKnownDeviations(found, known);
      deviations.push(...suppressed.slice(0, Math.max(0, 1000 - deviations.length)));
      for (const v of kept) {
        const key = `${v.kind}|${v.operationId}|${v.status}|${v.location}|${v.pointer}|${v.keyword}|${v.message}`;
        const prev = index.get(key);
        if (prev) prev.count += v.count;
        else {
          index.set(key, v);
          violations.push(v);
        }
      }
    },
    clear() {
      violations.length = 0;
      deviations.length = 0;
      index.clear();
    },
  };
}
