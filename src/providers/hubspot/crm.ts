/**
 * HubSpot CRM writes: create (`POST /crm/v3/objects/{type}` with associations), batch create (100 per call,
 * one `objectWriteTraceId` per input so HubSpot reports each input, 207), and update (`PATCH`, association
 * changes through v4, then a read of the whole object).
 */
import { AppError } from '../../core/errors';
import type { CrmWritable } from '../../core/unified/crm';
import { ProviderError } from '../http-client';
import type { AdapterContext, BulkItemResult, CrmOperations, CrmWrite, WriteResult } from '../types';
import { readObject } from './api';
import { applyIntents, associationsForCreate, createBody, mapOfV3, mapOfWrites } from './associations';
import { statusOfCategory } from './http';
import { ENGAGEMENT_TYPES, type EngagementHsType } from './engagement.mapper';
import { engagementHsType, specOf, type ObjectSpec } from './objects';
import type { PropertyCatalog } from './properties';
import type { HsAssociationWrite, HsBatchError, HsBatchResponse, HsObject, HsPipeline, HsType } from './types';
import { PROVIDER, hsId, unsupported } from './util';

const BATCH_SIZE = 100;

interface Prepared {
  hsType: HsType;
  properties: Record<string, string>;
  associations: HsAssociationWrite[];
  intents: ReturnType<ObjectSpec['desunify']>['intents'];
}

function spec(objectType: string): ObjectSpec {
  const s = specOf(objectType);
  if (!s) throw new AppError('unsupported_by_provider', `HubSpot cannot write ${objectType}`, { provider: PROVIDER });
  return s;
}

function hsTypeOfInput(s: ObjectSpec, input: CrmWrite): HsType {
  if (s.objectType !== 'crm.engagement') return s.hsTypes[0]!;
  const t = engagementHsType(input.type);
  if (!t) throw new AppError('validation_failed', `type: must be one of ${Object.keys(ENGAGEMENT_TYPES).join(', ')}`, { field: 'type' });
  return t;
}

/** Deal stage id → its pipeline id: a stage is only valid in its pipeline, so both are written. */
async function stagePipelines(ctx: AdapterContext): Promise<Map<string, string>> {
  const res = await ctx.http.get<{ results?: HsPipeline[] }>('/crm/v3/pipelines/deals');
  const out = new Map<string, string>();
  for (const p of res.data?.results ?? []) for (const s of p.stages ?? []) if (s.archived !== true) out.set(String(s.id), String(p.id));
  return out;
}

/** A per-input error of a batch answer, as the provider error of that input. */
function batchItemError(e: HsBatchError | undefined, fallback: string): ProviderError {
  const message = e?.message ?? fallback;
  return new ProviderError(PROVIDER, statusOfCategory(e?.category), message, e ?? null);
}

