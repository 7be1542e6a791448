/**
 * Validation of simulator traffic against Pipedrive's published OpenAPI documents
 * (`openapi-v1.yaml` for `/v1/...` and `/api/v1/...`, `openapi-v2.yaml` for `/api/v2/...`),
 * read from the shared provider-specs folder. When the files are absent validation is
 * skipped and `available` is false.
 */
import {
  filterKnownDeviations,
  loadOpenApiValidator,
  type KnownDeviation,
  type OpenApiValidator,
  type SpecViolation,
} from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

/**
 * Places where Pipedrive's real API knowingly differs from its own documents. Violations
 * matching these are moved to `specDeviations` instead of `specViolations`.
 * (Missing `nullable: true` is handled by loading the documents with `relaxNullable: 'all'`:
 * Pipedrive returns `null` for unset fields and `additional_data.next_cursor: null` on the
 * last page, as the documents' own descriptions say, while the schemas omit `nullable`.)
 */
export const PIPEDRIVE_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      "v1 responses use 'YYYY-MM-DD HH:MM:SS' (UTC) timestamps, as in the documents' own examples, while some schemas declare format date-time",
    kind: 'response',
    keyword: 'format',
    when: (v) => v.path.startsWith('/v1') && typeof v.data === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v.data),
  },
  {
    reason:
      "v1 field definitions: the item schema is an allOf of the creatable field types (17 values) and the full field_type enum (int, stage, status, picture, … included), so system fields such as `id` (int) or `stage_id` (stage) cannot satisfy both; Pipedrive returns them",
    kind: 'response',
    keyword: 'enum',
    pointer: /^\/data(\/\*)?\/field_type$/,
    when: (v) => /^\/(api\/)?v1\/\w+Fields/.test(v.path),
  },
];

export interface SpecCheck {
  readonly available: boolean;
  readonly violations: SpecViolation[];
  readonly deviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the documents do not describe (e.g. the deprecated `/v1/activities`). */
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
}

const AUTH_QUERY = new Set(['api_token']);

function split(path: string): { version: 'v1' | 'v2'; specPath: string } | undefined {
  if (path.startsWith('/api/v2/')) return { version: 'v2', specPath: path.slice('/api/v2'.length) };
  if (path.startsWith('/api/v1/')) return { version: 'v1', specPath: path.slice('/api/v1'.length) };
  if (path.startsWith('/v1/')) return { version: 'v1', specPath: path.slice('/v1'.length) };
  return undefined;
}

export async function loadSpecCheck(opts: { enabled?: boolean; v1File?: string; v2File?: string; deviations?: readonly KnownDeviation[] } = {}): Promise<SpecCheck> {
  const violations: SpecViolation[] = [];
  const deviations: { violation: SpecViolation; reason: string }[] = [];
  const undocumented: { method: string; path: string }[] = [];
  const v1File = opts.v1File ?? specPath('pipedrive', 'openapi-v1.yaml');
  const v2File = opts.v2File ?? specPath('pipedrive', 'openapi-v2.yaml');
  const enabled = opts.enabled !== false && Boolean(v1File && v2File);
  const validatorOptions = { relaxNullable: 'all' as const, reportUndocumentedStatus: false };
  const [v1, v2] = enabled
    ? await Promise.all([loadOpenApiValidator(v1File!, validatorOptions), loadOpenApiValidator(v2File!, validatorOptions)])
    : [undefined, undefined];
  const known = opts.deviations ?? PIPEDRIVE_KNOWN_DEVIATIONS;

  const pick = (path: string): { validator: OpenApiValidator; specPath: string; prefix: string } | undefined => {
    const s = split(path);
    if (!s || !v1 || !v2) return undefined;
    return { validator: s.version === 'v1' ? v1 : v2, specPath: s.specPath, prefix: path.slice(0, path.length - s.specPath.length) };
  };

  /** Reports paths as the caller sent them (with the version prefix). */
  const record = (found: SpecViolation[], prefix: string) => {
    const withPrefix = found.map((v) => ({ ...v, path: prefix + v.path }));
    const { kept, suppressed } = filterKnownDeviations(withPrefix, known);
    violations.push(...kept);
    deviations.push(...suppressed);
  };

  return {
    available: enabled,
    violations,
    deviations,
    undocumented,
    checkRequest(req) {
      const p = pick(req.path);
      if (!p) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) {
        if (AUTH_QUERY.has(key)) continue; // the API-token query parameter is authentication, not an operation parameter
        const all = req.query.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const { violations: found } = p.validator.validateRequest({ method: req.method, path: p.specPath, query, headers: req.headers, body: req.body });
      if (found.some((v) => v.keyword === 'route')) {
        undocumented.push({ method: req.method, path: req.path });
        return;
      }
      record(found, p.prefix);
    },
    checkResponse(req, status, body) {
      const p = pick(req.path);
      if (!p) return;
      const op = p.validator.matchOperation(req.method, p.specPath);
      if (!op) return;
      record(p.validator.validateResponse({ method: req.method, path: p.specPath, operation: op, status, body }), p.prefix);
    },
  };
}
