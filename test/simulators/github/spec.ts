/**
 * Validation of simulator traffic against GitHub's official REST description
 * (`shared/provider-specs/github/api.github.com.issues-trimmed.json`: github/rest-api-description,
 * 2022-06, trimmed to issues, comments, labels, assignees, users and repositories). Every request the
 * adapter sends and every response the simulator gives is checked; when the file is absent the checks
 * are skipped and `available` is false.
 */
import type { KnownDeviation, SpecViolation } from '../../support/openapi-validator';
import { compilableSpec as sharedCompilableSpec } from '../shared/compilable-spec';
import { loadOpenApiCheck, type OpenApiCheck } from '../shared/openapi-check';
import { specPath } from '../../support/provider-specs';

export type { SpecViolation, KnownDeviation };

export const GITHUB_SPEC_FILE = 'api.github.com.issues-trimmed.json';

/**
 * Where GitHub's real API differs from the 2022 snapshot of its description. Matching violations go
 * to `specDeviations` instead of `specViolations`.
 */
export const GITHUB_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'Rate-limit answers (403 or 429 with `x-ratelimit-remaining: 0` or a secondary-limit message, see "Rate limits for the REST API") can come from every operation; the description documents neither 429 nor 403 on most of them.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s === 403 || s === 429,
  },
  {
    reason:
      '401 Bad credentials / Requires authentication is answered by every operation for a missing or refused token; the description documents it on a few only.',
    kind: 'response',
    keyword: 'status',
    status: 401,
  },
  {
    reason: 'A 5xx (server error, 503 service unavailable) can come from every operation; the description documents 503 on a few only.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 500,
  },
  {
    reason:
      'Listing the issues or labels of a repository with issues disabled answers 410 "Issues are disabled for this repo" (as creating and getting one do); the list operations do not document 410.',
    kind: 'response',
    keyword: 'status',
    status: 410,
  },
];

/** The description as the validator can compile it (shared: see ../shared/compilable-spec.ts). */
export const compilableSpec = (file: string) => sharedCompilableSpec(file, 'github');

export interface SpecCheck extends OpenApiCheck {
  /** JSON pointers of the schemas rewritten by {@link compilableSpec}. */
  readonly loadFixes: string[];
}

/** The shared OpenAPI traffic check, run on the compilable copy of GitHub's description ({@link compilableSpec}). */
export async function loadSpecCheck(opts: { enabled?: boolean; file?: string | null; deviations?: readonly KnownDeviation[] } = {}): Promise<SpecCheck> {
  const file = opts.file === null ? undefined : (opts.file ?? specPath('github', GITHUB_SPEC_FILE));
  const enabled = opts.enabled !== false && Boolean(file);
  const compiled = enabled ? await compilableSpec(file!) : undefined;
  const check = await loadOpenApiCheck(compiled?.file, opts.deviations ?? GITHUB_KNOWN_DEVIATIONS);
  return { ...check, file: check.available ? file : undefined, loadFixes: compiled?.fixes ?? [] };
}