export function hubspotCrmOperations(catalog: PropertyCatalog): CrmOperations {
  /** Properties (unified fields, then mapped custom fields) and associations of one input. */
  async function prepare(
    ctx: AdapterContext,
    s: ObjectSpec,
    hsType: HsType,
    input: CrmWrite,
    mode: 'create' | 'update',
    extra: { stages?: () => Promise<Map<string, string>>; current?: HsObject },
  ): Promise<Prepared> {
    const defs = await catalog.defs(ctx, hsType);
    const { properties, intents } = s.desunify(input, hsType, { mode, defs, now: new Date(), current: extra.current });
    if (s.objectType === 'crm.deal' && properties.dealstage !== undefined) {
      const pipeline = (await (extra.stages ?? (() => stagePipelines(ctx)))()).get(properties.dealstage);
      if (!pipeline) throw new AppError('unknown_reference', `stage_id: HubSpot has no deal stage ${JSON.stringify(properties.dealstage)}`, { field: 'stage_id' });
      properties.pipeline = pipeline;
    }
    await catalog.applyCustomFields(ctx, hsType, defs, input.customFields, properties);
    for (const intent of intents) intent.ids.forEach((id, i) => hsId(id, intent.ids.length > 1 ? `${intent.field}[${i}]` : intent.field));
    return { hsType, properties, associations: mode === 'create' ? associationsForCreate(hsType, intents) : [], intents };
  }

  /** The object as read back whole (properties of the account and associations). */
  async function reread(ctx: AdapterContext, s: ObjectSpec, hsType: HsType, id: string): Promise<WriteResult> {
    const properties = catalog.readable(s.properties(hsType), await catalog.defs(ctx, hsType));
    const targets = s.associations(hsType);
    const obj = await readObject(ctx, hsType, id, properties, targets);
    return { record: s.unify(obj, hsType, mapOfV3(obj, targets), ctx.ids) };
  }

  /** Which HubSpot type holds an engagement (ids are unique across calls, meetings and emails). */
  async function findEngagement(ctx: AdapterContext, s: ObjectSpec, id: string): Promise<{ hsType: EngagementHsType; current: HsObject }> {
    const tries = await Promise.allSettled(
      s.hsTypes.map((t) => readObject(ctx, t, id, s.properties(t), []).then((current) => ({ hsType: t as EngagementHsType, current }))),
    );
    const found = tries.find((t) => t.status === 'fulfilled');
    if (found?.status === 'fulfilled') return found.value;
    const other = tries.find((t) => t.status === 'rejected' && !(t.reason instanceof ProviderError && t.reason.providerStatus === 404));
    if (other?.status === 'rejected') throw other.reason;
    throw new ProviderError(PROVIDER, 404, `no call, meeting or email ${id}`, null);
  }

  return {
    async create(ctx, objectType, input): Promise<WriteResult> {
      const s = spec(objectType);
      const hsType = hsTypeOfInput(s, input);
      const p = await prepare(ctx, s, hsType, input, 'create', {});
      const res = await ctx.http.post<HsObject>(`/crm/v3/objects/${hsType}`, {
        json: { properties: p.properties, ...(p.associations.length > 0 ? { associations: createBody(p.associations) } : {}) },
      });
      return { record: s.unify(res.data, hsType, mapOfWrites(hsType, p.associations), ctx.ids) };
    },

    /**
     * Per HubSpot type, 100 inputs a call, each with its own `objectWriteTraceId` (its index): HubSpot then
     * creates the valid inputs and reports each invalid one (207) instead of rejecting the whole batch.
     */
    async createMany(ctx, objectType, inputs): Promise<BulkItemResult[]> {
      const s = spec(objectType as CrmWritable);
      const results: BulkItemResult[] = new Array(inputs.length);
      let stages: Promise<Map<string, string>> | undefined;
      const sharedStages = () => (stages ??= stagePipelines(ctx));
      const byType = new Map<HsType, { index: number; p: Prepared }[]>();
      await Promise.all(
        inputs.map(async (input, index) => {
          try {
            const hsType = hsTypeOfInput(s, input);
            const p = await prepare(ctx, s, hsType, input, 'create', { stages: sharedStages });
            const list = byType.get(hsType) ?? [];
            list.push({ index, p });
            byType.set(hsType, list);
          } catch (error) {
            results[index] = { ok: false, error: error as Error };
          }
        }),
      );
      for (const [hsType, prepared] of byType) {
        prepared.sort((a, b) => a.index - b.index);
        for (let i = 0; i < prepared.length; i += BATCH_SIZE) {
          const chunk = prepared.slice(i, i + BATCH_SIZE);
          try {
            const res = await ctx.http.post<HsBatchResponse<HsObject>>(`/crm/v3/objects/${hsType}/batch/create`, {
              json: {
                inputs: chunk.map(({ index, p }) => ({
                  properties: p.properties,
                  ...(p.associations.length > 0 ? { associations: createBody(p.associations) } : {}),
                  objectWriteTraceId: String(index),
                })),
              },
            });
            const created = new Map<string, HsObject>();
            const body = res.data ?? {};
            (body.results ?? []).forEach((obj, k) => {
              // Trace ids come back on every result; without them (all created) the order is the input order.
              const trace = obj.objectWriteTraceId ?? (!body.errors?.length && body.results?.length === chunk.length ? String(chunk[k]!.index) : undefined);
              if (trace !== undefined) created.set(String(trace), obj);
            });
            const failed = new Map<string, HsBatchError>();
            for (const e of body.errors ?? []) for (const trace of e.context?.objectWriteTraceId ?? []) failed.set(String(trace), e);
            for (const { index, p } of chunk) {
              const obj = created.get(String(index));
              if (obj) {
                results[index] = { ok: true, result: { record: s.unify(obj, hsType, mapOfWrites(hsType, p.associations), ctx.ids) } };
              } else {
                results[index] = { ok: false, error: batchItemError(failed.get(String(index)), 'HubSpot did not report on this input') };
              }
            }
          } catch (error) {
            // The whole call failed (rate limit, outage, a batch-level refusal): every input of it failed.
            for (const { index } of chunk) results[index] = { ok: false, error: error as Error };
          }
        }
      }
      return results;
    },

    async update(ctx, objectType, remoteId, patch): Promise<WriteResult> {
      const s = spec(objectType);
      const id = hsId(remoteId, 'id');
      let hsType = s.hsTypes[0]!;
      let current: HsObject | undefined;
      if (s.objectType === 'crm.engagement') {
        ({ hsType, current } = await findEngagement(ctx, s, id));
        if (patch.type !== undefined && engagementHsType(patch.type) !== hsType) {
          throw unsupported('type', `a HubSpot ${hsType.slice(0, -1)} cannot become another kind of engagement`);
        }
      }
      const p = await prepare(ctx, s, hsType, patch, 'update', { current });
      if (Object.keys(p.properties).length > 0) {
        await ctx.http.patch(`/crm/v3/objects/${hsType}/${id}`, { json: { properties: p.properties } });
      }
      await applyIntents(ctx, hsType, id, p.intents);
      return reread(ctx, s, hsType, id);
    },
  };
}
