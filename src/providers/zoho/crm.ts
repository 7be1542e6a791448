/**
 * Unified CRM writes on Zoho CRM. Creates are `POST /{module}` with `data` (up to 100 records: batches go
 * in one request per 100, each record answered on its own), updates `PUT /{module}/{id}` with the fields
 * given; the record is then read back (one list request by `ids` for a batch).
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, BulkItemResult, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { API, isMissing, unsupported, zohoId, type FieldDefinitions, type ZRecord } from './api';
import { customFieldsBody } from './custom-fields';
import { zohoErrorMessage } from './http';
import {
  FIELDS,
  desunifyAccount,
  desunifyContact,
  desunifyDeal,
  desunifyEngagement,
  desunifyNote,
  desunifyTask,
  engagementModule,
  unifyAccount,
  unifyContact,
  unifyDeal,
  unifyEngagement,
  unifyNote,
  unifyTask,
  type Module,
} from './mappers';
import { chunks, groupBy, has, prepareEach } from '../kit';

/** Zoho's answer for one record of a write. */
interface WriteOutcome {
  status?: string;
  code?: string;
  message?: string;
  details?: { id?: string; api_name?: string } & Record<string, unknown>;
}

function outcomeError(o: WriteOutcome | undefined): ProviderError {
  return new ProviderError('zoho', 400, o ? zohoErrorMessage(o) : 'no result for this record', o ?? null);
}

/** The per-record outcomes of a write: a refused request (400) still answers them in `data`. */
async function writeRequest(run: () => Promise<{ data: unknown }>): Promise<WriteOutcome[]> {
  let body: unknown;
  try {
    body = (await run()).data;
  } catch (err) {
    if (err instanceof ProviderError && err.providerStatus === 400 && Array.isArray((err.providerBody as { data?: unknown })?.data)) body = err.providerBody;
    else throw err;
  }
  const data = (body as { data?: unknown })?.data;
  return Array.isArray(data) ? (data as WriteOutcome[]) : [];
}

interface Prepared {
  module: Module;
  body: Record<string, unknown>;
}

