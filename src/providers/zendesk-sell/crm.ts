/**
 * Unified CRM writes on Zendesk Sell. Sell has no batch-create API, so there is no `createMany`: the core
 * creates the elements of a batch one request each. Creates are POST `{data}`, updates PUT `{data}` with
 * the fields given; both answer the object.
 */
import type { AdapterContext, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { API, dataOf, required, sellId, unsupported, type CustomFieldDefinitions, type SellObject } from './api';
import { customFieldsBody } from './custom-fields';
import { organizationsAmong } from './lookups';
import {
  desunifyCall,
  desunifyDeal,
  desunifyNote,
  desunifyOrganization,
  desunifyPerson,
  desunifyTask,
  unifyCall,
  unifyDeal,
  unifyNote,
  unifyOrganization,
  unifyPerson,
  unifyTask,
} from './mappers';
import { has } from '../kit';

export function zendeskSellCrmOperations(defs: CustomFieldDefinitions): CrmOperations {
  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  async function write(ctx: AdapterContext, path: string, remoteId: string | null, body: Record<string, unknown>, what: string): Promise<SellObject> {
    const res = remoteId === null ? await ctx.http.post(path, { json: { data: body } }) : await ctx.http.put(`${path}/${sellId(remoteId, 'id')}`, { json: { data: body } });
    return dataOf(res, what);
  }
  const read = async (ctx: AdapterContext, path: string, id: number, what: string) => dataOf(await ctx.http.get(`${path}/${id}`), what);

  /** Persons and organizations are both Sell contacts: a unified contact is a person, a company an organization. */
  async function ensureKind(ctx: AdapterContext, remoteId: string, organization: boolean) {
    const c = await read(ctx, `${API}/contacts`, sellId(remoteId, 'id'), 'contact');
    if ((c.is_organization === true) !== organization) throw unsupported('id', organization ? 'this Zendesk Sell contact is a person, not a company' : 'this Zendesk Sell contact is an organization (a company)');
  }

  async function writeContact(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    if (remoteId !== null) await ensureKind(ctx, remoteId, false);
    const body = { ...desunifyPerson(fieldsOf(input), remoteId === null), ...(await customFieldsBody(defs, ctx, 'crm.contact', input.customFields)) };
    return unifyPerson(await write(ctx, `${API}/contacts`, remoteId, body, 'contact'), ctx.ids);
  }

  async function writeCompany(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    if (remoteId !== null) await ensureKind(ctx, remoteId, true);
    const body = { ...desunifyOrganization(fieldsOf(input), remoteId === null), ...(await customFieldsBody(defs, ctx, 'crm.company', input.customFields)) };
    return unifyOrganization(await write(ctx, `${API}/contacts`, remoteId, body, 'organization'), ctx.ids);
  }

  async function writeDeal(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    const f = fieldsOf(input);
    const body = { ...desunifyDeal(f), ...(await customFieldsBody(defs, ctx, 'crm.deal', input.customFields)) };
    // The primary contact: the one contact given, else the company (an organization contact).
    const contacts = has(f, 'contact_ids') ? ((f.contact_ids as string[] | null) ?? []) : undefined;
    if (contacts && contacts.length > 1) throw unsupported('contact_ids', 'a Zendesk Sell deal has one primary contact', { max: 1 });
    const company = has(f, 'company_id') && f.company_id !== null ? sellId(f.company_id, 'company_id') : undefined;
    if (contacts?.[0]) {
      const person = await read(ctx, `${API}/contacts`, sellId(contacts[0], 'contact_ids'), 'contact');
      // Sell sets the deal's organization from its primary contact: a different company cannot be kept.
      if (company !== undefined && person.contact_id !== company) throw unsupported('company_id', 'a Zendesk Sell deal’s company is its primary contact’s organization; this contact belongs to another one');
      body.contact_id = person.id;
    } else if (company !== undefined) {
      body.contact_id = company;
    } else if (remoteId === null) {
      throw required('contact_ids', 'a Zendesk Sell deal needs a primary contact: give contact_ids or company_id');
    }
    if (remoteId === null && !body.name) throw required('name', 'Zendesk Sell requires a deal name');
    const deal = await write(ctx, `${API}/deals`, remoteId, body, 'deal');
    const orgs = await organizationsAmong(ctx, [deal], 'contact_id');
    return unifyDeal(deal, orgs.has(String(deal.contact_id)), ctx.ids);
  }

  async function attached(ctx: AdapterContext, o: SellObject, unify: (o: SellObject, orgs: Set<string>) => UnifiedRecord) {
    return unify(o, await organizationsAmong(ctx, [o], 'resource_id'));
  }

  async function writeNote(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.note', input.customFields);
    const note = await write(ctx, `${API}/notes`, remoteId, desunifyNote(fieldsOf(input), remoteId === null), 'note');
    return attached(ctx, note, (o, orgs) => unifyNote(o, orgs, ctx.ids));
  }

  async function writeTask(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.task', input.customFields);
    const task = await write(ctx, `${API}/tasks`, remoteId, desunifyTask(fieldsOf(input), remoteId === null), 'task');
    return attached(ctx, task, (o, orgs) => unifyTask(o, orgs, ctx.ids));
  }

  async function writeEngagement(ctx: AdapterContext, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    await customFieldsBody(defs, ctx, 'crm.engagement', input.customFields);
    const f = fieldsOf(input);
    const body = desunifyCall(f, remoteId === null);
    if (remoteId === null) {
      // Sell requires the number called: the contact's phone (or mobile).
      const contact = typeof body.resource_id === 'number' ? await read(ctx, `${API}/contacts`, body.resource_id, 'contact') : undefined;
      const phone = [contact?.phone, contact?.mobile].find((p): p is string => typeof p === 'string' && p.trim() !== '');
      if (!phone) throw required('contact_ids', 'a Zendesk Sell call needs the number called: give a contact that has a phone number');
      body.phone_number = phone;
    }
    const call = await write(ctx, `${API}/calls`, remoteId, body, 'call');
    return attached(ctx, call, (o, orgs) => unifyCall(o, orgs, ctx.ids));
  }

  return crmWritesByType({ id: 'zendesk-sell', name: 'Zendesk Sell' }, {
    'crm.contact': writeContact,
    'crm.company': writeCompany,
    'crm.deal': writeDeal,
    'crm.note': writeNote,
    'crm.task': writeTask,
    'crm.engagement': writeEngagement,
  });
}
