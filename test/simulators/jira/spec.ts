/**
 * Validation of simulator traffic against Atlassian's published Jira Cloud platform OpenAPI document
 * (`swagger-v3.v3.json`, read from the shared provider-specs folder; never copied into the project).
 * When the file is absent validation is skipped and `available` is false.
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

/**
 * Where Jira's real API knowingly differs from its own document. Violations matching these are moved
 * to `specDeviations` instead of `specViolations`. (Missing `nullable: true` is handled by loading the
 * document with `relaxNullable: 'scalars'`: Jira returns `null` for unset scalars such as `duedate`.)
 */
export const JIRA_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'Error responses (400/401/403/404/409/429/5xx with {"errorMessages": [...], "errors": {...}}) are real but undocumented on many operations (e.g. 429 and 5xx on every one).',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
];

export interface SpecCheck {
  readonly available: boolean;
  readonly file?: string;
  readonly violations: SpecViolation[];
  readonly deviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the document does not describe. */
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
}

export async function loadSpecCheck(opts: { enabled?: boolean; file?: string | null; deviations?: readonly KnownDeviation[] } = {}): Promise<SpecCheck> {
  const undocumented: { method: string; path: string }[] = [];
  const file = opts.file === null ? undefined : (opts.file ?? specPath('jira', 'swagger-v3.v3.json'));
  const enabled = opts.enabled !== false && Boolean(file);
  const validator: OpenApiValidator | undefined = enabled ? await loadOpenApiValidator(file!, { relaxNullable: 'scalars' }) : undefined;
  const known = opts.deviations ?? JIRA_KNOWN_DEVIATIONS;
  const { violations, deviations, record } = createViolationLog(known);

  return {
    available: enabled,
    file,
    violations,
    deviations,
    undocumented,
    checkRequest(req) {
      if (!validator || !req.path.startsWith('/rest/api/3/')) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) {
        const all = req.query.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const { violations: found } = validator.validateRequest({ method: req.method, path: req.path, query, headers: req.headers, body: req.body });
      if (found.some((v) => v.keyword === 'route')) {
        undocumented.push({ method: req.method, path: req.path });
        return;
      }
      record(found);
    },
    checkResponse(req, status, body) {
      if (!validator || !req.path.startsWith('/rest/api/3/')) return;
      const op = validator.matchOperation(req.method, req.path);
      if (!op) return;
      record(validator.validateResponse({ method: req.method, path: req.path, operation: op, status, body }));
    },
  };
}
