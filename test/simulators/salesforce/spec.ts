/**
 * Salesforce simulator traffic checked against the shared descriptions (../shared/provider-specs/salesforce):
 *  - `/sobjects/{Type}[/{id}]` against the generated sObjects OpenAPI description (v59.0, paths relative to
 *    `/services/data/v59.0`): requests and answers;
 *  - every other REST call (query, queryAll, describe, limits, sObject Collections) against the request
 *    templates of Salesforce's Postman collection: method, path and query parameter names.
 * Skipped, with `available` false, when the files are absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createViolationLog, loadOpenApiValidator, type KnownDeviation, type OpenApiValidator, type SpecViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

const PREFIX = '/services/data/v59.0';

/** Where the real API and the Postman templates differ (the templates carry no responses; the REST reference decides). */
export const SALESFORCE_TEMPLATE_DEVIATIONS: readonly { method: string; path: RegExp; reason: string }[] = [
  {
    method: 'GET',
    path: /^\/query\/01g[A-Za-z0-9]+-\d+$/,
    reason: 'query.json: "the response contains … a query identifier in the nextRecordsUrl field … used in an additional request to retrieve the next batch" — the next-batch URL has no template of its own',
  },
  {
    method: 'GET',
    path: /^\/sobjects\/ContentVersion\/[a-zA-Z0-9]{15,18}\/VersionData$/,
    reason:
      'sObject Blob Get (REST API reference, resources_sobject_blob_retrieve.htm: GET /sobjects/{sObject}/{id}/{blobField}) reads the bytes of a base64 field such as ContentVersion.VersionData; the Postman collection has no template for it',
  },
  {
    method: 'DELETE',
    path: /^\/composite\/sobjects$/,
    reason:
      'sobject_collections_delete.json puts <SOBJECT_API_NAME> in the path, while the REST API reference (resources_composite_sobjects_collections_delete.htm) documents DELETE /composite/sobjects?ids=…&allOrNone=… — the ids may be of different types',
  },
];

/** Where the real API and the generated sObjects description differ (the REST reference decides). */
export const SALESFORCE_SPEC_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'base64 fields (ContentVersion.VersionData) are sent as a base64 string in the JSON body ("Insert or Update Blob Data", REST API reference, dome_sobject_insert_update_blob.htm); the generated description types them as an object',
    kind: 'request',
    location: 'body',
    pointer: /^\/VersionData$/,
    keyword: 'type',
  },
];

interface Template {
  method: string;
  path: RegExp;
  params: Set<string>;
}

function loadTemplates(dir: string): Template[] {
  const out: Template[] = [];
  for (const sub of ['rest', 'composite']) {
    for (const file of readdirSync(path.join(dir, sub)).filter((f) => f.endsWith('.json'))) {
      const t = JSON.parse(readFileSync(path.join(dir, sub, file), 'utf8')) as { method: string; url: string; queryParams?: { key: string }[] };
      const m = /\{\{_endpoint\}\}\/services\/data\/v\{\{version\}\}(\/[^?]*)?/.exec(t.url);
      if (!m) continue;
      const p = (m[1] ?? '/').replace(/\/$/, '');
      const pattern = p.split('/').map((seg) => (/^<.+>$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      out.push({ method: t.method, path: new RegExp(`^${pattern}$`), params: new Set((t.queryParams ?? []).map((q) => q.key)) });
    }
  }
  return out;
}

export interface SalesforceSpecCheck {
  readonly available: boolean;
  readonly violations: SpecViolation[];
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
}

export async function loadSalesforceSpecCheck(opts: { enabled?: boolean } = {}): Promise<SalesforceSpecCheck> {
  const file = specPath('salesforce', 'salesforce-crm-trimmed.oas.json');
  const postman = specPath('salesforce', 'postman-2021');
  const enabled = opts.enabled !== false && Boolean(file) && Boolean(postman);
  // The generated description marks no field nullable; Salesforce answers null for every empty field.
  const validator: OpenApiValidator | undefined = enabled ? await loadOpenApiValidator(file!, { relaxNullable: 'all', reportUndocumentedStatus: false }) : undefined;
  const templates = enabled ? loadTemplates(postman!) : [];
  const log = createViolationLog(SALESFORCE_SPEC_DEVIATIONS);
  const undocumented: { method: string; path: string }[] = [];
  const rel = (p: string) => (p.startsWith(`${PREFIX}/`) ? p.slice(PREFIX.length).replace(/\/$/, '') : undefined);
  const isSObjectPath = (p: string) => /^\/sobjects\/\w+(\/[a-zA-Z0-9]{15,18})?$/.test(p);
  return {
    available: enabled,
    violations: log.violations,
    undocumented,
    checkRequest(req) {
      const p = rel(req.path);
      if (!validator || !p) return;
      if (isSObjectPath(p)) {
        const query: Record<string, string | string[]> = {};
        for (const key of new Set(req.query.keys())) query[key] = req.query.getAll(key).length === 1 ? req.query.get(key)! : req.query.getAll(key);
        const { violations } = validator.validateRequest({ method: req.method, path: p, query, headers: req.headers, body: req.body });
        if (violations.some((v) => v.keyword === 'route')) undocumented.push({ method: req.method, path: req.path });
        else log.record(violations);
        return;
      }
      if (SALESFORCE_TEMPLATE_DEVIATIONS.some((d) => d.method === req.method && d.path.test(p))) return;
      const t = templates.find((x) => x.method === req.method && x.path.test(p));
      if (!t) {
        undocumented.push({ method: req.method, path: req.path });
        return;
      }
      for (const key of new Set(req.query.keys())) {
        if (!t.params.has(key)) undocumented.push({ method: req.method, path: `${req.path}?${key}` });
      }
    },
    checkResponse(req, status, body) {
      const p = rel(req.path);
      if (!validator || !p || !isSObjectPath(p)) return;
      const operation = validator.matchOperation(req.method, p);
      if (!operation) return;
      log.record(validator.validateResponse({ method: req.method, path: p, operation, status, body }));
    },
  };
}
