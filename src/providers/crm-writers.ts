import { AppError } from '../core/errors';
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from './types';

/** Writes one CRM object type: creates when `remoteId` is null, else updates that object. */
export type CrmRecordWriter = (ctx: AdapterContext, remoteId: string | null, input: CrmWrite) => Promise<UnifiedRecord>;

/**
 * `create` and `update` of a CRM adapter that has one writer per object type; a type it has no writer for
 * is refused as unsupported by the provider.
 */
export function crmWritesByType(provider: { id: string; name: string }, writers: Record<string, CrmRecordWriter>): Pick<CrmOperations, 'create' | 'update'> {
  function writer(objectType: string): CrmRecordWriter {
    const w = writers[objectType];
    if (!w) throw new AppError('unsupported_by_provider', `${provider.name} cannot write ${objectType}`, { provider: provider.id });
    return w;
  }
  return {
    async create(ctx, objectType, input) {
      return { record: await writer(objectType)(ctx, null, input) };
    },
    async update(ctx, objectType, remoteId, patch) {
      return { record: await writer(objectType)(ctx, remoteId, patch) };
    },
  };
}
