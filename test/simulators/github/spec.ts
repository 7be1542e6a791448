/**
 * Validation of simulator traffic against GitHub's official REST description
 * (`shared/provider-specs/github/api.github.com.issues-trimmed.json`: github/rest-api-description,
 * 2022-06, trimmed to issues, comments, labels, assignees, users and repositories). Every request the
 * adapter sends and every response the simulator gives is checked; when the file is absent the checks
 * are skipped and `available` is false.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KnownDeviation, SpecViolation } from '../../support/openapi-validator';
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

/**
 * The description as the validator can compile it. Three request-body properties of the 2022 snapshot
 * (`milestone` of issues/create and issues/update, `title` of issues/update) say `nullable: true` next to a
 * `oneOf` without a `type`, which OpenAPI 3.0 leaves undefined and Ajv refuses to compile. They are
 * rewritten, in a temporary copy outside the project, to the `oneOf` plus `{enum: [null]}` they mean;
 * nothing else changes.
 */
export async function compilableSpec(file: string): Promise<{ file: string; fixes: string[] }> {
  const text = await readFile(file, 'utf8');
  const doc = JSON.parse(text) as unknown;
  const fixes: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.nullable !== undefined && n.type === undefined && (Array.isArray(n.oneOf) || Array.isArray(n.anyOf))) {
      const key = Array.isArray(n.oneOf) ? 'oneOf' : 'anyOf';
      if (n.nullable === true) (n[key] as unknown[]).push({ enum: [null] });
      delete n.nullable;
      fixes.push(at);
    }
    for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(doc, '#');
  if (fixes.length === 0) return { file, fixes };
  const dir = path.join(os.tmpdir(), 'omniport-provider-specs');
  await mkdir(dir, { recursive: true });
  const out = path.join(dir, `github-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  // Test files run in parallel processes: write a private file, then rename it into place (atomic), so
  // that no process ever reads a half-written copy.
  const tmp = `${out}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(doc));
  await rename(tmp, out);
  return { file: out, fixes };
}

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
