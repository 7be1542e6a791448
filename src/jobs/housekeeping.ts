import type { Services } from '../services';
import { loggableError } from '../store/database';
import type { JobLogger } from './runner';

const EVERY_MS = 10 * 60_000;

/**
 * Forgets what is kept only for a while: idempotency answers past their TTL, audit entries, events (with
 * their webhook deliveries), provider calls and dashboard sessions past their retention, provider budget
 * schedules and counters past their end; renews expiring provider webhooks and creates those that could not
 * be created with their connection. Every process may run it: deleting twice is harmless, and a connection
 * keeps one provider webhook (a second one is removed).
 */
export function startHousekeeping(services: Services, logger: JobLogger | undefined): () => void {
  const purge = async () => {
    for (const [what, run] of [
      ['idempotency keys', () => services.idempotency.purgeExpired()],
      ['audit entries', () => services.audit.purgeExpired()],
      ['events', () => services.events.purgeExpired()],
      ['provider calls and dashboard sessions', () => services.dashboard.purgeExpired()],
      ['provider webhook delivery ids', () => services.providerWebhooks.purgeReceipts()],
      ['provider budget schedules and counters', () => services.budgets.purgeExpired()],
      ['(renewing) expiring provider webhooks', () => services.providerWebhooks.renewExpiring()],
      ['(creating) missing provider webhooks', () => services.providerWebhooks.registerMissing()],
    ] as const) {
      await run().catch((err: unknown) => logger?.error({ err: loggableError(err) }, `purging expired ${what} failed; will try again`));
    }
  };
  const timer = setInterval(() => void purge(), EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
