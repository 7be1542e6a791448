import { describe, expect, it } from 'vitest';
import type { GitlabSimulator } from '../simulators/gitlab';
import { runTicketingConformance } from './ticketing-suite';
import { createGitlabDriver } from './drivers/gitlab';

let sim: GitlabSimulator | undefined;
runTicketingConformance(createGitlabDriver((s) => (sim = s)));

// The requests' check against GitLab's description is the suite's recorded-request check (recorded-requests.ts).
describe('gitlab conformance traffic', () => {
  it('never logged a credential', () => {
    expect(JSON.stringify(sim?.requests ?? [])).not.toContain(sim?.token ?? 'no-token');
  });
});
