/**
 * Real `omniport start` child processes for crash tests: killed with SIGKILL and started again on the same data
 * (child-storage.ts), with the settings every crash test shares.
 */
import { childStorage, startOnStorage, type Cleanups } from './child-storage';
import type { OmniportProcess } from './omniport-process';

export type { Cleanups };

/** Where the child processes keep their data, on the database kind the run tests. */
export const crashStorage = (cleanups: Cleanups, dirPrefix = 'omniport-crash-') => childStorage(cleanups, dirPrefix);

/** `omniport start` in a child process with `apiKey` bootstrapped; `env` holds its storage and any setting of its own. */
export function startCrashServer(env: Record<string, string>, apiKey: string, cleanups: Cleanups): Promise<OmniportProcess> {
  const defaults: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    OMNIPORT_ALLOW_PRIVATE_URLS: 'true',
    OMNIPORT_BOOTSTRAP_API_KEY: apiKey,
    OMNIPORT_RATE_LIMIT_PER_MINUTE: '0',
    OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', // the simulators do not count them
  };
  return startOnStorage(defaults, env, cleanups);
}
