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
