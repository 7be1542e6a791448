/**
 * An HTTP proxy between Omniport and a provider simulator that fails a fixed share of write calls, before
 * or after forwarding them (seeded per call, so a run repeats whatever the order of concurrent calls): 500, 502, 503, a reset connection, or no answer.
 * Reads pass through. Absolute links in answers are rewritten to the proxy so pagination stays on it.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultKind = 500 | 502 | 503 | 'reset' | 'no_answer';
export type FaultTiming = 'before' | 'after';

export interface InjectedFault {
  method: string;
  path: string;
  kind: FaultKind;
  /** `after`: the provider received the call and did the work before the client saw the fault. */
  timing: FaultTiming;
}

export interface FaultProxyOptions {
  target: string;
  /** Share of write calls (not GET/HEAD) that fail, 0–1. */
  rate: number;
  seed: number;
  /** How long a `no_answer` fault holds the connection before dropping it (longer than the client's timeout). */
  holdMs: number;
}

export interface ForcedFault {
  kind: FaultKind;
  timing: FaultTiming;
  /** Which write calls it hits (default every one), by method, path and body text. */
  match?: (call: { method: string; path: string; body: string }) => boolean;
  /** How many matching calls (default 1). */
  times?: number;
}

export interface FaultProxy {
  readonly url: string;
  /** Fails the next matching write calls this way, whatever the rate says. */
  force(fault: ForcedFault): void;
  readonly injected: InjectedFault[];
  /** Counts of write calls forwarded, by `METHOD path`. */
  readonly writes: number;
  enabled: boolean;
  close(): Promise<void>;
}

/**
 * Three draws in [0, 1) for one write call, from a hash of the seed, the call and how many times this very
 * call (same method, path and body) was seen: a call's fate does not depend on the order of concurrent calls.
 */
function draws(seed: number, call: string, occurrence: number): [number, number, number] {
  const h = createHash('sha256').update(`${seed}\n${occurrence}\n${call}`).digest();
  return [h.readUInt32BE(0) / 2 ** 32, h.readUInt32BE(4) / 2 ** 32, h.readUInt32BE(8) / 2 ** 32];
}

const KINDS: FaultKind[] = [500, 502, 503, 'reset', 'no_answer'];

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const seen = new Map<string, number>();
  const forced: Array<ForcedFault & { left: number }> = [];
  const target = new URL(opts.target);
  const injected: InjectedFault[] = [];
  const sockets = new Set<Socket>();
  const held = new Set<NodeJS.Timeout>();
  let url = '';
  let writes = 0;

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      delete headers['content-length'];
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, 'content-length': String(body.length) } },
        (res) => void readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject),
      );
      out.on('error', reject);
      out.end(body);
    });

  const fail = (res: ServerResponse, kind: FaultKind) => {
    if (kind === 'reset') return void res.socket?.destroy();
    if (kind === 'no_answer') {
      const t = setTimeout(() => {
        held.delete(t);
        res.socket?.destroy();
      }, opts.holdMs);
      held.add(t);
      return;
    }
    res.writeHead(kind, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `injected ${kind}` }));
  };

  let enabled = true;
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const write = req.method !== 'GET' && req.method !== 'HEAD';
      if (write) writes++;
      let fault: InjectedFault | undefined;
      const path = (req.url ?? '').split('?')[0]!;
      const planned = write ? forced.find((f) => f.left > 0 && (!f.match || f.match({ method: req.method!, path, body: body.toString('utf8') }))) : undefined;
      if (planned) {
        planned.left--;
        fault = { method: req.method!, path, kind: planned.kind, timing: planned.timing };
        injected.push(fault);
      } else if (write && enabled) {
        const call = `${req.method} ${req.url}\n${body.toString('base64')}`;
        const occurrence = (seen.get(call) ?? 0) + 1;
        seen.set(call, occurrence);
        const [fails, kind, timing] = draws(opts.seed, call, occurrence);
        if (fails < opts.rate) {
          fault = { method: req.method!, path: (req.url ?? '').split('?')[0]!, kind: KINDS[Math.floor(kind * KINDS.length)]!, timing: timing < 0.5 ? 'before' : 'after' };
          injected.push(fault);
        }
      }
      if (fault?.timing === 'before') return fail(res, fault.kind);
      const answer = await forward(req, body);
      if (fault) return fail(res, fault.kind);
      const json = String(answer.headers['content-type'] ?? '').includes('json');
      const text = json ? answer.body.toString('utf8').split(opts.target.replace(/\/$/, '')).join(url) : answer.body;
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      delete headers.connection;
      if (typeof headers.location === 'string') headers.location = headers.location.replace(opts.target.replace(/\/$/, ''), url);
      res.writeHead(answer.status, headers).end(text);
    })().catch(() => res.socket?.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    injected,
    force: (f) => void forced.push({ ...f, left: f.times ?? 1 }),
    get writes() {
      return writes;
    },
    get enabled() {
      return enabled;
    },
    set enabled(on: boolean) {
      enabled = on;
    },
    async close() {
      for (const t of held) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
