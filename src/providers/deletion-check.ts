import { ProviderError } from './http-client';
import type { DeletionCheck, SyncOptions, SyncBatch, AdapterContext } from './types';

/**
 * A deletion check that walks the stream's own full listing and keeps only the ids of `objectTypes`: for
 * providers whose lists offer no lighter form (no field selection). The run's position is the check's.
 */
export function idsOfFullRun(run: (ctx: AdapterContext, opts: SyncOptions) => AsyncIterable<SyncBatch>, objectTypes: string[]): DeletionCheck {
  return {
    objectTypes,
    async *listIds(ctx, opts) {
      for await (const batch of run(ctx, { resume: opts.resume })) {
        yield { remoteIds: batch.records.filter((r) => objectTypes.includes(r.objectType)).map((r) => r.remoteId), resume: batch.resume };
      }
    },
  };
}

/** Whether the object at `path` still exists: the provider answers it (true), or 404/410, or 301 for one renamed or moved (false); anything else throws. */
export async function existsAt(ctx: AdapterContext, path: string, query?: Record<string, string>): Promise<boolean> {
  try {
    await ctx.http.get(path, { query });
    return true;
  } catch (err) {
    if (err instanceof ProviderError && ([301, 404, 410].includes(err.providerStatus))) return false;
    throw err;
  }
}
