/**
 * Validation of Zoho CRM simulator traffic against Zoho's OpenAPI documents in the shared provider-specs
 * folder (`zoho-crm/v8.0/*.json`, one document per resource). The documents the simulator serves
 * (record.json, notes.json, users.json, fields.json) are merged into one, their components renamed per
 * document and their cross-document `$ref`s (absolute raw.githubusercontent.com URLs, see SOURCE.md)
 * pointed at the local copies, then written to a temporary file for the shared validator. Skipped, with
 * `available` false, when the folder is absent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createViolationLog, loadOpenApiValidator, type KnownDeviation, type OpenApiValidator, type SpecViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

const REMOTE = 'https://raw.githubusercontent.com/Zohocorp-Pvt-Ltd/crm-oas/refs/heads/main/v8.0/';
const SERVED = ['record.json', 'notes.json', 'users.json', 'fields.json'];

/** Where Zoho's documents contradict Zoho's documented behaviour. */
export const ZOHO_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      "notes.json describes the Create and Update Notes bodies with the answered `Note` (server-set id, Created_Time, Created_By, Modified_By, Owner, Note_Title required, and the module's id in Parent_Id), while the Create Notes reference (https://www.zoho.com/crm/developer/docs/api/v8/create-notes.html) sends Note_Content and Parent_Id {module: {api_name}, id}",
    kind: 'request',
    location: 'body',
    keyword: 'required',
    when: (v) => (v.method === 'POST' || v.method === 'PUT') && /^\/crm\/v8\/Notes(\/\d+)?$/.test(v.path),
  },
  {
    reason:
      "notes.json answers `next_page_token` (and `page_token_expiry`) in the Notes list's info but omits the `page_token` parameter, which Get Records documents for going past 2,000 records (https://www.zoho.com/crm/developer/docs/api/v8/get-records.html)",
    kind: 'request',
    location: 'query',
    when: (v) => v.path === '/crm/v8/Notes' && v.message.includes('page_token'),
  },
  {
    reason:
      'notes.json marks `ids` required on GET /crm/v8/Notes, while the Notes API reference (https://www.zoho.com/crm/developer/docs/api/v8/get-notes.html) lists every note with `fields`, `page`, `per_page`, `sort_by` and `sort_order`, `ids` being an optional filter',
    kind: 'request',
    location: 'query',
    keyword: 'required',
    when: (v) => v.path === '/crm/v8/Notes' && v.message.includes("'ids'"),
  },
  {
    reason:
      'users.json restricts GET /crm/v8/users `type` to six values without AllUsers, which the Users API reference (https://www.zoho.com/crm/developer/docs/api/v8/get-users.html) documents for listing every user whatever their status',
    kind: 'request',
    location: 'query',
    keyword: 'enum',
    when: (v) => v.path === '/crm/v8/users' && v.pointer === '/type' && v.data === 'AllUsers',
  },
];

type Json = Record<string, unknown>;

/** One OpenAPI document with the paths of `files` and every component they reach, renamed `<file>__<name>`. */
export function mergeZohoDocuments(dir: string, files: string[] = SERVED): Json {
  const docs = new Map<string, Json>();
  const load = (file: string) => {
    let d = docs.get(file);
    if (!d) {
      d = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Json;
      docs.set(file, d);
    }
    return d;
  };
  const components: Record<string, Json> = {};
  const pending: [string, string, string][] = [];
  const done = new Set<string>();
  const tag = (file: string) => file.replace(/\.json$/, '');
  /** Rewrites the refs of `node` (found in `file`) to merged names, queueing what they point at. */
  const rewrite = (node: unknown, file: string): unknown => {
    if (Array.isArray(node)) return node.map((x) => rewrite(x, file));
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === '$ref' && typeof v === 'string') {
        const [doc, pointer = ''] = v.split('#');
        const target = doc ? doc.replace(REMOTE, '') : file;
        const m = /^\/components\/([^/]+)\/(.+)$/.exec(pointer);
        if (!m) {
          out[k] = v;
          continue;
        }
        const name = `${tag(target)}__${m[2]}`;
        if (!done.has(`${m[1]}/${name}`)) {
          done.add(`${m[1]}/${name}`);
          pending.push([target, m[1]!, m[2]!]);
        }
        out[k] = `#/components/${m[1]}/${name}`;
      } else out[k] = rewrite(v, file);
    }
    return out;
  };
  const paths: Json = {};
  for (const file of files) {
    for (const [p, item] of Object.entries((load(file).paths ?? {}) as Json)) paths[p] = rewrite(withoutExceptionAlternative(item), file);
  }
  while (pending.length) {
    const [file, kind, name] = pending.shift()!;
    const own = (f: string) => ((load(f).components as Json | undefined)?.[kind] as Json | undefined)?.[name] as Json | undefined;
    // notes.json refers to `#/components/parameters/If-Modified-Since` without defining it: a reference a
    // document does not define is taken from record.json (the records API it follows), then common.json.
    const source = own(file) ?? (file !== 'record.json' ? own('record.json') : undefined) ?? own('common.json');
    let component = source ?? {};
    if (kind === 'responses') component = (withoutExceptionAlternative({ get: { responses: { '200': component } } }) as { get: { responses: Json } }).get.responses['200'] as Json;
    if (kind === 'schemas' && file === 'fields.json' && (name === 'fields' || name === 'pick_list_values')) {
      // See FIELDS_REQUIRED below.
      const { required: _all, ...rest } = component as Json;
      component = rest;
    }
    if (kind === 'schemas' && file === 'notes.json' && name === 'Note' && Array.isArray((component as Json).required)) {
      // See NOTE_META_REQUIRED below.
      component = { ...(component as Json), required: ((component as Json).required as string[]).filter((p) => !p.startsWith('$')) };
    }
    // users.json gives a user's email and website the patterns of its example values
    // ([a-z0-9]{9}@[a-z0-9]{5}.com): users have any address, so its `pattern`s are dropped.
    if (file === 'users.json') component = withoutPatterns(component) as Json;
    (components[kind] ??= {})[`${tag(file)}__${name}`] = rewrite(component, file);
  }
  const first = load(files[0]!);
  return { openapi: first.openapi, info: first.info, servers: first.servers, paths, components };
}

