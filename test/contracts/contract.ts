/**
 * Declared contracts of the providers that publish no machine-readable API description (Freshdesk, Gorgias,
 * Help Scout, ServiceNow, Dynamics 365, Zendesk Sell): every endpoint, query parameter and request field the
 * adapter uses, each with the documentation page it comes from. Checked against reality both ways: every
 * request the adapter sent during the provider's conformance suite (the traffic of recorded-requests.ts) and
 * its simulator-driven adapter tests (test/providers/<name>) must match an entry, so an adapter change that
 * uses something undocumented fails; and the contract tests (test/contracts/<provider>.contract.test.ts)
 * probe every entry against the simulator, so an entry with no simulator route fails.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../simulators/shared/http-kit';
import { NO_ROUTE_HEADER } from '../simulators/shared/no-route';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: Method;
  /** Path template, parameters in braces: `/api/v2/tickets/{id}`, `/api/data/v9.2/contacts({id})`. */
  path: string;
  /** The documentation page(s) the endpoint, its parameters and fields come from. */
  doc: string | string[];
  /** Query parameters the adapter sends. */
  query?: readonly string[];
  /**
   * Request body fields the adapter sends: JSON keys (of the object, or of each element of an array body),
   * `a.b` to check the keys inside `a` too; multipart form field names for form bodies; `u_*` for a documented
   * family of names (custom columns). `raw` for a body
   * that has no fields (a file, an OData `$batch`, whose parts are checked as requests of their own).
   */
  body?: readonly string[] | 'raw';
  /** Response fields the adapter reads (declared for review; the request log keeps no answers). */
  response?: readonly string[];
}

export interface ProviderContract {
  provider: string;
  /** Hosts the documentation links must be on (the provider's own developer documentation). */
  docHosts: readonly string[];
  endpoints: readonly Endpoint[];
}

const docsOf = (e: Endpoint) => (Array.isArray(e.doc) ? e.doc : [e.doc as string]);

function templateRegExp(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/);
  return new RegExp(`^${parts.map((p) => (p.startsWith('{') ? '[^/()]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}/?$`);
}

/** Field names of a body: JSON keys (nested where the contract asks, `a.b`), or multipart form names. */
function fieldsOf(body: unknown, declared: readonly string[], prefix = ''): string[] {
  if (typeof body === 'string') {
    return [...body.matchAll(/content-disposition:\s*form-data;\s*name="([^"]+)"/gi)].map((m) => m[1]!);
  }
  if (Array.isArray(body)) return [...new Set(body.flatMap((x) => fieldsOf(x, declared, prefix)))];
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([k, v]) => {
    const name = `${prefix}${k}`;
    const deeper = declared.some((d) => d.startsWith(`${name}.`));
    return deeper && v && typeof v === 'object' ? [name, ...fieldsOf(v, declared, `${name}.`)] : [name];
  });
}

const declares = (declared: readonly string[], name: string) => declared.some((d) => d === name || (d.endsWith('*') && name.startsWith(d.slice(0, -1))));

