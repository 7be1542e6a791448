/**
 * Unified CRM writes on Salesforce. One object: one Composite request holding `POST /sobjects/{Type}` (or
 * `PATCH …/{id}`) and the SOQL query that reads the record back; a deal with contacts: the write, its
 * OpportunityContactRole changes, then the read-back. Batches: sObject Collections (`POST
 * /composite/sobjects`, up to 200 records, `allOrNone: false`, one result per record in order), then one
 * query per sObject type. Deal contacts are OpportunityContactRole records, written after the deal.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext, BulkItemResult, CrmOperations, CrmWrite, UnifiedRecord } from '../types';
import { crmWritesByType } from '../crm-writers';
import { API, chunks, inList, isOf, sfId, soqlAll, unsupported, type Describes, type ResolvedOptions, type SfRecord } from './api';
import { customFieldsBody } from './custom-fields';
import { usesContentNotes, writeContentNote } from './content-notes';
import { salesforceErrorMessage } from './http';
import {
  FIELDS,
  desunifyAccount,
  desunifyContact,
  desunifyEngagement,
  desunifyNote,
  desunifyOpportunity,
  desunifyTask,
  engagementSObject,
  unifyAccount,
  unifyContact,
  unifyEngagement,
  unifyNote,
  unifyTask,
} from './mappers';
import { unifyOpportunities } from './sync';
import { groupBy, has, prepareEach } from '../kit';

type SObject = 'Contact' | 'Account' | 'Opportunity' | 'Note' | 'Task' | 'Event';

/** A record ready to send: its sObject, its fields, and the deal's contacts to link after it. */
interface Prepared {
  sobject: SObject;
  body: Record<string, unknown>;
  contactIds?: string[];
}

interface SaveResult {
  id?: string;
  success?: boolean;
  errors?: { statusCode?: string; message?: string; fields?: string[] }[];
}

function saveError(r: SaveResult | undefined): ProviderError {
  const e = r?.errors?.[0];
  const message = e ? `${e.statusCode ?? 'ERROR'}: ${e.message ?? ''}${e.fields?.length ? ` (${e.fields.join(', ')})` : ''}` : 'no result for this record';
  return new ProviderError('salesforce', 400, message, r?.errors ?? null);
}

