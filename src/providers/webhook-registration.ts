/**
 * Helpers the providers' webhook registrations share: a secret Omniport generates, hooks created one per
 * container (repository, project) with the ones already made deleted again when a later one fails, and
 * deletions that treat a hook already gone as deleted.
 */
import { randomBytes } from 'node:crypto';
import { ProviderError } from './http-client';
import type { AdapterContext } from './types';

/** A signing secret (or shared token) for providers that take one from the caller: 256 random bits, hex. */
export const newWebhookSecret = (): string => randomBytes(32).toString('hex');

/** Thrown by `ProviderWebhooks.renew` when the provider dropped the webhook: it is created anew. */
export class WebhookGoneError extends Error {}

/** `DELETE path`; a 404 means the hook is already gone, which is what was asked. */
export async function deleteIfPresent(ctx: AdapterContext, path: string): Promise<void> {
  await ctx.http.delete(path).catch((err: unknown) => {
    if (!(err instanceof ProviderError && err.providerStatus === 404)) throw err;
  });
}

/**
 * Creates one hook per target (`create` answers the provider's hook id), keyed by `keyOf(target)`. When one
 * fails, the hooks made so far are deleted again (`undo`) and the error goes on: none are left half made.
 */
export async function createPerTarget<T>(
  targets: T[],
  keyOf: (target: T) => string,
  create: (target: T) => Promise<string>,
  undo: (remoteIds: Record<string, string>) => Promise<void>,
): Promise<Record<string, string>> {
  const remoteIds: Record<string, string> = {};
  try {
    for (const target of targets) remoteIds[keyOf(target)] = await create(target);
  } catch (err) {
    await undo(remoteIds).catch(() => undefined);
    throw err;
  }
  return remoteIds;
}
