/**
 * Minimal HTTP plumbing shared by the HubSpot and Pipedrive simulators: a node:http server bound to
 * 127.0.0.1:0, JSON body parsing, fault injection, request recording (credentials
 * redacted) and a controllable clock. Provider-specific behaviour (auth, routing, error
 * bodies, rate-limit headers) is supplied by the caller.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Query = URLSearchParams;

export interface SimRequest {
  method: string;
  /** Path without the query string, e.g. `/crm/v3/objects/contacts`. */
  path: string;
  query: Query;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` when there is no body; raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
  /** The body's bytes, exact (multipart uploads of binary files). */
  rawBytes: Buffer;
  /** Set when the body is present but not valid JSON. */
  bodyError?: string;
}

export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FaultSpec {
  /** HTTP method to match (case-insensitive); any when omitted. */
  method?: string;
  /** Matched against the request path (no query string); a string must match exactly. */
  path?: RegExp | string;
  /**
   * Status to answer with. `0` destroys the socket without a response. When omitted the
   * fault only adds `delayMs` and the request is then handled normally.
   */
  status?: number;
  /** How many matching requests the fault applies to (default 1; `Infinity` for ever). */
  times?: number;
  /** Adds a `Retry-After` header (seconds). */
  retryAfterSeconds?: number;
  /** Wait before answering (or before dropping the socket / handling normally). */
  delayMs?: number;
  /** Response body; the provider's own error body for `status` when omitted. */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Extra predicate over the request (e.g. inspect the body). */
  when?: (req: SimRequest) => boolean;
  /**
   * Runs when the fault applies, before the request is handled: changes the provider's data mid-run
   * (delete an item while a client pages through a list), so the answer already reflects the change.
   */
  before?: (req: SimRequest) => void;
}

export interface ActiveFault extends Readonly<FaultSpec> {
  readonly id: number;
  /** Remaining applications. */
  remaining: number;
  /** How many requests it has been applied to. */
  hits: number;
}

export class FaultController {
  private nextId = 1;
  private readonly faults: ActiveFault[] = [];

  /** Registers a fault; faults are tried in registration order, first match wins. */
  add(spec: FaultSpec): ActiveFault {
    const fault: ActiveFault = { ...spec, id: this.nextId++, remaining: spec.times ?? 1, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  remove(fault: ActiveFault | number): void {
    const id = typeof fault === 'number' ? fault : fault.id;
    const i = this.faults.findIndex((f) => f.id === id);
    if (i >= 0) this.faults.splice(i, 1);
  }

  clear(): void {
    this.faults.length = 0;
  }

  /** Faults that still have applications left. */
  get active(): readonly ActiveFault[] {
    return this.faults.filter((f) => f.remaining > 0);
  }

  /** Finds, consumes and returns the first fault matching the request. */
  take(req: SimRequest): ActiveFault | undefined {
    for (const f of this.faults) {
      if (f.remaining <= 0) continue;
      if (f.method && f.method.toUpperCase() !== req.method) continue;
      if (f.path !== undefined) {
        if (typeof f.path === 'string' ? f.path !== req.path : !testRegExp(f.path, req.path)) continue;
      }
      if (f.when && !f.when(req)) continue;
      f.remaining -= 1;
      f.hits += 1;
      return f;
    }
    return undefined;
  }
}

function testRegExp(re: RegExp, s: string): boolean {
  re.lastIndex = 0; // global/sticky regexps keep state between calls
  return re.test(s);
}

export interface RecordedRequest {
  seq: number;
  /** Epoch ms (simulator clock) when the request arrived. */
  at: number;
  method: string;
  path: string;
  /** Query parameters; credential parameters are replaced by `[redacted]`. */
  query: Record<string, string | string[]>;
  /** Lower-cased request headers; credential headers are replaced by `[redacted]`. */
  headers: Record<string, string>;
  body: unknown;
  /** Which registered credential authenticated the request (never the secret itself). */
  auth: { scheme: string; label: string | null; valid: boolean } | null;
  status: number;
  /** Id of the injected fault that answered/affected the request. */
  faultId: number | null;
  durationMs: number;
}

const REDACTED = '[redacted]';
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-token', 'private-token', 'cookie', 'proxy-authorization', 'x-api-key']);
const CREDENTIAL_QUERY = new Set(['api_token', 'hapikey', 'access_token', 'token', 'client_secret']);

export function redactHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    if (CREDENTIAL_HEADERS.has(key)) {
      // keep the scheme ("Bearer") – useful to assert on – but never the credential
      const first = Array.isArray(v) ? v[0] ?? '' : v;
      out[key] = key === 'authorization' && /^\S+\s/.test(first) ? `${first.split(/\s+/)[0]} ${REDACTED}` : REDACTED;
    } else {
      out[key] = Array.isArray(v) ? v.join(', ') : v;
    }
  }
  return out;
}

export function redactQuery(q: Query): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(q.keys())) {
    const all = CREDENTIAL_QUERY.has(key.toLowerCase()) ? q.getAll(key).map(() => REDACTED) : q.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** A clock the tests can move: real time plus an offset, or frozen. */
export class SimClock {
  private offset = 0;
  private frozenAt: number | null = null;
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.frozenAt ?? this.base() + this.offset;
  }
  /** Moves the clock forward (or backward with a negative value). */
  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offset += ms;
  }
  /** Stops the clock at `at` (default: now). */
  freeze(at: number = this.now()): void {
    this.frozenAt = at;
  }
  /** Lets the clock run again from its current reading. */
  unfreeze(): void {
    if (this.frozenAt === null) return;
    this.offset = this.frozenAt - this.base();
    this.frozenAt = null;
  }
}

export interface SimServerHooks {
  clock: SimClock;
  faults: FaultController;
  requests: RecordedRequest[];
  /** Whether to keep request bodies in the log (default true). */
  recordBodies?: boolean;
  /** Keep at most this many entries in `requests`, the oldest dropped (default: all; the sandbox runs for days). */
  maxRequestLog?: number;
  /** Called once per request as it arrives (before faults); e.g. for spec validation. */
  onRequest?(req: SimRequest): void;
  /** Identifies the credential used, for the request log (must not return the secret). */
  describeAuth(req: SimRequest): RecordedRequest['auth'];
  /** Response for an injected fault with a status (body/headers already merged by the kit). */
  faultResponse(fault: ActiveFault, req: SimRequest): SimResponse;
  /** Normal handling. Throwing a SimHttpError turns into its response. */
  handle(req: SimRequest): Promise<SimResponse> | SimResponse;
  /** Last chance to add headers (rate limits) to every response, faults included. */
  decorate?(req: SimRequest, res: SimResponse): void;
  /** Response for an unexpected exception thrown by `handle`. */
  internalError(err: unknown, req: SimRequest): SimResponse;
}

export class SimHttpError extends Error {
  constructor(readonly response: SimResponse) {
    super(`simulated HTTP ${response.status}`);
  }
}

export interface SimServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startSimServer(hooks: SimServerHooks): Promise<SimServer> {
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void serve(req, res, Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 5_000;

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, rawBytes: Buffer) {
    const rawBody = rawBytes.toString('utf8');
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const simReq: SimRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      rawBody,
      rawBytes,
    };
    if (rawBody.length > 0) {
      try {
        simReq.body = JSON.parse(rawBody);
      } catch (e) {
        simReq.body = rawBody;
        simReq.bodyError = (e as Error).message;
      }
    }
    const entry: RecordedRequest = {
      seq: ++seq,
      at: hooks.clock.now(),
      method: simReq.method,
      path: simReq.path,
      query: redactQuery(simReq.query),
      headers: redactHeaders(req.headers),
      body: hooks.recordBodies === false ? undefined : simReq.body,
      auth: hooks.describeAuth(simReq),
      status: 0,
      faultId: null,
      durationMs: 0,
    };
    hooks.requests.push(entry);
    if (hooks.maxRequestLog !== undefined && hooks.requests.length > hooks.maxRequestLog) hooks.requests.splice(0, hooks.requests.length - hooks.maxRequestLog);
    hooks.onRequest?.(simReq);

    const fault = hooks.faults.take(simReq);
    let response: SimResponse;
    if (fault) {
      entry.faultId = fault.id;
      fault.before?.(simReq);
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.status === 0) {
        entry.status = 0;
        entry.durationMs = performance.now() - started;
        req.socket.destroy();
        return;
      }
    }
    if (fault && fault.status !== undefined) {
      response = hooks.faultResponse(fault, simReq);
      if (fault.body !== undefined) response.body = fault.body;
      response.headers = { ...(response.headers ?? {}) };
      if (fault.retryAfterSeconds !== undefined) response.headers['retry-after'] = String(fault.retryAfterSeconds);
      Object.assign(response.headers, lowerKeys(fault.headers ?? {}));
    } else {
      try {
        response = await hooks.handle(simReq);
      } catch (err) {
        response = err instanceof SimHttpError ? err.response : hooks.internalError(err, simReq);
      }
    }
    hooks.decorate?.(simReq, response);
    entry.status = response.status;
    entry.durationMs = performance.now() - started;
    send(res, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function send(res: http.ServerResponse, r: SimResponse) {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let payload: string | undefined;
  if (r.body !== undefined && r.status !== 204 && r.status !== 304) {
    payload = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      headers['content-type'] = typeof r.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json;charset=utf-8';
    }
  }
  res.writeHead(r.status, headers);
  res.end(payload);
}
