/**
 * Linear GraphQL API simulator for integration tests and benchmarks.
 *
 * `startLinearSimulator()` listens on 127.0.0.1:<random port> with
 *   POST /graphql   Linear's GraphQL endpoint, executed with the `graphql` reference implementation
 *                   against Linear's published schema (shared/provider-specs/linear/schema.graphql) —
 *                   or, when that file is absent, against the simulator's own subset (fallback-sdl.ts)
 * and a second server, on another port (another origin, as Linear's storage is), for files:
 *   PUT  /upload/<key>?X-Goog-Signature=…   the pre-signed upload URL of `fileUpload` (no Linear
 *                   credentials; the signature, expiry, content type, size and the headers `fileUpload`
 *                   listed must match)
 *   GET  /<org>/<uuid>/<uuid>               the asset URL (Linear credentials required unless public)
 *
 * Spec validation: every request is parsed and validated against the schema (and its variables
 * coerced); a failure is answered as Linear does (HTTP 400, GRAPHQL_PARSE_FAILED /
 * GRAPHQL_VALIDATION_FAILED / BAD_USER_INPUT) and recorded in `sim.specViolations`. Every response is
 * produced by executing the schema, so its shape follows the schema by construction; a resolver value
 * the schema refuses (a non-null field left null, a date that is not ISO 8601, …) is recorded as a
 * response violation. Use of deprecated fields is recorded too. Whatever the simulator does not model
 * (an input field, a filter, a comparator) is recorded in `sim.simulatorGaps` and answered as an
 * internal error, never ignored.
 *
 * Behaviour (from Linear's API documentation and SDK):
 * - Auth: a personal API key bare in `Authorization` (`lin_api_…`), an OAuth token as `Bearer`; else
 *   HTTP 400 with `extensions.code: AUTHENTICATION_ERROR` (`authErrorStatus` to change the status).
 * - Errors: `{errors:[{message, path, extensions:{code, type, userError, userPresentableMessage}}], data}`;
 *   HTTP 400 when the whole operation failed (data null), else 200 with partial data.
 * - Rate limits: every response carries X-RateLimit-Requests-Limit/-Remaining/-Reset (reset in epoch
 *   milliseconds), X-Complexity, X-RateLimit-Complexity-Limit/-Remaining/-Reset; over the budget (with
 *   `rateLimit.enforce`) or with `rateLimitNext()`, the answer is HTTP 400 with `extensions.code:
 *   RATELIMITED` — Linear does not use 429. A query over 10,000 complexity points is refused.
 * - Connections: Relay style, newest first by `orderBy` (createdAt default), `first` default 50, at most
 *   250; archived entities only with `includeArchived: true`; disabled users only with `includeDisabled`.
 * - Issues: team-scoped states and labels; `issueDelete` trashes (archived + `trashed: true`);
 *   `issueBatchCreate` is one transaction (at most 50 issues).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, NoDeprecatedCustomRule, execute, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { FaultController, SimClock, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { MAX_QUERY_COMPLEXITY, queryComplexity } from './complexity';
import { LinearHooks } from './hooks';
import { fieldResolver, SimGap, type SimContext } from './resolvers';
import { loadLinearSchema, type LoadedSchema } from './schema';
import { contentDisposition, LinearInputError, LinearState, type CommentRecord, type IssueInput, type IssueRecord, type UploadRecord, type UserRecord } from './state';

export { LinearHooks, linearHookHeaders, type SimWebhook } from './hooks';
export { LinearState, LinearInputError } from './state';
export type { IssueRecord, CommentRecord, UserRecord, TeamRecord, LabelRecord, WorkflowStateRecord, UploadRecord, IssueInput, StateType } from './state';
export { loadLinearSchema } from './schema';
export { queryComplexity, MAX_QUERY_COMPLEXITY } from './complexity';

export interface LinearSimulatorOptions {
  /** Personal API keys (sent bare); default one key for the first seeded user (Sam, an admin). */
  apiKeys?: string[];
  /** OAuth access tokens (sent as Bearer), acting as the first seeded user. */
  accessTokens?: string[];
  /** Clock (ms) for record timestamps. */
  now?: () => number;
  /** Create the default workspace. Default true. */
  seedDefaults?: boolean;
  /** Linear's SDL; default `specPath('linear', 'schema.graphql')`; `null` forces the fallback subset. */
  schemaFile?: string | null;
  /** Per-credential budgets (Linear: 5,000 requests and 3,000,000 complexity points an hour for API keys). */
  rateLimit?: { requestsPerHour?: number; complexityPerHour?: number; enforce?: boolean; /** The window (default an hour; shorter for time-scaled benchmarks). */ windowMs?: number };
  /** HTTP status of AUTHENTICATION_ERROR answers. Default 400. */
  authErrorStatus?: number;
  /** Keep request bodies (GraphQL documents and variables) in `requests`. Default true. */
  recordBodies?: boolean;
}

