/**
 * Unified CRM writes on Dynamics. A create is one `POST /<entity set>` and an update one `PATCH /<entity
 * set>(<id>)` with `If-Match: *` (never an upsert), both with `Prefer: return=representation` and the
 * columns the syncers read, so the answer is the row as stored. Batches: one `$batch` with a change set per
 * element (batch.ts), answering the rows too. A task created completed is then closed (statecode 1,
 * statuscode 5) in a second PATCH. Lookups are written as `<navigation property>@odata.bind`.
 */
import type { AdapterContext, BulkItemResult, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { ANNOTATIONS, API, guid, unsupported, type Metadata, type Row } from './api';
import { batchError, sendBatch } from './batch';
import { customFieldsBody } from './custom-fields';
import {
  TABLES,
  desunifyAccount,
  desunifyContact,
  desunifyEngagement,
  desunifyNote,
  desunifyOpportunity,
  desunifyTask,
  engagementTable,
  unifyAccount,
  unifyContact,
  unifyEngagement,
  unifyNote,
  unifyOpportunity,
  unifyTask,
  type TableName,
} from './mappers';
import { CUSTOM_TABLES } from './sync';
import { has, prepareEach } from '../kit';

const PREFER = `return=representation,${ANNOTATIONS}`;

/** A row ready to send: its table, its columns, and (tasks) the state to set after a create. */
interface Prepared {
  table: TableName;
  body: Record<string, unknown>;
  state?: Record<string, unknown>;
}

export function dynamicsCrmOperations(metadata: Metadata): CrmOperations {
  const selectOf = async (ctx: AdapterContext, tableName: TableName) => {
    const table = TABLES[tableName];
    return (await metadata.select(ctx, table.name, table.select, CUSTOM_TABLES.has(tableName))).join(',');
  };

  async function send(ctx: AdapterContext, tableName: TableName, remoteId: string | null, body: Record<string, unknown>): Promise<Row> {
    const table = TABLES[tableName];
    const query = { $select: await selectOf(ctx, tableName) };
    if (remoteId === null) return (await ctx.http.post<Row>(`${API}/${table.set}`, { query, json: body, headers: { prefer: PREFER } })).data;
    const id = guid(remoteId, 'id');
    return (await ctx.http.patch<Row>(`${API}/${table.set}(${id})`, { query, json: body, headers: { prefer: PREFER, 'if-match': '*' } })).data;
  }

  async function unify(ctx: AdapterContext, tableName: TableName, r: Row): Promise<UnifiedRecord> {
    switch (tableName) {
      case 'contact':
        return unifyContact(r, ctx.ids);
      case 'account':
        return unifyAccount(r, ctx.ids);
      case 'opportunity':
        return unifyOpportunity(r, ctx.ids, await metadata.currencies(ctx));
      case 'annotation':
        return unifyNote(r, ctx.ids);
      case 'task':
        return unifyTask(r, ctx.ids);
      default:
        return unifyEngagement(r, ctx.ids, tableName as 'phonecall' | 'appointment');
    }
  }

  /** The table an engagement lives in: for an update, the activity's own type (activitypointer). */
  async function engagementTableOf(ctx: AdapterContext, remoteId: string, input: CrmWrite): Promise<'phonecall' | 'appointment'> {
    const id = guid(remoteId, 'id');
    const res = await ctx.http.get<Row>(`${API}/activitypointers(${id})`, { query: { $select: 'activitytypecode' } });
    const table = res.data?.activitytypecode === 'appointment' ? 'appointment' : 'phonecall';
    if (has(input, 'type') && engagementTable(input.type) !== table) throw unsupported('type', `a Dynamics ${table} cannot change its type`);
    return table;
  }

  /** The row's columns for a unified write (custom columns included); `remoteId` null for a create. */
  async function prepare(ctx: AdapterContext, objectType: string, remoteId: string | null, input: CrmWrite): Promise<Prepared> {
    const create = remoteId === null;
    const { customFields, ...f } = input;
    const custom = () => customFieldsBody(metadata, ctx, objectType, customFields);
    switch (objectType) {
      case 'crm.contact':
        return { table: 'contact', body: { ...desunifyContact(f), ...(await custom()) } };
      case 'crm.company': {
        const industries = has(f, 'industry') && f.industry !== null ? await metadata.options(ctx, 'account', 'industrycode') : null;
        return { table: 'account', body: { ...desunifyAccount(f, industries), ...(await custom()) } };
      }
      case 'crm.deal': {
        const currencies = has(f, 'currency') ? await metadata.currencies(ctx) : new Map<string, string>();
        return { table: 'opportunity', body: { ...desunifyOpportunity(f, currencies), ...(await custom()) } };
      }
      case 'crm.note':
        await custom();
        return { table: 'annotation', body: desunifyNote(f, create) };
      case 'crm.task': {
        await custom();
        const { body, state } = desunifyTask(f);
        // A task is created open; closing it is its own change of state, after the create.
        return create ? { table: 'task', body, state: state && state.statecode !== 0 ? state : undefined } : { table: 'task', body: { ...body, ...state } };
      }
      case 'crm.engagement': {
        await custom();
        const table = create ? engagementTable(f.type) : await engagementTableOf(ctx, remoteId, f);
        return { table, body: desunifyEngagement(f, table, create) };
      }
      default:
        throw unsupported('object', `Dynamics cannot write ${objectType}`);
    }
  }

  /** After a create: the task's state, when it was created completed. */
  const settle = async (ctx: AdapterContext, p: Prepared, row: Row): Promise<Row> => (p.state ? send(ctx, p.table, String(row[TABLES[p.table].key]), p.state) : row);

  const writer = (objectType: string) => async (ctx: AdapterContext, remoteId: string | null, input: CrmWrite) => {
    const p = await prepare(ctx, objectType, remoteId, input);
    const row = await send(ctx, p.table, remoteId, p.body);
    return unify(ctx, p.table, remoteId === null ? await settle(ctx, p, row) : row);
  };
  const types = ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'];

  return {
    ...crmWritesByType({ id: 'dynamics', name: 'Dynamics' }, Object.fromEntries(types.map((t) => [t, writer(t)]))),

    async createMany(ctx, objectType, inputs): Promise<BulkItemResult[]> {
      const { results, ready } = await prepareEach(inputs, (input) => prepare(ctx, objectType, null, input));
      const requests = await Promise.all(
        ready.map(async ({ p }) => ({ method: 'POST' as const, url: `${TABLES[p.table].set}?$select=${await selectOf(ctx, p.table)}`, headers: { Prefer: PREFER }, body: p.body })),
      );
      const answers = await sendBatch(ctx, requests);
      for (const [i, { index, p }] of ready.entries()) {
        const a = answers[i]!;
        if (a.status !== 201 || !a.body || typeof a.body !== 'object') {
          results[index] = { ok: false, error: batchError(a) };
          continue;
        }
        try {
          results[index] = { ok: true, result: { record: await unify(ctx, p.table, await settle(ctx, p, a.body as Row)) } };
        } catch (error) {
          results[index] = { ok: false, error: error as Error };
        }
      }
      return results;
    },
  };
}
