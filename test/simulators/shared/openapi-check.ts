/**
 * A simulator's traffic checked against its provider's official OpenAPI description (from
 * ../shared/provider-specs): every request the adapter sends and every answer the simulator gives
 * (injected faults excepted). When the file is absent the checks are skipped and `available` is false.
 * Known deviations (where the real API differs from its own description) go to `deviations`.
 */
import { createViolationLog, loadOpenApiValidator, type KnownDeviation, type OpenApiValidator, type SpecViolation, type ValidatorOptions } from '../../support/openapi-validator';

export type { KnownDeviation, SpecViolation };

export interface OpenApiCheck {
  readonly available: boolean;
  readonly file?: string;
  readonly violations: SpecViolation[];
  readonly deviations: { violation: SpecViolation; reason: string }[];
  /** Requests to paths the description does not have. */
  readonly undocumented: { method: string; path: string }[];
  checkRequest(req: { method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: unknown }): void;
  checkResponse(req: { method: string; path: string }, status: number, body: unknown): void;
  clear(): void;
}

export async function loadOpenApiCheck(file: string | undefined, known: readonly KnownDeviation[], enabled = true, options?: ValidatorOptions): Promise<OpenApiCheck> {
  const validator: OpenApiValidator | undefined = enabled && file ? await loadOpenApiValidator(file, options) : undefined;
  const { violations, deviations, record, clear: clearLog } = createViolationLog(known);
  const undocumented: { method: string; path: string }[] = [];
  return {
    available: Boolean(validator),
    file: validator ? file : undefined,
    violations,
    deviations,
    undocumented,
    checkRequest(req) {
      if (!validator) return;
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(req.query.keys())) {
        const all = req.query.getAll(key);
        query[key] = all.length === 1 ? all[0]! : all;
      }
      const headers = { ...req.headers };
      delete headers.authorization;
      delete headers['content-type'];
      const { violations: found } = validator.validateRequest({ method: req.method, path: req.path, query, headers, body: req.body });
      if (found.some((v) => v.keyword === 'route')) {
        undocumented.push({ method: req.method, path: req.path });
        return;
      }
      record(found);
    },
    checkResponse(req, status, body) {
      if (!validator) return;
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