/**
 * The documents answer 2xx with `oneOf: [<wrapper>, API_Exception]`; API_Exception declares no required
 * property, so every wrapper also matches it and the `oneOf` can never hold exactly once (nor check the
 * wrapper). Zoho answers request errors with 4xx statuses (its status code reference:
 * https://www.zoho.com/crm/developer/docs/api/v8/status-codes.html): a 2xx is checked against the
 * wrapper alone. The per-record `oneOf: [Success_Response, API_Exception]` inside write answers is kept
 * (the two differ by their `status` enum).
 */
function withoutExceptionAlternative(item: unknown): unknown {
  const clone = structuredClone(item) as Json;
  for (const op of Object.values(clone)) {
    const responses = (op as Json | undefined)?.responses as Json | undefined;
    if (!responses || typeof responses !== 'object') continue;
    for (const [code, res] of Object.entries(responses)) {
      if (!/^2/.test(code)) continue;
      for (const media of Object.values(((res as Json).content ?? {}) as Json)) {
        const schema = (media as Json).schema as Json | undefined;
        const alts = schema?.oneOf as Json[] | undefined;
        if (!Array.isArray(alts)) continue;
        // File_Body_Wrapper is the body of file answers (photos, attachments), never of a JSON record answer.
        const kept = alts.filter((a) => !(typeof a.$ref === 'string' && /(API_Exception|File_Body_Wrapper)$/.test(a.$ref)));
        if (kept.length > 0 && kept.length < alts.length) (media as Json).schema = kept.length === 1 ? kept[0]! : { oneOf: kept };
      }
    }
  }
  return clone;
}

/**
 * FIELDS_REQUIRED: fields.json's `fields` schema marks all 75 of its properties required (and a picklist
 * value's six), among them properties the Fields metadata reference
 * (https://www.zoho.com/crm/developer/docs/api/v8/field-meta.html) describes for some data types only
 * (lookup, formula, auto_number, currency, multiselectlookup, subform, …). The merged document drops
 * those two `required` lists: the types of the properties answered are still checked.
 */

function withoutPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node as Json).filter(([k, v]) => !(k === 'pattern' && typeof v === 'string')).map(([k, v]) => [k, withoutPatterns(v)]));
}

/**
 * NOTE_META_REQUIRED: notes.json's `Note` marks its `$` properties ($attachments, $editable, $size, $state,
 * $voice_note, $is_shared_to_client, …) required, while Get Notes answers only the fields asked in the
 * mandatory `fields` parameter (https://www.zoho.com/crm/developer/docs/api/v8/get-notes.html), which
 * cannot name them. The merged document keeps the Note's other required properties.
 */

export interface ZohoSpecCheck {
  readonly available: boolean;
  readonly violations: SpecViolation[];
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
}

let merged: string | undefined;

export async function loadZohoSpecCheck(opts: { enabled?: boolean } = {}): Promise<ZohoSpecCheck> {
  const dir = specPath('zoho-crm', 'v8.0');
  const enabled = opts.enabled !== false && Boolean(dir);
  if (enabled && !merged) {
    merged = path.join(mkdtempSync(path.join(tmpdir(), 'zoho-oas-')), 'zoho-crm-v8.json');
    writeFileSync(merged, JSON.stringify(mergeZohoDocuments(dir!)));
  }
  // The documents omit `nullable` on fields Zoho answers null; undocumented statuses (204, 429) are not findings.
  const validator: OpenApiValidator | undefined = enabled ? await loadOpenApiValidator(merged!, { relaxNullable: 'all', reportUndocumentedStatus: false }) : undefined;
  const log = createViolationLog(ZOHO_KNOWN_DEVIATIONS);
  const undocumented: { method: string; path: string }[] = [];
  return {
    available: enabled,
    violations: log.violations,
    undocumented,
    checkRequest(req) {
      if (!validator) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) query[key] = req.query.getAll(key).length === 1 ? req.query.get(key)! : req.query.getAll(key);
      const { violations } = validator.validateRequest({ method: req.method, path: req.path, query, headers: req.headers, body: req.body });
      if (violations.some((v) => v.keyword === 'route')) undocumented.push({ method: req.method, path: req.path });
      else log.record(violations);
    },
    checkResponse(req, status, body) {
      if (!validator || status === 204 || status === 304) return;
      const operation = validator.matchOperation(req.method, req.path);
      if (!operation) return;
      log.record(validator.validateResponse({ method: req.method, path: req.path, operation, status, body }));
    },
  };
}
