import { AppError } from '../errors';
import type { UnifiedRepo, ListedRow } from '../../store/unified.repo';

export interface ReferenceField {
  /** The request field, named in errors (e.g. `assigned_to`, `[3].contact_id`). */
  field: string;
  objectType: string;
  ids: string[];
}

/** The objects behind every id of `fields`, in one query (a batch loads them once for all its elements). */
export async function loadReferences(repo: UnifiedRepo, connectionId: string, fields: ReferenceField[]): Promise<Map<string, ListedRow>> {
  const wanted = [...new Set(fields.flatMap((f) => f.ids))].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  return new Map((await repo.findMany(connectionId, wanted)).map((r) => [r.id, r]));
}

/**
 * Translates Omniport ids in a request to the provider's remote ids, for every field in one query (or
 * none, given the objects already loaded). An id unknown in this connection (or of the wrong type) is a
 * 422 naming the field.
 */
export async function resolveReferences(
  repo: UnifiedRepo,
  connectionId: string,
  fields: ReferenceField[],
  loaded?: Map<string, ListedRow>,
): Promise<Map<string, string[]>> {
  const byId = loaded ?? (await loadReferences(repo, connectionId, fields));
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
