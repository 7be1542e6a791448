/**
 * Validation of simulator traffic against GitLab's OpenAPI description (shared/provider-specs/gitlab:
 * GitLab's generated Swagger 2.0 `openapi_v2.yaml`, converted to OpenAPI 3.0 by gkze/curator with its
 * patch merged; see SOURCE.md there). The document is 2.3 MB: it is parsed once per process (the
 * validator caches it). When it is absent, validation is skipped and `available` is false.
 *
 * The generated document is known to be incomplete: it has no Notes, Labels or Uploads-download
 * operations, many response schemas are the single entity where GitLab answers an array, and Grape
 * types most integers as strings. Requests to undocumented operations are listed in `undocumented`;
 * the differences below are allowlisted with their reason (`deviations`); everything else is a
 * violation (`violations`), which tests assert stays empty.
 */
import {
  createViolationLog,
  loadOpenApiValidator,
  type KnownDeviation,
  type OpenApiValidator,
  type SpecViolation,
} from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

const unknownQueryParam = (v: { message: string }) => /^unknown query parameter '(.+)'$/.exec(v.message)?.[1];

/**
 * Where GitLab's generated document disagrees with GitLab. Nullability is handled at load time
 * (`relaxNullable: 'all'`): GitLab renders every unset attribute as `null` (`closed_at`, `closed_by`,
 * `milestone`, `due_date`, `description`, `assignee`, `parent_id`, …) and the generated schemas never
 * say `nullable`.
 */
export const GITLAB_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'List endpoints answer a JSON array of entities; the generated document declares the single entity (Grape `success Entities::Issue` without `is_array`) for GET /projects/:id/issues.',
    kind: 'response',
    operationId: 'getApiV4ProjectsIdIssues',
    status: 200,
    pointer: /^$/,
    keyword: 'type',
  },
  {
    reason:
      'Grape entities expose counters and ids as integers and flags as booleans (e.g. issue `user_notes_count`, `upvotes`, `weight`, member `access_level`, group `id`, `parent_id`, `default_branch_protection`, `two_factor_grace_period`, upload `id`); the generator types every attribute without a documented type as string.',
    kind: 'response',
    keyword: 'type',
    when: (v) => (typeof v.data === 'number' || typeof v.data === 'boolean') && /must be string/.test(v.message),
  },
  {
    reason:
      'Issue `assignees` is an array of users (`expose :assignees, using: UserBasic`); the generated document declares one UserBasic object.',
    kind: 'response',
    pointer: /(^|\/)assignees$/,
    keyword: 'type',
    when: (v) => Array.isArray(v.data),
  },
  {
    reason:
      'Issue `task_completion_status` is an object `{count, completed_count}` and `has_tasks` a boolean; the generated document types them as strings.',
    kind: 'response',
    pointer: /(^|\/)(task_completion_status|has_tasks)$/,
    keyword: 'type',
  },
  {
    reason:
      'Group `default_branch_protection_defaults` and similar settings are objects; `statistics` sizes are integers. The generator types undocumented attributes as strings.',
    kind: 'response',
    operationId: /^getApiV4Groups/,
    keyword: 'type',
    when: (v) => v.data !== null && typeof v.data === 'object',
  },
  {
    reason:
      'Associations GitLab renders as null when absent (issue `closed_by`, `milestone`, `assignee`, `epic`, `iteration`; member `created_by`) are `$ref` objects in the document, which `relaxNullable` cannot reach (it relaxes typed properties only).',
    kind: 'response',
    keyword: 'type',
    when: (v) => v.data === null && /must be object/.test(v.message),
  },
  {
    reason:
      'The member entity schema does not compile: `API_Entities_MemberRole` declares `name` and `description` with `type: text`, which is not a JSON Schema type (Grape\'s documentation type leaked into the Swagger 2.0 source), so member list responses (GET /projects/:id/members/all, GET /groups/:id/members) cannot be validated.',
    kind: 'response',
    operationId: /^getApiV4(Projects|Groups)IdMembers(All)?$/,
    keyword: 'compile',
  },
  {
    reason:
      'An expired or revoked token is refused with the OAuth error shape `{"error": "invalid_token", "error_description": "Token is expired. …"}`; the patch merged into the document declares `{message}` for the 401 of GET /user.',
    kind: 'response',
    status: 401,
    keyword: 'required',
    when: (v) => v.message.includes("'message'") && (v.data as { error?: unknown } | undefined)?.error === 'invalid_token',
  },
  {
    reason:
      'Error answers (400 parameter/validation errors, 401, 403, 404, 413, 422, 429 "Retry later", 5xx) exist on every operation but the generated document lists few of them.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
  {
    reason:
      'Label lists (`labels`, `add_labels`, `remove_labels`) are Grape `Array[String]` with `CommaSeparatedToArray` coercion: a comma-separated string is accepted as well (the parameter descriptions say "Comma-separated list of label names").',
    kind: 'request',
    location: 'body',
    pointer: /^\/(labels|add_labels|remove_labels)$/,
    keyword: 'type',
    when: (v) => typeof v.data === 'string',
  },
  {
    reason:
      '`GET /projects` with `pagination=keyset` and `GET /projects/:id/issues` with `cursor` use keyset pagination (documented in the REST pagination guide); the generated document lists `cursor` on issues only.',
    kind: 'request',
    operationId: 'getApiV4Projects',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => ['pagination', 'cursor'].includes(unknownQueryParam(v) ?? ''),
  },
];

export interface SpecCheck {
  readonly available: boolean;
  readonly specFile?: string;
  readonly violations: SpecViolation[];
  readonly deviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the document does not describe (Notes and Labels APIs, upload downloads). */
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
  clear(): void;
}

const CREDENTIAL_HEADERS = ['private-token', 'authorization', 'job-token', 'cookie'];

export async function loadSpecCheck(opts: { enabled?: boolean; file?: string | null; deviations?: readonly KnownDeviation[] } = {}): Promise<SpecCheck> {
  const file = opts.file === null ? undefined : (opts.file ?? specPath('gitlab', 'gitlab-openapi3.yaml'));
  const enabled = opts.enabled !== false && Boolean(file);
  const validator: OpenApiValidator | undefined = enabled ? await loadOpenApiValidator(file!, { relaxNullable: 'all' }) : undefined;
  const known = opts.deviations ?? GITLAB_KNOWN_DEVIATIONS;
  const { violations, deviations, record, clear: clearLog } = createViolationLog(known);
  const undocumented: { method: string; path: string }[] = [];
  const isApi = (path: string) => path.startsWith('/api/v4/');

  return {
    available: Boolean(validator),
    specFile: validator?.specFile,
    violations,
    deviations,
    undocumented,
    checkRequest(req) {
      if (!validator || !isApi(req.path)) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) {
        const all = req.query.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const headers = { ...req.headers };
      for (const h of CREDENTIAL_HEADERS) delete headers[h];
      const { violations: found } = validator.validateRequest({ method: req.method, path: req.path, query, headers, body: req.body });
      if (found.some((v) => v.keyword === 'route')) {
        if (!undocumented.some((u) => u.method === req.method && u.path === req.path)) undocumented.push({ method: req.method, path: req.path });
        return;
      }
      record(found);
    },
    checkResponse(req, status, body) {
      if (!validator || !isApi(req.path)) return;
      const op = validator.matchOperation(req.method, req.path);
      if (!op) return;
      record(validator.validateResponse({ method: req.method, path: req.path, operation: op, status, body }));
    },
    clear() {
      clearLog();
      undocumented.length = 0;
    },
  };
}