export interface SpecViolation {
  kind: 'request' | 'response' | 'deprecated';
  /** GraphQL operation name (or `<anonymous>`). */
  operation: string;
  message: string;
  count: number;
}

export interface OperationRecord {
  seq: number;
  name: string;
  type: 'query' | 'mutation' | 'subscription' | 'invalid';
  variables: Record<string, unknown>;
  complexity: number;
  status: number;
}

export interface LinearSimulator {
  /** Base URL of the API (`${url}/graphql`). */
  readonly url: string;
  /** Origin of the file storage server. */
  readonly uploadsUrl: string;
  /** Host (`127.0.0.1:<port>`) of the file storage, for the adapter's `uploadHosts`. */
  readonly uploadsHost: string;
  readonly state: LinearState;
  /** The simulator's clock (record timestamps, upload URL expiry, rate-limit windows). */
  readonly clock: SimClock;
  readonly schema: LoadedSchema;
  /** Linear's published schema is in use (spec validation is real). */
  readonly specAvailable: boolean;
  /** The user the default API key acts as. */
  readonly viewer: UserRecord;
  /** The default personal API key. */
  readonly apiKey: string;
  readonly requests: RecordedRequest[];
  readonly uploadRequests: RecordedRequest[];
  /** Every GraphQL operation received, in order. */
  readonly operations: OperationRecord[];
  clearRequests(): void;
  readonly faults: FaultController;
  readonly uploadFaults: FaultController;
  readonly specViolations: SpecViolation[];
  /** What the adapter asked for that the simulator does not model (must stay empty). */
  readonly simulatorGaps: string[];
  clearSpecViolations(): void;
  /**
   * The next `times` GraphQL requests answer HTTP 400 RATELIMITED (as Linear does), with the budget's
   * headers at 0 and its reset (epoch milliseconds, wall clock) `resetInMs` from now (default a minute).
   */
  rateLimitNext(times: number, opts?: { resetInMs?: number; budget?: 'requests' | 'complexity' }): void;
  addApiKey(key: string, userId?: string): void;
  addAccessToken(token: string, userId?: string): void;
  /** The issue as the API renders its main fields, or undefined. */
  issueJson(id: string): Record<string, unknown> | undefined;
  createIssueRemotely(input: IssueInput, actorId?: string): IssueRecord;
  updateIssueRemotely(id: string, input: IssueInput): IssueRecord;
  /** As a person deleting the issue in Linear: it goes to the trash. */
  trashIssueRemotely(id: string): IssueRecord;
  deleteIssuePermanently(id: string): void;
  addCommentRemotely(issueId: string, body: string, userId?: string): CommentRecord;
  /** `n` issues in the team (default Engineering), spread over the past, `commentsPerIssue` each. */
  seedIssues(n: number, opts?: { teamId?: string; commentsPerIssue?: number; spacingMs?: number }): IssueRecord[];
  /** Bytes of an uploaded file by its asset URL. */
  uploadedFile(assetUrl: string): UploadRecord | undefined;
  /** Webhooks created through the API (`webhookCreate`), and the signed deliveries sent to them. */
  readonly hooks: LinearHooks;
  close(): Promise<void>;
}

const DEFAULT_API_KEY = 'lin_api_simulator0000000000000000000000000000';
const HOUR = 3_600_000;

interface Credential {
  userId: string;
  scheme: 'api-key' | 'bearer';
  label: string;
}

const gqlError = (message: string, code: string, type: string, extra: Record<string, unknown> = {}) => ({
  message,
  extensions: { code, type, userError: true, userPresentableMessage: message, ...extra },
});

