import { AppError } from '../errors';
import type { UnifiedRepo } from '../../store/unified.repo';

export interface ReferenceField {
  /** The request field, named in errors (e.g. `assigned_to`, `[3].contact_id`). */
  field: string;
  objectType: string;
  ids: string[];
}

/**
 * Translates Omniport ids in a request to the provider's remote ids, for every field in one query.
 * An id unknown in this connection (or of the wrong type) is a 422 naming the field.
 */
export async function resolveReferences(repo: UnifiedRepo, connectionId: string, fields: ReferenceField[]): Promise<Map<string, string[]>> {
  const wanted = [...new Set(fields.flatMap((f) => f.ids))];
  const rows = await repo.findMany(connectionId, wanted.filter((id) => /^[0-9a-f-]{36}$/i.test(id)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Map<string, string[]>();
  for (const f of fields) {
    out.set(
      f.field,
      f.ids.map((id) => {
        const row = byId.get(id);
        if (!row || row.objectType !== f.objectType || row.remoteWasDeleted) {
          throw new AppError('unknown_reference', `${f.field}: no ${f.objectType.split('.')[1]} with id ${JSON.stringify(id)} in this connection`, {
            field: f.field,
          });
        }
        return row.remoteId;
      }),
    );
  }
  return out;
}
