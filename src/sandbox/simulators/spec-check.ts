/**
 * How a simulator has its traffic checked against the provider's official API description. The checker
 * itself (an OpenAPI validator reading ../shared/provider-specs) lives with the tests: the sandbox
 * serves the same simulators without it.
 */
export type ViolationKind = 'request' | 'response';

export interface SpecViolation {
  kind: ViolationKind;
  /** Upper-case HTTP method. */
  method: string;
  /** Concrete request path, without query string. */
  path: string;
  operationId?: string;
  /** Response status (response violations only). */
  status?: number;
  /** `route` | `path` | `query` | `header` | `body` | `status` | `response` */
  location: string;
  /** JSON pointer inside `location`, array indices folded to `*` (e.g. `/tickets/*\/priority`). */
  pointer: string;
  /** Ajv keyword (`type`, `enum`, `required`, ...) or `route` | `status` | `compile` | `parse`. */
  keyword: string;
  /** One human-readable line, e.g. `response 200 /tickets/*\/priority must be equal to one of ...; got "medium"`. */
  message: string;
  /** A sample offending value (when known). */
  data?: unknown;
  /** Number of identical findings folded into this entry. */
  count: number;
}

export interface MatchedOperation {
  operationId: string;
  /** Lower-case method, as in the document. */
  method: string;
  /** Path template as in the document, e.g. `/api/v2/tickets/{ticket_id}`. */
  pathTemplate: string;
}

export interface RequestToValidate {
  method: string;
  /** Path, optionally with `?query`. */
  path: string;
  /** Parsed query; when absent it is parsed from `path` (flat keys, repeated keys become arrays). */
  query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (or undefined when there was none / it was not JSON). */
  body?: unknown;
}

export interface ResponseToValidate {
  method: string;
  path: string;
  /** Operation from a validator's `matchOperation` or an operationId; matched from method+path when absent. */
  operation?: MatchedOperation | string;
  status: number;
  /** Parsed JSON body; `undefined` for an empty body (not validated). */
  body: unknown;
}

/** Checks requests and answers against one API description. */
export interface SpecValidator {
  readonly specFile: string;
  validateRequest(req: RequestToValidate): { operation?: MatchedOperation; violations: SpecViolation[] };
  validateResponse(res: ResponseToValidate): SpecViolation[];
}

/** A validator with the provider's known deviations from its own document. */
export interface SpecCheck {
  validator: SpecValidator;
  /** Splits findings into unexplained ones and those a known deviation explains (with its reason). */
  filter(violations: SpecViolation[]): { kept: SpecViolation[]; suppressed: Array<{ violation: SpecViolation; reason: string }> };
}
