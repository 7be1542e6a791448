/**
 * The recorded-request check of the conformance suites: every request the adapter sent during its provider's
 * suite (and every answer its simulator gave) is validated against the provider's official description in
 * ../shared/provider-specs (or $OMNIPORT_PROVIDER_SPECS) by the simulator as it runs; this check asks for the
 * result once the suite is over. Known spec noise lives in the repository, each entry with its reason:
 * where the real API knowingly differs from its description, in the simulator's known deviations (e.g.
 * INTERCOM_KNOWN_DEVIATIONS, PIPEDRIVE_KNOWN_DEVIATIONS, SALESFORCE_SPEC_DEVIATIONS); requests to operations
 * the description leaves out, in `undocumented` below. Without the descriptions the check says so and skips
 * (and the run lists it at the end: test/support/spec-notice.ts). Providers without a machine-readable
 * description have a declared contract instead (test/contracts): every request their simulator recorded
 * must match one of its entries.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { formatViolation, type SpecViolation } from '../support/openapi-validator';
import { noteMissingSpec, providerSpecsRoot } from '../support/provider-specs';
import type { RecordedRequest } from '../simulators/shared/http-kit';
import { CONTRACTS } from '../contracts';
import { expectRequestsDocumented } from '../contracts/contract';

/** What a simulator's spec check found during a suite. */
export interface RecordedTraffic {
  /** The description was there and loaded. */
  available: boolean;
  /** Requests and answers that do not match it (known deviations already set apart). */
  violations: readonly unknown[];
  /** Requests to operations the description does not have. */
  undocumented?: readonly { method: string; path: string }[];
  /** Every request the simulator recorded (providers with a declared contract: test/contracts). */
  requests?: readonly RecordedRequest[];
}

interface Described {
  /** Folder in the provider-specs root. */
  folder: string;
  /** Requests to operations the description leaves out, by `METHOD path` (ids as `:n`), each explained. */
  undocumented?: { route: RegExp; reason: string }[];
}

/** Every provider of the suites that has a machine-readable description (its folder is its name unless said). */
export const DESCRIBED: Record<string, Described> = {
  ...Object.fromEntries(['asana', 'attio', 'clickup', 'close', 'front', 'github', 'intercom', 'jira', 'linear', 'pipedrive', 'salesforce', 'zendesk'].map((p) => [p, { folder: p }])),
  zoho: { folder: 'zoho-crm' },
  gitlab: {
    folder: 'gitlab',
    undocumented: [
      {
        route: /^(GET|POST) \/api\/v4\/projects\/:n\/(labels|issues\/:n\/notes)$/,
        reason: 'the generated gitlab-openapi3.yaml leaves out the Notes and Labels APIs (documented at docs.gitlab.com/ee/api/notes.html and labels.html)',
      },
    ],
  },
};

const routeOf = (u: { method: string; path: string }) => `${u.method} ${u.path.replace(/\/\d+(?=\/|$)/g, '/:n')}`;
const describeViolation = (v: unknown) => (v && typeof v === 'object' && 'kind' in v && 'path' in v ? formatViolation(v as SpecViolation) : JSON.stringify(v));

/**
 * Asserts the suite's traffic matched the description; `skip` (with a loud warning) when the descriptions are
 * not on this machine. A provider with a description whose driver hands over no traffic fails: wire it.
 */
export function expectRecordedRequestsMatch(provider: string, traffic: RecordedTraffic | undefined, skip: (note: string) => void): void {
  const contract = CONTRACTS[provider];
  if (contract) {
    expect(traffic?.requests, `the ${provider} driver must hand over its simulator's request log (traffic.requests)`).toBeDefined();
    expectRequestsDocumented(contract, traffic!.requests!);
    return;
  }
  const described = DESCRIBED[provider];
  if (!described) return;
  const folder = path.join(providerSpecsRoot(), described.folder);
  if (!existsSync(folder)) {
    const note = `RECORDED-REQUEST CHECK SKIPPED for ${provider}: no provider descriptions at ${folder} (set OMNIPORT_PROVIDER_SPECS)`;
    console.warn(`\n*** ${note} ***\n`);
    noteMissingSpec(described.folder);
    skip(note);
    return;
  }
  expect(traffic, `the ${provider} driver must hand over its simulator's spec check (traffic)`).toBeDefined();
  expect(traffic!.available, `${provider}: ${folder} is there but the simulator did not load its description`).toBe(true);
  expect(traffic!.violations.map(describeViolation)).toEqual([]);
  const unexplained = [...new Set((traffic!.undocumented ?? []).map(routeOf))].filter((r) => !described.undocumented?.some((u) => u.route.test(r)));
  expect(unexplained, `${provider}: requests to operations its description does not have (explain them in DESCRIBED or fix the adapter)`).toEqual([]);
}
