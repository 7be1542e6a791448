/**
 * Unified CRM writes on Close. Close has no batch-create API, so there is no `createMany`: the core
 * creates the elements of a batch one request each. Creates are POST, updates PUT with only the fields
 * given (Close's PUT changes the fields sent).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { API, bodyOf, isNotFound, type FieldDefinitions } from './api';
import { customFieldsBody } from './custom-fields';
import {
  desunifyCall,
  desunifyContact,
  desunifyLead,
  desunifyNote,
  desunifyOpportunity,
  desunifyTask,
  unifyActivityEngagement,
  unifyContact,
  unifyLead,
  unifyNote,
  unifyOpportunity,
  unifyTask,
} from './mappers';
import type { CloseActivity, CloseContact, CloseLead, CloseOpportunity, CloseTask } from './types';
import { closeId, has, needLead, toIso, unsupported } from './util';

export function closeCrmOperations(defs: FieldDefinitions): CrmOperations {
  async function write<T>(ctx: AdapterContext, path: string, remoteId: string | null, body: Record<string, unknown>, what: string): Promise<T> {
    const res = remoteId === null
      ? await ctx.http.post<T>(path, { json: body })
      : await ctx.http.put<T>(`${path}${closeId(remoteId, 'id')}/`, { json: body });
    return bodyOf(res, what);
  }

  async function read<T>(ctx: AdapterContext, path: string, remoteId: string, what: string): Promise<T> {
    return bodyOf(await ctx.http.get<T>(`${path}${closeId(remoteId, 'id')}/`), what);
  }

  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  /** Notes and calls belong to a lead: company_id, else the lead of the contact given. */
  async function leadOf(ctx: AdapterContext, body: Record<string, unknown>, what: string) {
    if (body.lead_id !== undefined) return;
    const contact = typeof body.contact_id === 'string' ? body.contact_id : undefined;
    if (!contact) throw needLead('company_id', what);
    body.lead_id = (await read<CloseContact>(ctx, `${API}/contact/`, contact, 'contact')).lead_id;
    if (!body.lead_id) throw needLead('company_id', what);
  }

  async function writeContact(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const fields = fieldsOf(input);
    const onePart = has(fields, 'first_name') !== has(fields, 'last_name');
    const current = remoteId !== null && onePart ? await read<CloseContact>(ctx, `${API}/contact/`, remoteId, 'contact') : undefined;
    const body = { ...desunifyContact(fields, current, remoteId === null), ...(await customFieldsBody(defs, ctx, 'crm.contact', input.customFields)) };
    return unifyContact(await write<CloseContact>(ctx, `${API}/contact/`, remoteId, body, 'contact'), ctx.ids);
  }

  async function writeCompany(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const body = { ...desunifyLead(fieldsOf(input)), ...(await customFieldsBody(defs, ctx, 'crm.company', input.customFields)) };
    return unifyLead(await write<CloseLead>(ctx, `${API}/lead/`, remoteId, body, 'lead'));
  }

  async function writeDeal(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const fields = fieldsOf(input);
    // The name and description share the note: one of them alone keeps the other as it is.
    const needsNote = remoteId !== null && has(fields, 'name') !== has(fields, 'description');
    const current = needsNote ? await read<CloseOpportunity>(ctx, `${API}/opportunity/`, remoteId, 'opportunity') : undefined;
    const body = { ...desunifyOpportunity(fields, current, remoteId === null), ...(await customFieldsBody(defs, ctx, 'crm.deal', input.customFields)) };
    return unifyOpportunity(await write<CloseOpportunity>(ctx, `${API}/opportunity/`, remoteId, body, 'opportunity'), ctx.ids);
  }

  async function writeNote(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.note', input.customFields);
    const body = desunifyNote(fieldsOf(input));
    if (remoteId === null) await leadOf(ctx, body, 'note');
    return unifyNote(await write<CloseActivity>(ctx, `${API}/activity/note/`, remoteId, body, 'note'), ctx.ids);
  }

  async function writeTask(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.task', input.customFields);
    const body = desunifyTask(fieldsOf(input), remoteId === null);
    if (remoteId === null && body.lead_id === undefined) throw needLead('company_id', 'task');
    return unifyTask(await write<CloseTask>(ctx, `${API}/task/`, remoteId, body, 'task'), ctx.ids);
  }

  async function writeEngagement(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.engagement', input.customFields);
    const fields = fieldsOf(input);
    let currentStart: string | null = null;
    if (remoteId !== null) {
      // Only calls can be written: a meeting (or any other activity) is not found under /activity/call/.
      let call: CloseActivity;
      try {
        call = await read<CloseActivity>(ctx, `${API}/activity/call/`, remoteId, 'call');
      } catch (err) {
        if (isNotFound(err)) throw unsupported('type', 'only Close calls can be updated through the API; meetings are read only');
        throw err;
      }
      currentStart = toIso(call.activity_at);
    } else if (!has(fields, 'type')) {
      throw new AppError('validation_failed', 'type: required', { field: 'type' });
    }
    const body = desunifyCall(fields, currentStart);
    if (remoteId === null) await leadOf(ctx, body, 'call');
    return unifyActivityEngagement(await write<CloseActivity>(ctx, `${API}/activity/call/`, remoteId, body, 'call'), ctx.ids);
  }

  return crmWritesByType({ id: 'close', name: 'Close' }, {
    'crm.contact': writeContact,
    'crm.company': writeCompany,
    'crm.deal': writeDeal,
    'crm.note': writeNote,
    'crm.task': writeTask,
    'crm.engagement': writeEngagement,
  });
}