export async function startLinearSimulator(opts: LinearSimulatorOptions = {}): Promise<LinearSimulator> {
  const clock = new SimClock();
  const state = new LinearState({ now: opts.now ?? (() => clock.now()), seedDefaults: opts.seedDefaults ?? true });
  const loaded = loadLinearSchema(opts.schemaFile === undefined ? undefined : opts.schemaFile);
  const { schema } = loaded;
  const authErrorStatus = opts.authErrorStatus ?? 400;
  const requestsPerHour = opts.rateLimit?.requestsPerHour ?? 5_000;
  const complexityPerHour = opts.rateLimit?.complexityPerHour ?? 3_000_000;
  let viewerUser = [...state.users.values()][0];
  if (!viewerUser) viewerUser = state.addUser({ name: 'Sam Agent', email: 'sam@example.com', admin: true });
  const viewer = viewerUser;

  const credentials = new Map<string, Credential>();
  const addApiKey = (key: string, userId = viewer.id) => credentials.set(key, { userId, scheme: 'api-key', label: state.users.get(userId)?.email ?? userId });
  const addAccessToken = (token: string, userId = viewer.id) => credentials.set(token, { userId, scheme: 'bearer', label: state.users.get(userId)?.email ?? userId });
  const apiKeys = opts.apiKeys?.length ? opts.apiKeys : [DEFAULT_API_KEY];
  for (const k of apiKeys) addApiKey(k);
  for (const t of opts.accessTokens ?? []) addAccessToken(t);

  /** The credential of a request: `lin_api_…` keys bare, OAuth tokens as Bearer; a key sent as Bearer (or a token bare) is refused. */
  const credentialOf = (req: SimRequest): { token?: string; cred?: Credential; scheme: string } => {
    const header = req.headers.authorization;
    const raw = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!raw) return { scheme: 'none' };
    const m = /^Bearer\s+(.+)$/i.exec(raw);
    const token = m ? m[1]!.trim() : raw;
    const cred = credentials.get(token);
    const scheme = m ? 'bearer' : 'api-key';
    if (!cred || cred.scheme !== scheme) return { token, scheme };
    const user = state.users.get(cred.userId);
    if (!user || !user.active || user.archivedAt) return { token, scheme };
    return { token, cred, scheme };
  };

  // ------------------------------------------------------------ violations and logs
  const specViolations: SpecViolation[] = [];
  const violationIndex = new Map<string, SpecViolation>();
  const simulatorGaps: string[] = [];
  const recordViolation = (kind: SpecViolation['kind'], operation: string, message: string) => {
    const key = `${kind}|${operation}|${message}`;
    const prev = violationIndex.get(key);
    if (prev) prev.count++;
    else {
      const v = { kind, operation, message, count: 1 };
      violationIndex.set(key, v);
      specViolations.push(v);
    }
  };
  const recordGap = (message: string) => {
    if (!simulatorGaps.includes(message)) simulatorGaps.push(message);
  };
  const requests: RecordedRequest[] = [];
  const uploadRequests: RecordedRequest[] = [];
  const operations: OperationRecord[] = [];
  const faults = new FaultController();
  const uploadFaults = new FaultController();
  let syncId = 1000;

  // ------------------------------------------------------------ rate limits (fixed hourly windows per credential)
  const budgets = new Map<string, { windowStart: number; requests: number; complexity: number }>();
  const windowMs = opts.rateLimit?.windowMs ?? HOUR;
  const budgetOf = (token: string) => {
    const now = clock.now();
    let b = budgets.get(token);
    if (!b || now - b.windowStart >= windowMs) {
      b = { windowStart: now, requests: 0, complexity: 0 };
      budgets.set(token, b);
    }
    return b;
  };
  const rateHeaders = (token: string, complexity: number | undefined): Record<string, string> => {
    const b = budgetOf(token);
    const reset = String(b.windowStart + windowMs);
    return {
      'x-ratelimit-requests-limit': String(requestsPerHour),
      'x-ratelimit-requests-remaining': String(Math.max(0, requestsPerHour - b.requests)),
      'x-ratelimit-requests-reset': reset,
      ...(complexity !== undefined ? { 'x-complexity': String(complexity) } : {}),
      'x-ratelimit-complexity-limit': String(complexityPerHour),
      'x-ratelimit-complexity-remaining': String(Math.max(0, complexityPerHour - b.complexity)),
      'x-ratelimit-complexity-reset': reset,
    };
  };
  const rateLimitedBody = () => ({ errors: [gqlError('Rate limit exceeded', 'RATELIMITED', 'ratelimited', { userPresentableMessage: 'You have exceeded the rate limit. Please try again later.' })] });
  const complexityOf = new WeakMap<SimRequest, number>();
  const tokenOfReq = new WeakMap<SimRequest, string>();

  let uploadsBase = '';
  const webBase = `https://linear.app/${state.organization.urlKey}`;
  const hooks = new LinearHooks(state, () => webBase);

  // ------------------------------------------------------------ GraphQL
  const operationOf = (doc: DocumentNode, name: unknown): OperationDefinitionNode | undefined => {
    const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    return typeof name === 'string' && name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
  };

  const formatError = (e: GraphQLError): Record<string, unknown> => {
    const orig = e.originalError;
    if (orig instanceof LinearInputError) {
      return {
        message: orig.message,
        ...(e.path ? { path: e.path } : {}),
        extensions: { code: orig.code, type: orig.type, userError: true, userPresentableMessage: orig.userPresentableMessage },
      };
    }
    if (orig instanceof SimGap) {
      return { message: `Simulator does not model this: ${orig.message}`, ...(e.path ? { path: e.path } : {}), extensions: { code: 'INTERNAL_SERVER_ERROR', type: 'internal error', userError: false } };
    }
    return { message: e.message, ...(e.path ? { path: e.path } : {}), extensions: { code: 'INTERNAL_SERVER_ERROR', type: 'internal error', userError: false } };
  };

  const handleGraphQL = async (req: SimRequest): Promise<SimResponse> => {
    const seq = requests[requests.length - 1]?.seq ?? 0;
    const op = (o: Omit<OperationRecord, 'seq'>) => operations.push({ seq, ...o });
    if (req.path !== '/graphql') return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
    if (req.method !== 'POST' && req.method !== 'GET') return { status: 405, body: { errors: [gqlError('Method not allowed', 'BAD_REQUEST', 'invalid input')] } };

    const { token, cred } = credentialOf(req);
    if (!cred) {
      return {
        status: authErrorStatus,
        body: { errors: [gqlError('Authentication required, not authenticated', 'AUTHENTICATION_ERROR', 'authentication error', { userPresentableMessage: 'You need to authenticate to access this operation.' })] },
      };
    }
    tokenOfReq.set(req, token!);
    const budget = budgetOf(token!);
    budget.requests++;

    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    if (req.method === 'GET') {
      const vars = req.query.get('variables');
      payload = { query: req.query.get('query') ?? undefined, operationName: req.query.get('operationName') ?? undefined, variables: vars ? JSON.parse(vars) : undefined };
    } else {
      const ct = String(req.headers['content-type'] ?? '');
      if (!/application\/json/i.test(ct) || req.bodyError || !req.body || typeof req.body !== 'object') {
        recordViolation('request', '<unparsed>', `the request body must be a JSON object sent as application/json (got ${ct || 'no content type'})`);
        return { status: 400, body: { errors: [gqlError('POST body missing, invalid Content-Type, or JSON object has no keys.', 'BAD_REQUEST', 'invalid input')] } };
      }
      payload = req.body as typeof payload;
    }
    if (typeof payload.query !== 'string' || payload.query.trim() === '') {
      recordViolation('request', '<unparsed>', 'the request has no query string');
      op({ name: '<none>', type: 'invalid', variables: {}, complexity: 0, status: 400 });
      return { status: 400, body: { errors: [gqlError('Must provide query string.', 'BAD_REQUEST', 'invalid input')] } };
    }
    if (payload.variables !== undefined && payload.variables !== null && (typeof payload.variables !== 'object' || Array.isArray(payload.variables))) {
      recordViolation('request', '<unparsed>', 'variables must be a JSON object');
      return { status: 400, body: { errors: [gqlError('Variables must be an object.', 'BAD_REQUEST', 'invalid input')] } };
    }
    const variables = (payload.variables ?? {}) as Record<string, unknown>;
    let document: DocumentNode;
    try {
      document = parse(payload.query);
    } catch (e) {
      const message = (e as Error).message;
      recordViolation('request', '<unparsed>', `syntax: ${message}`);
      op({ name: '<unparsed>', type: 'invalid', variables, complexity: 0, status: 400 });
      return { status: 400, body: { errors: [gqlError(message, 'GRAPHQL_PARSE_FAILED', 'graphql error')] } };
    }
    const operation = operationOf(document, payload.operationName);
    const opName = operation?.name?.value ?? '<anonymous>';
    const errors = validate(schema, document, specifiedRules);
    if (errors.length > 0) {
      for (const e of errors) recordViolation('request', opName, e.message);
      op({ name: opName, type: 'invalid', variables, complexity: 0, status: 400 });
      return { status: 400, body: { errors: errors.map((e) => ({ ...gqlError(e.message, 'GRAPHQL_VALIDATION_FAILED', 'graphql error'), locations: e.locations })) } };
    }
    for (const e of validate(schema, document, [NoDeprecatedCustomRule])) recordViolation('deprecated', opName, e.message);
    if (!operation) {
      recordViolation('request', opName, 'several operations and no (matching) operationName');
      return { status: 400, body: { errors: [gqlError('Must provide operation name if query contains multiple operations.', 'BAD_REQUEST', 'invalid input')] } };
    }
    const complexity = queryComplexity(schema, document, variables, operation.name?.value);
    complexityOf.set(req, complexity);
    budget.complexity += complexity;
    if (complexity > MAX_QUERY_COMPLEXITY) {
      recordViolation('request', opName, `query complexity ${complexity} is over Linear's maximum of ${MAX_QUERY_COMPLEXITY}`);
      op({ name: opName, type: operation.operation, variables, complexity, status: 400 });
      return { status: 400, body: { errors: [gqlError(`Query too complex: complexity ${complexity}, maximum ${MAX_QUERY_COMPLEXITY}`, 'INVALID_INPUT', 'invalid input')] } };
    }
    if (opts.rateLimit?.enforce && (budget.requests > requestsPerHour || budget.complexity > complexityPerHour)) {
      op({ name: opName, type: operation.operation, variables, complexity, status: 400 });
      return { status: 400, body: rateLimitedBody() };
    }

    const ctx: SimContext = { state, viewer: state.users.get(cred.userId)!, uploadsBase, webBase, nextSyncId: () => ++syncId, hooks };
    const result: ExecutionResult = await execute({
      schema,
      document,
      variableValues: variables,
      operationName: operation.name?.value,
      contextValue: ctx,
      fieldResolver,
      rootValue: {},
    });
    const out: Record<string, unknown> = {};
    if (result.errors?.length) {
      for (const e of result.errors) {
        const orig = e.originalError;
        if (orig instanceof LinearInputError) continue;
        if (orig instanceof SimGap) recordGap(`${opName}: ${orig.message}`);
        else if (!('data' in result) || /^Variable "\$/.test(e.message)) recordViolation('request', opName, e.message);
        else recordViolation('response', opName, `${e.path?.join('.') ?? ''}: ${e.message}`);
      }
      out.errors = result.errors.map(formatError);
    }
    if ('data' in result) out.data = result.data ?? null;
    const status = result.errors?.length && (result.data === null || result.data === undefined) ? 400 : 200;
    op({ name: opName, type: operation.operation, variables, complexity, status });
    return { status, body: out };
  };

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth(req) {
      const { cred, scheme } = credentialOf(req);
      if (scheme === 'none') return null;
      return { scheme, label: cred?.label ?? null, valid: Boolean(cred) };
    },
    faultResponse(fault) {
      const status = fault.status!;
      if (status === 429) return { status, body: rateLimitedBody() };
      if (status === 401) return { status, body: { errors: [gqlError('Authentication required, not authenticated', 'AUTHENTICATION_ERROR', 'authentication error')] } };
      if (status === 403) return { status, body: { errors: [gqlError('Forbidden', 'FORBIDDEN', 'forbidden')] } };
      if (status === 500) return { status, body: { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', type: 'internal error', userError: false } }] } };
      // Linear's edge answers other 5xx with a plain error page.
      if (status >= 500) return { status, body: `error code: ${status}`, headers: { 'content-type': 'text/plain; charset=UTF-8' } };
      return { status, body: { errors: [gqlError(http.STATUS_CODES[status] ?? 'Error', 'INVALID_INPUT', 'invalid input')] } };
    },
    handle: handleGraphQL,
    decorate(req, res) {
      const token = tokenOfReq.get(req) ?? credentialOf(req).token;
      if (!token || !credentials.has(token)) return;
      const headers = rateHeaders(token, complexityOf.get(req));
      // Headers a fault set (a rate-limited answer at 0) win.
      res.headers = { ...headers, ...(res.headers ?? {}) };
    },
    internalError(err, req) {
      recordGap(`internal error on ${req.method} ${req.path}: ${(err as Error)?.message ?? String(err)}`);
      return { status: 500, body: { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', type: 'internal error', userError: false } }] } };
    },
  });

  // ------------------------------------------------------------ file storage (another origin)
  let uploadSeq = 0;
  const uploads = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serveUpload(req, res, Buffer.concat(chunks)));
  });
  const storageError = (res: http.ServerResponse, status: number, code: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/xml; charset=UTF-8' });
    res.end(`<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  };
  const serveUpload = async (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const simReq: SimRequest = { method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, headers: req.headers, body: undefined, rawBody: '', rawBytes: body };
    const entry: RecordedRequest = {
      seq: ++uploadSeq,
      at: clock.now(),
      method: simReq.method,
      path: simReq.path,
      query: Object.fromEntries([...url.searchParams.keys()].map((k) => [k, k.toLowerCase().includes('signature') ? '[redacted]' : url.searchParams.get(k)!])),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, k === 'authorization' ? '[redacted]' : String(v)])),
      body: { bytes: body.length },
      auth: null,
      status: 0,
      faultId: null,
      durationMs: 0,
    };
    uploadRequests.push(entry);
    const send = (status: number) => (entry.status = status);
    const fault = uploadFaults.take(simReq);
    if (fault) {
      entry.faultId = fault.id;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.status === 0) {
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) {
        send(fault.status);
        return storageError(res, fault.status, 'InternalError', 'Injected fault');
      }
    }
    const put = /^\/upload\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (put && req.method === 'PUT') {
      const up = state.uploads.get(put[1]!);
      if (!up || url.searchParams.get('X-Goog-Signature') !== up.signature) {
        send(403);
        return storageError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      }
      if (clock.now() > up.expiresAt) {
        send(400);
        return storageError(res, 400, 'ExpiredToken', 'The provided token has expired.');
      }
      if (req.headers.authorization) {
        send(400);
        return storageError(res, 400, 'InvalidArgument', 'Signed URLs must not carry an Authorization header.');
      }
      const ct = String(req.headers['content-type'] ?? '');
      if (ct !== up.contentType) {
        send(403);
        return storageError(res, 403, 'SignatureDoesNotMatch', `Content-Type ${ct || '(none)'} does not match the signed ${up.contentType}.`);
      }
      if (req.headers['content-disposition'] !== contentDisposition(up.filename) || req.headers['x-goog-content-length-range'] !== `${up.size},${up.size}`) {
        send(403);
        return storageError(res, 403, 'SignatureDoesNotMatch', 'The headers listed by fileUpload were not sent as signed.');
      }
      if (body.length !== up.size) {
        send(400);
        return storageError(res, 400, 'EntityTooLarge', `Body of ${body.length} bytes does not match the declared size ${up.size}.`);
      }
      up.content = body;
      send(200);
      res.writeHead(200, { 'content-length': '0' });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const up = state.uploadByAssetPath(url.pathname);
      if (!up || !up.content) {
        send(404);
        return storageError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      if (!up.makePublic && !credentialOf(simReq).cred) {
        send(401);
        res.writeHead(401, { 'content-type': 'text/plain' });
        return res.end('Unauthorized');
      }
      send(200);
      res.writeHead(200, { 'content-type': up.contentType, 'content-length': String(up.content.length) });
      return res.end(req.method === 'HEAD' ? undefined : up.content);
    }
    send(405);
    return storageError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  };
  await new Promise<void>((resolve, reject) => {
    uploads.once('error', reject);
    uploads.listen(0, '127.0.0.1', () => resolve());
  });
  const uploadsPort = (uploads.address() as AddressInfo).port;
  uploadsBase = `http://127.0.0.1:${uploadsPort}`;

  // ------------------------------------------------------------ remote control
  const issueJson = (id: string): Record<string, unknown> | undefined => {
    const i = state.issues.get(id);
    if (!i) return undefined;
    const st = state.states.get(i.stateId)!;
    const team = state.teams.get(i.teamId)!;
    const assignee = i.assigneeId ? state.users.get(i.assigneeId) : undefined;
    return {
      id: i.id,
      identifier: state.identifierOf(i),
      title: i.title,
      description: i.description,
      priority: i.priority,
      dueDate: i.dueDate,
      state: { id: st.id, name: st.name, type: st.type },
      team: { id: team.id, key: team.key, name: team.name },
      assignee: assignee ? { id: assignee.id, name: assignee.name, email: assignee.email } : null,
      parent: i.parentId ? { id: i.parentId } : null,
      labels: i.labelIds.map((l) => state.labels.get(l)?.name),
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      startedAt: i.startedAt,
      completedAt: i.completedAt,
      canceledAt: i.canceledAt,
      archivedAt: i.archivedAt,
      trashed: i.trashed,
    };
  };

  return {
    url: server.url,
    uploadsUrl: uploadsBase,
    uploadsHost: `127.0.0.1:${uploadsPort}`,
    state,
    clock,
    schema: loaded,
    specAvailable: loaded.official,
    viewer,
    apiKey: apiKeys[0]!,
    requests,
    uploadRequests,
    operations,
    clearRequests() {
      requests.length = 0;
      uploadRequests.length = 0;
      operations.length = 0;
    },
    faults,
    uploadFaults,
    specViolations,
    simulatorGaps,
    clearSpecViolations() {
      specViolations.length = 0;
      violationIndex.clear();
      simulatorGaps.length = 0;
    },
    rateLimitNext(times, o = {}) {
      const reset = String(Date.now() + (o.resetInMs ?? 60_000));
      const budget = o.budget ?? 'requests';
      faults.add({
        path: '/graphql',
        status: 400,
        times,
        body: rateLimitedBody(),
        headers: { [`x-ratelimit-${budget}-remaining`]: '0', [`x-ratelimit-${budget}-reset`]: reset },
      });
    },
    addApiKey,
    addAccessToken,
    issueJson,
    createIssueRemotely: (input, actorId = viewer.id) => state.createIssue(input, actorId),
    updateIssueRemotely: (id, input) => state.updateIssue(id, input),
    trashIssueRemotely: (id) => state.trashIssue(id),
    deleteIssuePermanently: (id) => state.deleteIssuePermanently(id),
    addCommentRemotely: (issueId, body, userId = viewer.id) => state.createComment({ issueId, body }, userId),
    seedIssues(n, o = {}) {
      const team = o.teamId ? state.teams.get(o.teamId) : [...state.teams.values()].find((t) => t.key === 'ENG');
      if (!team) throw new Error('no team to seed issues in');
      const states = state.statesOf(team.id);
      const users = [...state.users.values()].filter((u) => u.active);
      const out: IssueRecord[] = [];
      for (let i = 0; i < n; i++) {
        const issue = state.createIssue(
          {
            teamId: team.id,
            title: `Seeded issue ${i + 1}`,
            description: `Body of seeded issue ${i + 1}`,
            priority: i % 5,
            stateId: states[i % states.length]!.id,
            assigneeId: i % 3 === 0 ? null : users[i % users.length]!.id,
          },
          viewer.id,
        );
        out.push(issue);
        for (let c = 0; c < (o.commentsPerIssue ?? 0); c++) state.createComment({ issueId: issue.id, body: `Comment ${c + 1} on ${state.identifierOf(issue)}` }, users[c % users.length]!.id);
        if (o.spacingMs) clock.advance(o.spacingMs);
      }
      return out;
    },
    uploadedFile(assetUrl) {
      try {
        return state.uploadByAssetPath(new URL(assetUrl).pathname);
      } catch {
        return undefined;
      }
    },
    hooks,
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await Promise.all([
        server.close(),
        new Promise<void>((resolve) => {
          uploads.close(() => resolve());
          uploads.closeAllConnections();
        }),
      ]);
    },
  };
}
