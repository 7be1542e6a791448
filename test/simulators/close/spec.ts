/**
 * Validation of Close simulator traffic against the OpenAPI description in the shared provider-specs
 * folder (`close/close-openapi.yml`, server `https://api.close.com/api/v1`). Skipped, with `available`
 * false, when the file is absent.
 */
import { createViolationLog, loadOpenApiValidator, type KnownDeviation, type OpenApiValidator, type SpecViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

/** Places where the description contradicts itself or Close's documented behaviour. */
export const CLOSE_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      "GET /event/: the operation's own description says the event log pages with `_cursor` (from `cursor_next`) and does not support `_skip`, while its parameter list names `_skip` and omits `_cursor`",
    kind: 'request',
    location: 'query',
    keyword: 'additionalProperties',
    when: (v) => v.path === '/event/' && v.message.includes("'_cursor'"),
  },
];

export interface CloseSpecCheck {
  readonly available: boolean;
  readonly violations: SpecViolation[];
  readonly deviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the description does not have. */
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
}

const PREFIX = '/api/v1';

export async function loadCloseSpecCheck(opts: { enabled?: boolean } = {}): Promise<CloseSpecCheck> {
  const file = specPath('close', 'close-openapi.yml');
  const enabled = opts.enabled !== false && Boolean(file);
  // The description omits `nullable` on many fields Close answers null; undocumented statuses (429) are not findings.
  const validator: OpenApiValidator | undefined = enabled ? await loadOpenApiValidator(file!, { relaxNullable: 'all', reportUndocumentedStatus: false }) : undefined;
  const log = createViolationLog(CLOSE_KNOWN_DEVIATIONS);
  const undocumented: { method: string; path: string }[] = [];
  const rel = (path: string) => (path.startsWith(`${PREFIX}/`) ? path.slice(PREFIX.length) : undefined);
  return {
    available: enabled,
    violations: log.violations,
    deviations: log.deviations,
    undocumented,
    checkRequest(req) {
      const path = rel(req.path);
      if (!validator || !path) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) {
        const all = req.query.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const { violations } = validator.validateRequest({ method: req.method, path, query, headers: req.headers, body: req.body });
      if (violations.some((v) => v.keyword === 'route')) {
        undocumented.push({ method: req.method, path: req.path });
        return;
      }
      log.record(violations);
    },
    checkResponse(req, status, body) {
      const path = rel(req.path);
      if (!validator || !path) return;
      const operation = validator.matchOperation(req.method, path);
      if (!operation) return;
      log.record(validator.validateResponse({ method: req.method, path, operation, status, body }));
    },
  };
}
