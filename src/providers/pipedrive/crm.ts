/**
 * Unified CRM writes on Pipedrive. Pipedrive has no batch-create API, so there is no `createMany`: the
 * core creates the elements of a batch one request each (bounded by the connection's client).
 */
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { activityStart } from './activity';
import { v1, V2, dataOf, type FieldDefinitions, type FieldEntity } from './api';
import { desunifyOrganization, unifyOrganization } from './company.mapper';
import { desunifyPerson, unifyPerson } from './contact.mapper';
import { customFieldsBody, hasBareOptions } from './custom-fields';
import { desunifyDeal, unifyDeal } from './deal.mapper';
import { desunifyEngagement, unifyEngagement } from './engagement.mapper';
import { desunifyNote, unifyNote } from './note.mapper';
import { desunifyTask, unifyTask } from './task.mapper';
import type { PdActivity, PdDeal, PdEnvelope, PdNote, PdOrganization, PdPerson } from './types';
import { has, pdId } from './util';

type V2Kind = 'persons' | 'organizations' | 'deals' | 'activities';
type WithCustom = { id: number; custom_fields?: Record<string, unknown> | null };

export function pipedriveCrmOperations(defs: FieldDefinitions): CrmOperations {
  /** POST or PATCH an API v2 object; read it again with option labels when its answer lacks them. */
  async function writeV2<T extends WithCustom>(
    ctx: AdapterContext,
    kind: V2Kind,
    remoteId: string | null,
    body: Record<string, unknown>,
    entity?: FieldEntity,
  ): Promise<T> {
    const res = remoteId === null
      ? await ctx.http.post<PdEnvelope<T>>(`${V2}/${kind}`, { json: body })
      : await ctx.http.patch<PdEnvelope<T>>(`${V2}/${kind}/${pdId(remoteId, 'id')}`, { json: body });
    const written = dataOf(res, kind.replace(/s$/, ''));
    if (entity && hasBareOptions(written.custom_fields, defs.cached(ctx, entity))) return getV2<T>(ctx, kind, String(written.id), true);
    return written;
  }

  async function getV2<T>(ctx: AdapterContext, kind: V2Kind, remoteId: string, labels = false): Promise<T> {
    const res = await ctx.http.get<PdEnvelope<T>>(`${V2}/${kind}/${pdId(remoteId, 'id')}`, { query: labels ? { include_option_labels: true } : undefined });
    return dataOf(res, kind.replace(/s$/, ''));
  }

  async function custom(ctx: AdapterContext, objectType: string, input: CrmWrite, currency?: string) {
    return customFieldsBody(defs, ctx, objectType, input.customFields, { currency });
  }

  /** The fields of a write without the custom field values (mappers see unified fields only). */
  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  async function writeContact(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const fields = fieldsOf(input);
    const postalAddress = has(fields, 'addresses') ? (await defs.all(ctx, 'person')).has('postal_address') : false;
    const onePart = has(fields, 'first_name') !== has(fields, 'last_name');
    const current = remoteId !== null && onePart ? await getV2<PdPerson>(ctx, 'persons', remoteId) : undefined;
    const body = desunifyPerson(fields, { postalAddress, current }, remoteId === null);
    const customFields = await custom(ctx, 'crm.contact', input);
    if (customFields) body.custom_fields = customFields;
    return unifyPerson(await writeV2<PdPerson>(ctx, 'persons', remoteId, body, 'person'), ctx.ids);
  }

  async function writeCompany(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const fields = fieldsOf(input);
    // The industry options: to write a label, and to read the answer's industry as a label.
    let industries = (await defs.all(ctx, 'organization')).get('industry')?.options;
    if (has(fields, 'industry') && !industries?.some((o) => o.label.toLowerCase() === String(fields.industry).trim().toLowerCase())) {
      industries = (await defs.all(ctx, 'organization', { fresh: true })).get('industry')?.options;
    }
    const body = desunifyOrganization(fields, industries);
    const customFields = await custom(ctx, 'crm.company', input);
    if (customFields) body.custom_fields = customFields;
    return unifyOrganization(await writeV2<PdOrganization>(ctx, 'organizations', remoteId, body, 'organization'), ctx.ids, industries);
  }

  async function writeDeal(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const fields = fieldsOf(input);
    const body = desunifyDeal(fields);
    const customFields = await custom(ctx, 'crm.deal', input, typeof fields.currency === 'string' ? fields.currency : undefined);
    if (customFields) body.custom_fields = customFields;
    return unifyDeal(await writeV2<PdDeal>(ctx, 'deals', remoteId, body, 'deal'), ctx.ids);
  }

  async function writeNote(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await custom(ctx, 'crm.note', input);
    const body = desunifyNote(fieldsOf(input), remoteId === null);
    const res = remoteId === null
      ? await ctx.http.post<PdEnvelope<PdNote>>(`${v1(ctx)}/notes`, { json: body })
      : await ctx.http.put<PdEnvelope<PdNote>>(`${v1(ctx)}/notes/${pdId(remoteId, 'id')}`, { json: body });
    return unifyNote(dataOf(res, 'note'), ctx.ids);
  }

  async function writeTask(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await custom(ctx, 'crm.task', input);
    const body = desunifyTask(fieldsOf(input), remoteId === null);
    return unifyTask(await writeV2<PdActivity & WithCustom>(ctx, 'activities', remoteId, body), ctx.ids);
  }

  async function writeEngagement(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await custom(ctx, 'crm.engagement', input);
    const fields = fieldsOf(input);
    // A new end time alone is a duration from the activity's current start.
    const needsStart = remoteId !== null && has(fields, 'end_time') && !has(fields, 'start_at');
    const currentStart = needsStart ? activityStart(await getV2<PdActivity>(ctx, 'activities', remoteId)) : null;
    const body = desunifyEngagement(fields, currentStart);
    return unifyEngagement(await writeV2<PdActivity & WithCustom>(ctx, 'activities', remoteId, body), ctx.ids);
  }

  return crmWritesByType({ id: 'pipedrive', name: 'Pipedrive' }, {
    'crm.contact': writeContact,
    'crm.company': writeCompany,
    'crm.deal': writeDeal,
    'crm.note': writeNote,
    'crm.task': writeTask,
    'crm.engagement': writeEngagement,
  });
}
