/**
 * Unified CRM writes on Attio: records created with `POST /v2/objects/{object}/records` and changed with
 * `PATCH …/{record_id}` (the values given replace the attribute's values), notes with `POST /v2/notes`,
 * tasks with `POST /v2/tasks` and `PATCH /v2/tasks/{id}`. Attio has no batch API: no `createMany`.
 */
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { attributes, dataOf, objectSlugs, unsupported, uuid, type AttioObject, type AttioRecord, type Cache } from './api';
import { customValues } from './custom-fields';
import { desunifyCompany, desunifyDeal, desunifyNote, desunifyPerson, desunifyTask, unifyCompany, unifyDeal, unifyNote, unifyPerson, unifyTask, type AttioNote, type AttioTask } from './mappers';
import { has } from '../kit';

export function attioCrmOperations(cache: Cache): Pick<CrmOperations, 'create' | 'update'> {
  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  async function writeRecord(ctx: AdapterContext, object: AttioObject, remoteId: string | null, values: Record<string, unknown>): Promise<AttioRecord> {
    const res =
      remoteId === null
        ? await ctx.http.post<{ data?: AttioRecord }>(`/v2/objects/${object}/records`, { json: { data: { values } } })
        : await ctx.http.patch<{ data?: AttioRecord }>(`/v2/objects/${object}/records/${uuid(remoteId, 'id')}`, { json: { data: { values } } });
    return dataOf(res, 'record');
  }

  async function readRecord(ctx: AdapterContext, object: AttioObject, remoteId: string): Promise<AttioRecord> {
    return dataOf(await ctx.http.get<{ data?: AttioRecord }>(`/v2/objects/${object}/records/${uuid(remoteId, 'id')}`), 'record');
  }

  return crmWritesByType({ id: 'attio', name: 'Attio' }, {
    async 'crm.contact'(ctx, remoteId, input) {
      const f = fieldsOf(input);
      // A name is one value: changing one part keeps the other as it is.
      const current = remoteId !== null && has(f, 'first_name') !== has(f, 'last_name') ? await readRecord(ctx, 'people', remoteId) : undefined;
      const values = { ...desunifyPerson(f, current), ...(await customValues(cache, ctx, 'crm.contact', input.customFields)) };
      return unifyPerson(await writeRecord(ctx, 'people', remoteId, values), ctx.ids);
    },
    async 'crm.company'(ctx, remoteId, input) {
      const values = { ...desunifyCompany(fieldsOf(input)), ...(await customValues(cache, ctx, 'crm.company', input.customFields)) };
      return unifyCompany(await writeRecord(ctx, 'companies', remoteId, values));
    },
    async 'crm.deal'(ctx, remoteId, input) {
      const f = fieldsOf(input);
      const currency = has(f, 'currency') ? ((await attributes(cache, ctx, 'deals')).get('value')?.config?.currency?.default_currency_code ?? null) : null;
      const values = { ...desunifyDeal(f, remoteId === null, currency), ...(await customValues(cache, ctx, 'crm.deal', input.customFields)) };
      return unifyDeal(await writeRecord(ctx, 'deals', remoteId, values), ctx.ids);
    },
    async 'crm.note'(ctx, remoteId, input) {
      if (remoteId !== null) throw unsupported('id', 'Attio notes cannot be updated through the API');
      await customValues(cache, ctx, 'crm.note', input.customFields);
      const note = dataOf(await ctx.http.post<{ data?: AttioNote }>('/v2/notes', { json: { data: desunifyNote(fieldsOf(input)) } }), 'note');
      return unifyNote(note, ctx.ids);
    },
    async 'crm.task'(ctx, remoteId, input): Promise<UnifiedRecord> {
      await customValues(cache, ctx, 'crm.task', input.customFields);
      const data = desunifyTask(fieldsOf(input), remoteId === null);
      const res =
        remoteId === null
          ? await ctx.http.post<{ data?: AttioTask }>('/v2/tasks', { json: { data } })
          : await ctx.http.patch<{ data?: AttioTask }>(`/v2/tasks/${uuid(remoteId, 'id')}`, { json: { data } });
      return unifyTask(dataOf(res, 'task'), ctx.ids, await objectSlugs(cache, ctx));
    },
  });
}