const routeOf = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, '/{n}').replace(/\([0-9a-f-]{36}\)/gi, '({id})')}`;

/** Problems of the contract itself: doc links on the provider's documentation, no duplicate entries. */
export function contractProblems(contract: ProviderContract): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of contract.endpoints) {
    const key = `${e.method} ${e.path}`;
    if (seen.has(key)) out.push(`${key}: declared twice`);
    seen.add(key);
    for (const d of docsOf(e)) {
      let host = '';
      try {
        host = new URL(d).host;
      } catch {
        /* reported below */
      }
      if (!contract.docHosts.includes(host)) out.push(`${key}: documentation link ${d} is not on ${contract.docHosts.join(' or ')}`);
    }
  }
  return out;
}

/** Sent by a test itself to a simulator (checking what the adapter stored), not by the adapter: not checked. */
export const TEST_TRAFFIC_HEADER = 'x-test-traffic';

/**
 * Requests of the log that match no entry, or send a query parameter or body field their entry does not
 * list, one line per distinct problem. Requests answered by an injected fault are checked too: the adapter
 * sent them.
 */
export function undocumentedRequests(contract: ProviderContract, requests: readonly RecordedRequest[]): string[] {
  const compiled = contract.endpoints.map((e) => ({ e, re: templateRegExp(e.path) }));
  const out = new Set<string>();
  for (const r of requests) {
    if (r.headers[TEST_TRAFFIC_HEADER]) continue;
    const hit = compiled.find((c) => c.e.method === r.method && c.re.test(r.path));
    if (!hit) {
      out.add(`${routeOf(r)}: no contract entry (document it with its page, or fix the adapter)`);
      continue;
    }
    const { e } = hit;
    for (const q of Object.keys(r.query)) if (!(e.query ?? []).includes(q)) out.add(`${e.method} ${e.path}: query parameter "${q}" is not in the contract`);
    if (e.body === 'raw' || r.body === undefined || r.body === '') continue;
    const declared = e.body ?? [];
    for (const f of fieldsOf(r.body, declared)) if (!declares(declared, f)) out.add(`${e.method} ${e.path}: body field "${f}" is not in the contract`);
  }
  return [...out];
}

/** Fails a test with every request of the log the contract does not document. */
export function expectRequestsDocumented(contract: ProviderContract, requests: readonly RecordedRequest[]): void {
  expect(undocumentedRequests(contract, requests), `${contract.provider}: requests test/contracts/${contract.provider}.contract.ts does not document (document them with their page, or fix the adapter)`).toEqual([]);
}

/** Entry counts, for the report: endpoints, query parameters, body fields, response fields. */
export function contractCounts(contract: ProviderContract) {
  const sum = (f: (e: Endpoint) => number) => contract.endpoints.reduce((n, e) => n + f(e), 0);
  return {
    endpoints: contract.endpoints.length,
    params: sum((e) => e.query?.length ?? 0),
    fields: sum((e) => (Array.isArray(e.body) ? e.body.length : 0) + (e.response?.length ?? 0)),
  };
}

/** A running simulator for the probes: where it is, and the headers the adapter would authenticate with. */
export interface ProbeTarget {
  url: string;
  headers: Record<string, string>;
  /** Values for path parameters (default `1`), e.g. a GUID for Dataverse keys. */
  samples?: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Entries no route of the simulator serves: each endpoint is requested once (ids that need not exist, an
 * empty JSON body for writes) and must not be answered with the simulator's no-route mark.
 */
export async function unroutedEndpoints(contract: ProviderContract, target: ProbeTarget): Promise<string[]> {
  const out: string[] = [];
  for (const e of contract.endpoints) {
    const path = e.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(target.samples?.[k] ?? '1'));
    const write = e.method !== 'GET' && e.method !== 'DELETE';
    const res = await fetch(`${target.url}${path}`, { method: e.method, headers: { ...target.headers, ...(write ? { 'content-type': 'application/json' } : {}) }, body: write ? '{}' : undefined });
    await res.arrayBuffer();
    if (res.status === 401) out.push(`${e.method} ${e.path}: the probe was not signed in (401)`);
    else if (res.headers.has(NO_ROUTE_HEADER)) out.push(`${e.method} ${e.path}: no simulator route (${res.status})`);
  }
  return out;
}

/** The contract test of one provider: the contract is well formed, and its simulator serves every entry. */
export function runContractTest(contract: ProviderContract, start: () => Promise<ProbeTarget>): void {
  describe(`declared contract: ${contract.provider}`, () => {
    it('cites the provider documentation for every entry, each entry once', () => {
      expect(contract.endpoints.length).toBeGreaterThan(0);
      expect(contractProblems(contract)).toEqual([]);
    });
    it('is served by the simulator, entry by entry', async () => {
      const target = await start();
      try {
        expect(await unroutedEndpoints(contract, target)).toEqual([]);
      } finally {
        await target.close();
      }
    });
  });
}