export function salesforceCrmOperations(o: ResolvedOptions, describes: Describes): CrmOperations {
  const fieldsOf = (input: CrmWrite): CrmWrite => {
    const { customFields: _ignored, ...fields } = input;
    return fields;
  };

  /** The sObject fields of a unified write (custom fields included); `remoteId` null for a create. */
  async function prepare(ctx: AdapterContext, objectType: string, remoteId: string | null, input: CrmWrite): Promise<Prepared> {
    const create = remoteId === null;
    const f = fieldsOf(input);
    const custom = () => customFieldsBody(describes, ctx, objectType, input.customFields);
    switch (objectType) {
      case 'crm.contact':
        return { sobject: 'Contact', body: { ...desunifyContact(f, create), ...(await custom()) } };
      case 'crm.company':
        return { sobject: 'Account', body: { ...desunifyAccount(f, create), ...(await custom()) } };
      case 'crm.deal': {
        const multiCurrency = !has(f, 'currency') || (await describes.fields(ctx, 'Opportunity')).has('CurrencyIsoCode');
        const contactIds = has(f, 'contact_ids') ? (f.contact_ids as string[]).map((id) => sfId(id, 'contact_ids')) : undefined;
        return { sobject: 'Opportunity', body: { ...desunifyOpportunity(f, create, multiCurrency), ...(await custom()) }, contactIds };
      }
      case 'crm.note':
        await custom();
        return { sobject: 'Note', body: desunifyNote(f, create) };
      case 'crm.task':
        await custom();
        return { sobject: 'Task', body: desunifyTask(f, create) };
      case 'crm.engagement': {
        await custom();
        const sobject = create ? engagementSObject(f.type) : isOf(remoteId, 'Event') ? 'Event' : 'Task';
        let current: { start: string | null } | null = null;
        if (!create) {
          const needsStart = sobject === 'Task' && has(f, 'end_time') && !has(f, 'start_at');
          const record = needsStart ? (await readBack(ctx, 'Task', [remoteId])).get(remoteId) : undefined;
          current = { start: typeof record?.ActivityDate === 'string' ? `${record.ActivityDate}T00:00:00.000Z` : null };
        }
        return { sobject, body: desunifyEngagement(f, sobject, current) };
      }
      default:
        throw unsupported('object', `Salesforce cannot write ${objectType}`);
    }
  }

  /** Records by id, with the fields the syncers read: one query per 200. */
  async function readBack(ctx: AdapterContext, sobject: SObject, ids: string[]): Promise<Map<string, SfRecord>> {
    const fields = await describes.select(ctx, sobject, FIELDS[sobject]);
    const out = new Map<string, SfRecord>();
    for (const part of chunks(ids, 200)) {
      for (const r of await soqlAll(ctx, `SELECT ${fields.join(', ')} FROM ${sobject} WHERE Id IN (${inList(part)})`, { batchSize: o.batchSize })) out.set(r.Id, r);
    }
    return out;
  }

  async function unify(ctx: AdapterContext, objectType: string, records: SfRecord[]): Promise<UnifiedRecord[]> {
    switch (objectType) {
      case 'crm.contact':
        return records.map((r) => unifyContact(r, ctx.ids));
      case 'crm.company':
        return records.map((r) => unifyAccount(r, ctx.ids));
      case 'crm.deal':
        return unifyOpportunities(ctx, o, records);
      case 'crm.note':
        return records.map((r) => unifyNote(r, ctx.ids));
      case 'crm.task':
        return records.map((r) => unifyTask(r, ctx.ids));
      default:
        return records.map((r) => unifyEngagement(r, ctx.ids));
    }
  }

  /** sObject Collections create: one SaveResult per record, in order. */
  async function createRecords(ctx: AdapterContext, records: { sobject: string; body: Record<string, unknown> }[]): Promise<SaveResult[]> {
    const out: SaveResult[] = [];
    for (const part of chunks(records, 200)) {
      const res = await ctx.http.post<SaveResult[]>(`${API}/composite/sobjects`, {
        json: { allOrNone: false, records: part.map((r) => ({ attributes: { type: r.sobject }, ...r.body })) },
      });
      const results = Array.isArray(res.data) ? res.data : [];
      part.forEach((_, i) => out.push(results[i] ?? {}));
    }
    return out;
  }

  /** Makes the deal's contact roles exactly `contactIds`: deletes the others, adds the missing ones. */
  async function setContactRoles(ctx: AdapterContext, links: { opportunityId: string; contactIds: string[]; fresh: boolean }[]): Promise<void> {
    const current = new Map<string, SfRecord[]>();
    const existing = links.filter((l) => !l.fresh).map((l) => l.opportunityId);
    if (existing.length) {
      for (const r of await soqlAll(ctx, `SELECT Id, OpportunityId, ContactId FROM OpportunityContactRole WHERE OpportunityId IN (${inList(existing)})`, { batchSize: o.batchSize })) {
        current.set(String(r.OpportunityId), [...(current.get(String(r.OpportunityId)) ?? []), r]);
      }
    }
    const remove: string[] = [];
    const add: { sobject: string; body: Record<string, unknown> }[] = [];
    for (const l of links) {
      const now = current.get(l.opportunityId) ?? [];
      remove.push(...now.filter((r) => !l.contactIds.includes(String(r.ContactId))).map((r) => r.Id));
      const linked = new Set(now.map((r) => String(r.ContactId)));
      for (const [i, c] of [...new Set(l.contactIds)].entries()) {
        if (!linked.has(c)) add.push({ sobject: 'OpportunityContactRole', body: { OpportunityId: l.opportunityId, ContactId: c, ...(i === 0 && now.length === 0 ? { IsPrimary: true } : {}) } });
      }
    }
    for (const part of chunks(remove, 200)) await ctx.http.delete(`${API}/composite/sobjects`, { query: { ids: part.join(','), allOrNone: false } });
    const failed = (await createRecords(ctx, add)).find((r) => r.success !== true);
    if (failed) throw saveError(failed);
  }

  /**
   * A write and its read-back in one Composite request (one API request in the org's daily count): the
   * create's id reaches the query as `@{write.id}`. Answers the record read back.
   */
  async function compositeWrite(ctx: AdapterContext, p: Prepared, remoteId: string | null): Promise<SfRecord> {
    const fields = await describes.select(ctx, p.sobject, FIELDS[p.sobject]);
    const idRef = remoteId === null ? '@{write.id}' : remoteId;
    const query = `${API}/query?q=${encodeURIComponent(`SELECT ${fields.join(', ')} FROM ${p.sobject} WHERE Id = '`)}${idRef}${encodeURIComponent("'")}`;
    const write =
      remoteId === null
        ? { method: 'POST', url: `${API}/sobjects/${p.sobject}`, referenceId: 'write', body: p.body }
        : { method: 'PATCH', url: `${API}/sobjects/${p.sobject}/${remoteId}`, referenceId: 'write', body: p.body };
    const res = await ctx.http.post<{ compositeResponse?: { body?: unknown; httpStatusCode?: number }[] }>(`${API}/composite`, {
      json: { allOrNone: false, compositeRequest: [write, { method: 'GET', url: query, referenceId: 'read' }] },
    });
    const [wrote, read] = res.data?.compositeResponse ?? [];
    if (!wrote || (wrote.httpStatusCode ?? 500) >= 300) {
      const status = wrote?.httpStatusCode ?? 502;
      throw new ProviderError('salesforce', status, salesforceErrorMessage(wrote?.body), wrote?.body ?? null);
    }
    const record = (read?.body as { records?: SfRecord[] } | undefined)?.records?.[0];
    if (!record) throw new ProviderError('salesforce', read?.httpStatusCode ?? 404, `the ${p.sobject} could not be read back`, read?.body ?? null);
    return record;
  }

  /** An enhanced note (ContentNote) is written where the org has them, or is edited; classic Notes otherwise. */
  async function contentNote(ctx: AdapterContext, objectType: string, remoteId: string | null): Promise<boolean> {
    if (objectType !== 'crm.note') return false;
    return remoteId === null ? usesContentNotes(ctx, describes) : isOf(remoteId, 'ContentDocument');
  }

  async function writeOne(ctx: AdapterContext, objectType: string, remoteId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
    if (await contentNote(ctx, objectType, remoteId)) {
      await customFieldsBody(describes, ctx, objectType, input.customFields);
      return writeContentNote(ctx, o, describes, remoteId === null ? null : sfId(remoteId, 'id'), fieldsOf(input));
    }
    const p = await prepare(ctx, objectType, remoteId, input);
    if (!p.contactIds && Object.keys(p.body).length > 0) {
      return (await unify(ctx, objectType, [await compositeWrite(ctx, p, remoteId === null ? null : sfId(remoteId, 'id'))]))[0]!;
    }
    // Deal contacts need the deal's id and its current roles: the write, the roles, then the read-back.
    let id: string;
    if (remoteId === null) {
      const res = await ctx.http.post<SaveResult>(`${API}/sobjects/${p.sobject}`, { json: p.body });
      if (!res.data?.id) throw saveError(res.data);
      id = res.data.id;
    } else {
      id = sfId(remoteId, 'id');
      if (Object.keys(p.body).length > 0) await ctx.http.patch(`${API}/sobjects/${p.sobject}/${id}`, { json: p.body });
    }
    if (p.contactIds) await setContactRoles(ctx, [{ opportunityId: id, contactIds: p.contactIds, fresh: remoteId === null }]);
    const record = (await readBack(ctx, p.sobject, [id])).get(id);
    if (!record) throw new ProviderError('salesforce', 404, `the ${p.sobject} ${id} could not be read back`, null);
    return (await unify(ctx, objectType, [record]))[0]!;
  }

  const writer = (objectType: string) => (ctx: AdapterContext, remoteId: string | null, input: CrmWrite) => writeOne(ctx, objectType, remoteId, input);
  const types = ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'];

  return {
    ...crmWritesByType({ id: 'salesforce', name: 'Salesforce' }, Object.fromEntries(types.map((t) => [t, writer(t)]))),

    async createMany(ctx, objectType, inputs): Promise<BulkItemResult[]> {
      if (await contentNote(ctx, objectType, null)) {
        // A note and its link are made by one ContentVersion insert each: one after the other.
        const out: BulkItemResult[] = [];
        for (const input of inputs) out.push(await writeOne(ctx, objectType, null, input).then((record) => ({ ok: true as const, result: { record } }), (error: Error) => ({ ok: false as const, error })));
        return out;
      }
      const { results, ready } = await prepareEach(inputs, (input) => prepare(ctx, objectType, null, input));
      const saved = await createRecords(ctx, ready.map((r) => r.p));
      const created: { index: number; id: string; p: Prepared }[] = [];
      ready.forEach((r, i) => {
        const s = saved[i];
        if (s?.success === true && s.id) created.push({ index: r.index, id: s.id, p: r.p });
        else results[r.index] = { ok: false, error: saveError(s) };
      });
      const links = created.filter((c) => c.p.contactIds?.length).map((c) => ({ opportunityId: c.id, contactIds: c.p.contactIds!, fresh: true }));
      if (links.length) await setContactRoles(ctx, links);
      const records = new Map<string, SfRecord>();
      for (const [sobject, list] of groupBy(created, (c) => c.p.sobject)) for (const [id, r] of await readBack(ctx, sobject, list.map((c) => c.id))) records.set(id, r);
      const unified = new Map((await unify(ctx, objectType, [...records.values()])).map((u) => [u.remoteId, u]));
      for (const c of created) {
        const record = unified.get(c.id);
        results[c.index] = record ? { ok: true, result: { record } } : { ok: false, error: new ProviderError('salesforce', 404, `the ${c.p.sobject} ${c.id} could not be read back`, null) };
      }
      return results;
    },
  };
}
