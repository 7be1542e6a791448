/**
 * Unified CRM writes on Dynamics. A create is one `POST /<entity set>` and an update one `PATCH /<entity
 * set>(<id>)` with `If-Match: *` (never an upsert), both with `Prefer: return=representation` and the
 * columns the syncers read, so the answer is the row as stored. A task created completed is then closed
 * (statecode 1, statuscode 5) in a second PATCH. Lookups are written as `<navigation property>@odata.bind`.
 */
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { ANNOTATIONS, API, guid, unsupported, type Metadata, type Row } from './api';
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

const PREFER = `return=representation,${ANNOTATIONS}`;
const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key) && (o as Record<string, unknown>)[key] !== undefined;

export function dynamicsCrmOperations(metadata: Metadata): CrmOperations {
  async function send(ctx: AdapterContext, tableName: TableName, remoteId: string | null, body: Record<string, unknown>): Promise<Row> {
    const table = TABLES[tableName];
    const select = (await metadata.select(ctx, table.name, table.select, CUSTOM_TABLES.has(tableName))).join(',');
    const query = { $select: select };
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

  /** The table an engagement lives in: its type on create; for an update, the table that has the id. */
  async function engagementTableOf(ctx: AdapterContext, remoteId: string, input: CrmWrite): Promise<'phonecall' | 'appointment'> {
    const id = guid(remoteId, 'id');
    // Activities share one id space (activitypointer): its activitytypecode names the table.
    const res = await ctx.http.get<Row>(`${API}/activitypointers(${id})`, { query: { $select: 'activitytypecode' } });
    const table = res.data?.activitytypecode === 'appointment' ? 'appointment' : 'phonecall';
    if (has(input, 'type') && engagementTable(input.type) !== table) throw unsupported('type', `a Dynamics ${table} cannot change its type`);
    return table;
  }

  function writer(objectType: string) {
    return async (ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> => {
      const create = remoteId === null;
      const { customFields, ...f } = input;
      const custom = () => customFieldsBody(metadata, ctx, objectType, customFields);
      switch (objectType) {
        case 'crm.contact':
          return unify(ctx, 'contact', await send(ctx, 'contact', remoteId, { ...desunifyContact(f, create), ...(await custom()) }));
        case 'crm.company': {
          const industries = has(f, 'industry') && f.industry !== null ? await metadata.options(ctx, 'account', 'industrycode') : null;
          return unify(ctx, 'account', await send(ctx, 'account', remoteId, { ...desunifyAccount(f, create, industries), ...(await custom()) }));
        }
        case 'crm.deal': {
          const currencies = has(f, 'currency') ? await metadata.currencies(ctx) : new Map<string, string>();
          return unify(ctx, 'opportunity', await send(ctx, 'opportunity', remoteId, { ...desunifyOpportunity(f, create, currencies), ...(await custom()) }));
        }
        case 'crm.note':
          await custom();
          return unify(ctx, 'annotation', await send(ctx, 'annotation', remoteId, desunifyNote(f, create)));
        case 'crm.task': {
          await custom();
          const { body, state } = desunifyTask(f);
          // A task is created open; closing it is its own change of state.
          if (create) {
            const row = await send(ctx, 'task', null, body);
            const closed = state && state.statecode !== 0 ? await send(ctx, 'task', String(row.activityid), state) : row;
            return unify(ctx, 'task', closed);
          }
          return unify(ctx, 'task', await send(ctx, 'task', remoteId, { ...body, ...state }));
        }
        case 'crm.engagement': {
          await custom();
          const table = create ? engagementTable(f.type) : await engagementTableOf(ctx, remoteId, f);
          return unify(ctx, table, await send(ctx, table, remoteId, desunifyEngagement(f, table, create)));
        }
        default:
          throw unsupported('object', `Dynamics cannot write ${objectType}`);
      }
    };
  }

  const types = ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'];
  return crmWritesByType({ id: 'dynamics', name: 'Dynamics' }, Object.fromEntries(types.map((t) => [t, writer(t)]))) as CrmOperations;
}