export function zohoCrmOperations(defs: FieldDefinitions): CrmOperations {
  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  async function readRecords(ctx: AdapterContext, module: Module, ids: string[]): Promise<Map<string, ZRecord>> {
    const out = new Map<string, ZRecord>();
    if (ids.length === 0) return out;
    const fields = module === 'Contacts' || module === 'Accounts' || module === 'Deals' ? await defs.select(ctx, module, FIELDS[module]) : FIELDS[module].join(',');
    if (ids.length === 1) {
      // `fields` as for lists (Get Note requires it; records answer the fields asked).
      const res = await ctx.http.get<{ data?: ZRecord[] }>(`${API}/${module}/${ids[0]}`, { query: { fields } });
      for (const r of res.data?.data ?? []) if (r?.id) out.set(r.id, r);
      return out;
    }
    for (let i = 0; i < ids.length; i += 100) {
      const res = await ctx.http.get<{ data?: ZRecord[] }>(`${API}/${module}`, { query: { ids: ids.slice(i, i + 100).join(','), fields } });
      for (const r of res.data?.data ?? []) if (r?.id) out.set(r.id, r);
    }
    return out;
  }

  function unify(ctx: AdapterContext, module: Module, r: ZRecord): UnifiedRecord {
    switch (module) {
      case 'Contacts':
        return unifyContact(r, ctx.ids);
      case 'Accounts':
        return unifyAccount(r, ctx.ids);
      case 'Deals':
        return unifyDeal(r, ctx.ids);
      case 'Notes':
        return unifyNote(r, ctx.ids);
      case 'Tasks':
        return unifyTask(r, ctx.ids);
      default:
        return unifyEngagement(r, module, ctx.ids);
    }
  }

  /** The module of an existing engagement: a call, else a meeting (Zoho ids do not tell). */
  async function engagementOf(ctx: AdapterContext, remoteId: string): Promise<{ module: 'Calls' | 'Events'; record: ZRecord }> {
    for (const module of ['Calls', 'Events'] as const) {
      try {
        const record = (await readRecords(ctx, module, [remoteId])).get(remoteId);
        if (record) return { module, record };
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    }
    throw new ProviderError('zoho', 404, `no call or meeting ${remoteId}`, null);
  }

  async function prepare(ctx: AdapterContext, objectType: string, remoteId: string | null, input: CrmWrite): Promise<Prepared> {
    const create = remoteId === null;
    const f = fieldsOf(input);
    const custom = () => customFieldsBody(defs, ctx, objectType, input.customFields);
    switch (objectType) {
      case 'crm.contact':
        return { module: 'Contacts', body: { ...desunifyContact(f, create), ...(await custom()) } };
      case 'crm.company':
        return { module: 'Accounts', body: { ...desunifyAccount(f, create), ...(await custom()) } };
      case 'crm.deal': {
        const multiCurrency = !has(f, 'currency') || (await defs.all(ctx, 'Deals')).has('Currency');
        return { module: 'Deals', body: { ...desunifyDeal(f, create, multiCurrency), ...(await custom()) } };
      }
      case 'crm.note':
        await custom();
        return { module: 'Notes', body: desunifyNote(f, create) };
      case 'crm.task':
        await custom();
        return { module: 'Tasks', body: desunifyTask(f, create) };
      case 'crm.engagement': {
        await custom();
        if (create) {
          const module = engagementModule(f.type);
          return { module, body: desunifyEngagement(f, module, null) };
        }
        const { module, record } = await engagementOf(ctx, remoteId);
        const start = module === 'Calls' && typeof record.Call_Start_Time === 'string' ? record.Call_Start_Time : null;
        return { module, body: desunifyEngagement(f, module, { start }) };
      }
      default:
        throw unsupported('object', `Zoho CRM cannot write ${objectType}`);
    }
  }

  async function writeOne(ctx: AdapterContext, objectType: string, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const p = await prepare(ctx, objectType, remoteId, input);
    let id: string;
    if (remoteId === null) {
      const [o] = await writeRequest(() => ctx.http.post(`${API}/${p.module}`, { json: { data: [p.body] } }));
      if (o?.status !== 'success' || !o.details?.id) throw outcomeError(o);
      id = o.details.id;
    } else {
      id = zohoId(remoteId, 'id');
      if (Object.keys(p.body).length > 0) {
        const [o] = await writeRequest(() => ctx.http.put(`${API}/${p.module}/${id}`, { json: { data: [p.body] } }));
        if (o?.status !== 'success') throw outcomeError(o);
      }
    }
    const record = (await readRecords(ctx, p.module, [id])).get(id);
    if (!record) throw new ProviderError('zoho', 404, `the ${p.module} record ${id} could not be read back`, null);
    return unify(ctx, p.module, record);
  }

  const writer = (objectType: string) => (ctx: AdapterContext, remoteId: string | null, input: CrmWrite) => writeOne(ctx, objectType, remoteId, input);
  const types = ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'];

  return {
    ...crmWritesByType({ id: 'zoho', name: 'Zoho CRM' }, Object.fromEntries(types.map((t) => [t, writer(t)]))),

    async createMany(ctx, objectType, inputs): Promise<BulkItemResult[]> {
      const { results, ready } = await prepareEach(inputs, (input) => prepare(ctx, objectType, null, input));
      // One request per module and 100 records (engagements may mix calls and meetings).
      for (const [module, list] of groupBy(ready, (r) => r.p.module)) {
        const created: { index: number; id: string }[] = [];
        for (const part of chunks(list, 100)) {
          const outcomes = await writeRequest(() => ctx.http.post(`${API}/${module}`, { json: { data: part.map((r) => r.p.body) } }));
          part.forEach((r, j) => {
            const o = outcomes[j];
            if (o?.status === 'success' && o.details?.id) created.push({ index: r.index, id: o.details.id });
            else results[r.index] = { ok: false, error: outcomeError(o) };
          });
        }
        const records = await readRecords(ctx, module, created.map((c) => c.id));
        for (const c of created) {
          const record = records.get(c.id);
          results[c.index] = record
            ? { ok: true, result: { record: unify(ctx, module, record) } }
            : { ok: false, error: new ProviderError('zoho', 404, `the ${module} record ${c.id} could not be read back`, null) };
        }
      }
      return results;
    },
  };
}
