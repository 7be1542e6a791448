import { z } from 'zod';
import { AppError } from './errors';
import type { AccessContext } from './access';
import { loadReferences, resolveReferences, type ReferenceField } from './unified/references';
import { asAppError, notOfVertical, type BatchItem, type UnifiedObjects, type View } from './unified/objects';
import { crmWritables, type CrmWritable } from './unified/crm';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { ListedRow } from '../store/unified.repo';
import type { ResolvedMapping } from '../store/field-mapping.repo';
import type { AdapterContext, CrmOperations, CrmWrite } from '../providers/types';

/** Unified CRM writes: provider first, then the store. Reads go through UnifiedObjects. */
export class CrmService {
  constructor(
    private readonly objects: UnifiedObjects,
    private readonly contexts: ProviderContexts,
  ) {}

  async create(connection: ConnectionRow, objectType: CrmWritable, input: Record<string, unknown>, opts: { remoteData: boolean }): Promise<View> {
    const { ops, ctx } = this.operations(connection);
    const write = await this.crmWrite(connection, objectType, input, '');
    return this.objects.save(connection, await ops.create(ctx, objectType, write), opts);
  }

  /** Up to 100 objects, validated one by one; the provider's batch API where it has one. */
  async createMany(connection: ConnectionRow, objectType: CrmWritable, items: unknown[], opts: { remoteData: boolean }): Promise<BatchItem[]> {
    const { ops, ctx } = this.operations(connection);
    const results: BatchItem[] = new Array(items.length);
    const valid: { index: number; data: Record<string, unknown> }[] = [];
    const schema = crmWritables[objectType].input as z.ZodType<Record<string, unknown>>;
    for (const [index, item] of items.entries()) {
      const parsed = schema.safeParse(item);
      if (parsed.success) {
        valid.push({ index, data: parsed.data });
        continue;
      }
      const issues = parsed.error.issues.map((i) => ({ path: [`[${index}]`, ...i.path].join('.'), message: i.message }));
      results[index] = { ok: false, error: new AppError('validation_failed', `${issues[0]?.path}: ${issues[0]?.message}`, { issues }) };
    }
    // References and field mappings of the whole batch: one query each.
    const preloaded = {
      refs: await loadReferences(this.objects.repo, connection.id, valid.flatMap((v) => referenceFields(objectType, v.data, ''))),
      mappings: await this.objects.mappingsOf(connection),
    };
    const prepared: { index: number; write: CrmWrite }[] = [];
    for (const { index, data } of valid) {
      try {
        prepared.push({ index, write: await this.crmWrite(connection, objectType, data, `[${index}].`, preloaded) });
      } catch (err) {
        results[index] = { ok: false, error: asAppError(err) };
      }
    }
    const writes = prepared.map((p) => p.write);
    const outcomes = ops.createMany
      ? await ops.createMany(ctx, objectType, writes)
      : await Promise.all(
          writes.map((w) => ops.create(ctx, objectType, w).then((result) => ({ ok: true as const, result }), (error: Error) => ({ ok: false as const, error }))),
        );
    for (const [i, item] of (await this.objects.saveBulk(connection, outcomes, opts)).entries()) results[prepared[i]!.index] = item;
    return results;
  }

  /** PATCH by id; the connection is found from the object inside the caller's project. */
  async update(
    access: AccessContext,
    objectType: CrmWritable,
    id: string,
    patch: Record<string, unknown>,
    token: ConnectionRow | undefined,
    opts: { remoteData: boolean },
  ): Promise<View> {
    const { row, connection } = await this.objects.findWithConnection(access, objectType, id, token);
    // A patch that changes nothing answers the object as stored, without calling the provider.
    if (Object.keys(patch).length === 0) return (await this.objects.views(connection, [row], opts))[0]!;
    const { ops, ctx } = this.operations(connection);
    const write = await this.crmWrite(connection, objectType, patch, '');
    return this.objects.save(connection, await ops.update(ctx, objectType, row.remoteId, write), opts);
  }

  private operations(connection: ConnectionRow): { ops: CrmOperations; ctx: AdapterContext } {
    const { adapter, ctx } = this.contexts.forConnection(connection);
    if (!adapter.crm) throw notOfVertical(connection.provider, 'crm');
    return { ops: adapter.crm, ctx };
  }

  /** The unified fields with every reference translated to the provider's remote id (one query, or none when preloaded). */
  private async crmWrite(
    connection: ConnectionRow,
    objectType: CrmWritable,
    input: Record<string, unknown>,
    prefix: string,
    preloaded?: { refs: Map<string, ListedRow>; mappings: ResolvedMapping[] },
  ): Promise<CrmWrite> {
    const { field_mappings: fieldValues, ...fields } = input;
    const refs = crmWritables[objectType].refs as Record<string, string>;
    const resolved = await resolveReferences(this.objects.repo, connection.id, referenceFields(objectType, fields, prefix), preloaded?.refs);
    const write: CrmWrite = { ...fields };
    for (const field of Object.keys(refs)) {
      const remote = resolved.get(`${prefix}${field}`);
      if (remote) write[field] = Array.isArray(fields[field]) ? remote : remote[0];
    }
    write.customFields = await this.objects.customFields(
      connection,
      objectType,
      fieldValues as Record<string, unknown> | undefined,
      prefix,
      preloaded?.mappings,
    );
    return write;
  }
}

/** The reference fields present in a CRM input (`company_id`, `contact_ids` …), named with their prefix. */
function referenceFields(objectType: CrmWritable, fields: Record<string, unknown>, prefix: string): ReferenceField[] {
  const out: ReferenceField[] = [];
  for (const [field, refType] of Object.entries(crmWritables[objectType].refs as Record<string, string>)) {
    const value = fields[field];
    if (value === undefined) continue;
    out.push({ field: `${prefix}${field}`, objectType: refType, ids: Array.isArray(value) ? (value as string[]) : [value as string] });
  }
  return out;
}
