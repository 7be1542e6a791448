import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * A request retried with the Idempotency-Key of a first attempt whose process died: that attempt may have
 * sent its provider writes. While `lostAttempt` is set for a request, the provider client sends no write that
 * is not harmless to repeat; it answers as for a lost answer instead (OutcomeUnknownError, `interrupted`), so
 * the adapter looks for what the first attempt wrote where the provider allows it (HubSpot contacts by email,
 * Zendesk bulk jobs among the recent job statuses, Linear issues by their ids) and sends only what it
 * found missing (`confirmedAbsent`).
 */
export interface RequestContext {
  lostAttempt?: { startedAt: Date };
  /** The request's Idempotency-Key scope, when it has one: what makes `stableWriteKey` the same on a retry. */
  idempotencyScope?: string;
  /** How many times each write's key was handed out in this request (identical writes get distinct keys). */
  keysGiven?: Map<string, number>;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The first attempt's start, when this request retries an interrupted one. */
export const lostAttemptOf = (): { startedAt: Date } | undefined => requestContext.getStore()?.lostAttempt;

/**
 * A provider idempotency key or own id for one write (Zendesk's `Idempotency-Key` on ticket creation, a Linear
 * issue's id) that is the same
 * for the same write of a retry with the same Omniport Idempotency-Key, so the provider deduplicates a write
 * the interrupted first attempt sent; undefined without an Omniport key (then a random key serves).
 */
export function stableWriteKey(write: string): string | undefined {
  const store = requestContext.getStore();
  if (!store?.idempotencyScope) return undefined;
  store.keysGiven ??= new Map();
  const nth = store.keysGiven.get(write) ?? 0;
  store.keysGiven.set(write, nth + 1);
  const hex = createHash('sha256').update(`${store.idempotencyScope}\u0000${nth}\u0000${write}`).digest('hex');
  // Shaped as a UUID v4 (Linear takes only those as an issue's own id).
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
