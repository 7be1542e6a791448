/**
 * HubSpot CRM writes: create (`POST /crm/v3/objects/{type}` with associations), batch create (100 per call,
 * one `objectWriteTraceId` per input so HubSpot reports each input, 207), and update (`PATCH`, association
 * changes through v4, then a read of the whole object).
 */
import { AppError } from '../../core/errors';
import type { CrmWritable } from '../../core/unified/crm';
import { OutcomeUnknownError, ProviderError } from '../http-client';
import { lostAttemptOf } from '../../core/lost-attempt';
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
/** How far HubSpot's clock may lag ours when deciding whether a contact found after a lost answer is ours. */
const CLOCK_SKEW_MS = 60_000;

interface Prepared {
  hsType: HsType;
  properties: Record<string, string>;
  associations: HsAssociationWrite[];
  intents: ReturnType<ObjectSpec['desunify']>['intents'];
}

/** A prepared input and its position in the caller's list. */
interface Queued {
  index: number;
  p: Prepared;
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

  /** One batch/create call of up to 100 inputs, each with its own `objectWriteTraceId` (its index). */
  async function createChunk(ctx: AdapterContext, s: ObjectSpec, hsType: HsType, chunk: Queued[], results: BulkItemResult[]): Promise<void> {
    const outcomes = await createInputs(ctx, s, hsType, chunk, async (items, confirmedAbsent) => {
      const res = await ctx.http.post<HsBatchResponse<HsObject>>(`/crm/v3/objects/${hsType}/batch/create`, {
        confirmedAbsent,
        json: {
          inputs: items.map(({ index, p }) => ({
            properties: p.properties,
            ...(p.associations.length > 0 ? { associations: createBody(p.associations) } : {}),
            objectWriteTraceId: String(index),
          })),
        },
      });
      const created = new Map<number, HsObject | HsBatchError>();
      const body = res.data ?? {};
      (body.results ?? []).forEach((obj, k) => {
        // Trace ids come back on every result; without them (all created) the order is the input order.
        const trace = obj.objectWriteTraceId ?? (!body.errors?.length && body.results?.length === items.length ? String(items[k]!.index) : undefined);
        if (trace !== undefined) created.set(Number(trace), obj);
      });
      for (const e of body.errors ?? []) for (const trace of e.context?.objectWriteTraceId ?? []) if (!created.has(Number(trace))) created.set(Number(trace), e);
      return created;
    });
    chunk.forEach((item, k) => (results[item.index] = outcomes[k]!));
  }

  /**
   * Sends `send` and turns its answer into one outcome per input. When the answer is lost (the call may
   * or may not have created the objects), contacts are looked up by email: HubSpot keeps contact emails
   * unique, so a contact found with that email and created since the call started is ours, and an input
   * whose email is not found was not created and is sent once more (a duplicate of it would be refused).
   * Inputs that cannot be looked up answer `outcome_unknown`. The retry of an interrupted request (core/lost-attempt.ts)
   * starts there: its first attempt's call is the lost one, and "since the call started" is since that attempt began.
   */
  async function createInputs(
    ctx: AdapterContext,
    s: ObjectSpec,
    hsType: HsType,
    items: Queued[],
    send: (items: Queued[], confirmedAbsent: boolean) => Promise<Map<number, HsObject | HsBatchError>>,
    resends = 1,
    confirmedAbsent = false,
  ): Promise<BulkItemResult[]> {
    const startedAt = (lostAttemptOf()?.startedAt ?? new Date()).getTime();
    const ok = (item: Queued, obj: HsObject): BulkItemResult => ({ ok: true, result: { record: s.unify(obj, hsType, mapOfWrites(hsType, item.p.associations), ctx.ids) } });
    let answer: Map<number, HsObject | HsBatchError>;
    try {
      answer = await send(items, confirmedAbsent);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError) || hsType !== 'contacts') return items.map(() => ({ ok: false, error: error as Error }));
      const found = await contactsByEmail(ctx, s, items.map((i) => i.p.properties.email).filter((e): e is string => Boolean(e)));
      if (!found) return items.map(() => ({ ok: false, error }));
      const out: BulkItemResult[] = new Array(items.length);
      const again: number[] = [];
      items.forEach((item, k) => {
        const email = item.p.properties.email?.toLowerCase();
        const contact = email ? found.get(email) : undefined;
        if (!email) out[k] = { ok: false, error };
        else if (!contact) again.push(k);
        else if (Date.parse(contact.createdAt ?? contact.properties.createdate ?? '') >= startedAt - CLOCK_SKEW_MS) out[k] = ok(item, contact);
        else out[k] = { ok: false, error: new ProviderError(PROVIDER, 409, `Contact already exists. Existing ID: ${contact.id}`, null) };
      });
      if (again.length > 0) {
        const retried =
          resends > 0
            ? await createInputs(ctx, s, hsType, again.map((k) => items[k]!), send, resends - 1, true)
            : again.map(() => ({ ok: false as const, error }));
        again.forEach((k, j) => (out[k] = retried[j]!));
      }
      return out;
    }
    return items.map((item) => {
      const r = answer.get(item.index);
      if (r && 'id' in r) return ok(item, r as HsObject);
      return { ok: false, error: batchItemError(r as HsBatchError | undefined, 'HubSpot did not report on this input') };
    });
  }

  /** Contacts by email (lower-cased), read with the same properties as a write's read-back; undefined if that failed. */
  async function contactsByEmail(ctx: AdapterContext, s: ObjectSpec, emails: string[]): Promise<Map<string, HsObject> | undefined> {
    const found = new Map<string, HsObject>();
    if (emails.length === 0) return found;
    try {
      const properties = [...catalog.readable(s.properties('contacts'), await catalog.defs(ctx, 'contacts')), 'email', 'createdate'];
      const res = await ctx.http.post<HsBatchResponse<HsObject>>('/crm/v3/objects/contacts/batch/read', {
        json: { idProperty: 'email', inputs: emails.map((id) => ({ id })), properties: [...new Set(properties)] },
        read: true,
      });
      for (const c of res.data?.results ?? []) if (c.properties.email) found.set(String(c.properties.email).toLowerCase(), c);
    } catch (err) {
      // 404: none of them exists.
      if (!(err instanceof ProviderError && err.providerStatus === 404)) return undefined;
    }
    return found;
  }

  return {
    async create(ctx, objectType, input): Promise<WriteResult> {
      const s = spec(objectType);
      const hsType = hsTypeOfInput(s, input);
      const p = await prepare(ctx, s, hsType, input, 'create', {});
      const item = { index: 0, p };
      const [outcome] = await createInputs(ctx, s, hsType, [item], (items) =>
        ctx.http
          .post<HsObject>(`/crm/v3/objects/${hsType}`, { json: { properties: p.properties, ...(p.associations.length > 0 ? { associations: createBody(p.associations) } : {}) } })
          .then((res) => new Map([[items[0]!.index, res.data]])),
      );
      if (!outcome!.ok) throw outcome!.error;
      return outcome!.result;
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
        for (let i = 0; i < prepared.length; i += BATCH_SIZE) await createChunk(ctx, s, hsType, prepared.slice(i, i + BATCH_SIZE), results);
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
