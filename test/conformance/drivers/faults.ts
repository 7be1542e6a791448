import type { FaultController } from '../../../src/sandbox/simulators/shared/http-kit';

/**
 * The suites' fault controls on a simulator's fault controller (every simulator has one): a 429 with a
 * one-second Retry-After, any status, a slow answer. A driver overrides `rateLimit` where its provider
 * refuses differently (Salesforce's 403, Linear's GraphQL error, Attio's date).
 */
export function faultControls(faults: Pick<FaultController, 'add' | 'clear'>) {
  return {
    rateLimit: (times: number) => void faults.add({ status: 429, times, retryAfterSeconds: 1 }),
    fail: (status: number, times: number) => void faults.add({ status, times }),
    delay: (ms: number, times: number) => void faults.add({ delayMs: ms, times }),
    clearFaults: () => faults.clear(),
  };
}
