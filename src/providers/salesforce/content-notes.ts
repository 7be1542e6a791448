/**
 * Enhanced notes (ContentNote, the notes of Lightning Experience): Salesforce Files of type SNOTE. A note is a
 * ContentDocument whose latest ContentVersion holds the body (`VersionData`, HTML), shared with the records it
 * belongs to through ContentDocumentLink. Read: the ContentDocuments of type SNOTE (SystemModstamp order, like
 * every stream), their links (the Account, Contact or Opportunity is the parent), and each latest version's bytes
 * (sObject Blob Get). Written as ContentVersion: a new one with `PathOnClient` `*.snote` and
 * `FirstPublishLocationId` the parent makes the note and its link; an edit is the document's next version.
 * Classic `Note` stays for orgs without enhanced notes: see `usesContentNotes`.
 * https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_contentnote.htm
 */
import type { IdOf } from '../../core/unified/ids';
import { ProviderError } from '../http-client';
import type { AdapterContext, CrmWrite, UnifiedRecord } from '../types';
import { API, chunks, inList, isOf, required, sfId, soqlAll, toDate, unsupported, type Describes, type ResolvedOptions, type SfRecord } from './api';
import { escapeHtml, has, nonEmpty } from '../kit';

/** The ContentDocument fields a note is read from. */
export const NOTE_DOCUMENT_FIELDS = ['Title', 'OwnerId', 'FileType', 'LatestPublishedVersionId', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'] as const;
/** The documents that are notes (every enhanced note has the file type SNOTE). */
export const NOTE_DOCUMENTS = "FileType = 'SNOTE'";

/**
 * Whether the org takes enhanced notes. ContentNote exists only where Notes are enabled ("Notes must be enabled",
 * ContentNote object reference): its describe answers 404 elsewhere, and those orgs get classic Notes.
 */
export function usesContentNotes(ctx: AdapterContext, describes: Describes): Promise<boolean> {
  return describes.has(ctx, 'ContentNote');
}

const PARENTS = ['Account', 'Contact', 'Opportunity'] as const;

/** Notes (ContentDocuments of type SNOTE) unified with their parent and body: one link query per 200, one body read per live note. */
export async function unifyContentNotes(ctx: AdapterContext, o: ResolvedOptions, docs: SfRecord[]): Promise<UnifiedRecord[]> {
  const live = docs.filter((d) => d.IsDeleted !== true);
  const parentOf = new Map<string, string>();
  for (const part of chunks(live.map((d) => d.Id), 200)) {
    // ContentDocumentLink is queried only filtered by ContentDocumentId or LinkedEntityId (object reference).
    for (const l of await soqlAll(ctx, `SELECT Id, ContentDocumentId, LinkedEntityId FROM ContentDocumentLink WHERE ContentDocumentId IN (${inList(part)})`, { batchSize: o.batchSize })) {
      const doc = String(l.ContentDocumentId);
      if (!parentOf.has(doc) && PARENTS.some((t) => isOf(l.LinkedEntityId, t))) parentOf.set(doc, String(l.LinkedEntityId));
    }
  }
  const bodies = new Map<string, string>();
  for (const d of live) {
    if (typeof d.LatestPublishedVersionId !== 'string') continue;
    const res = await ctx.http.get<unknown>(`${API}/sobjects/ContentVersion/${d.LatestPublishedVersionId}/VersionData`, { headers: { accept: '*/*' } });
    bodies.set(d.Id, typeof res.data === 'string' ? res.data : res.data === undefined ? '' : JSON.stringify(res.data));
  }
  return docs.map((d) => unifyContentNote(d, parentOf.get(d.Id) ?? null, bodies.get(d.Id) ?? null, ctx.ids));
}

export function unifyContentNote(d: SfRecord, parent: string | null, body: string | null, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.note',
    remoteId: d.Id,
    data: {
      content: nonEmpty(body) ?? nonEmpty(d.Title),
      user_id: ids('crm.user', nonEmpty(d.OwnerId)),
      company_id: isOf(parent, 'Account') ? ids('crm.company', parent) : null,
      contact_id: isOf(parent, 'Contact') ? ids('crm.contact', parent) : null,
      deal_id: isOf(parent, 'Opportunity') ? ids('crm.deal', parent) : null,
    },
    remoteData: { ...d, LinkedEntityId: parent },
    remoteCreatedAt: toDate(d.CreatedDate),
    remoteUpdatedAt: toDate(d.LastModifiedDate ?? d.SystemModstamp),
    ...(d.IsDeleted === true ? { deleted: true } : {}),
  };
}

/**
 * The note's body as ContentNote content: HTML as given; plain text escaped ("special characters within plain
 * text in the Content field must be escaped", ContentNote object reference), one paragraph a line.
 */
export function noteHtml(content: string): string {
  if (/<[a-z][^>]*>/i.test(content)) return content;
  return content
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

/** A unified note write → the ContentVersion to insert (a new note, or the next version of `documentId`). */
export function desunifyContentNote(input: CrmWrite, documentId: string | null): Record<string, unknown> {
  const create = documentId === null;
  if (has(input, 'user_id')) throw unsupported('user_id', 'an enhanced Salesforce note (ContentNote) belongs to the user who writes it');
  const parents = (['deal_id', 'contact_id', 'company_id'] as const).filter((f) => has(input, f) && input[f] !== null);
  if (parents.length > 1) throw unsupported(parents[1]!, 'a Salesforce note is linked to one of deal_id, contact_id, company_id; give one');
  if (parents[0] && !create) throw unsupported(parents[0], 'a Salesforce note cannot move to another record');
  if (create && !parents[0]) throw required('company_id', 'a Salesforce note belongs to a record: give deal_id, contact_id or company_id');
  if (!has(input, 'content')) {
    if (create) throw required('content', 'a Salesforce note needs content');
    return {};
  }
  const content = String(input.content);
  const title = (content.replace(/<[^>]*>/g, ' ').split('\n')[0]!.trim() || 'Note').slice(0, 255);
  return {
    Title: title,
    PathOnClient: 'note.snote',
    VersionData: Buffer.from(noteHtml(content), 'utf8').toString('base64'),
    ...(create ? { FirstPublishLocationId: sfId(input[parents[0]!], parents[0]!) } : { ContentDocumentId: documentId }),
  };
}

/** Creates or edits an enhanced note, then reads it back as a unified note. */
export async function writeContentNote(ctx: AdapterContext, o: ResolvedOptions, describes: Describes, documentId: string | null, input: CrmWrite): Promise<UnifiedRecord> {
  const version = desunifyContentNote(input, documentId);
  let id = documentId;
  if (Object.keys(version).length > 0) {
    const res = await ctx.http.post<{ id?: string }>(`${API}/sobjects/ContentVersion`, { json: version });
    if (id === null) {
      const [v] = await soqlAll(ctx, `SELECT Id, ContentDocumentId FROM ContentVersion WHERE Id = '${sfId(res.data?.id, 'id')}'`, { batchSize: o.batchSize });
      id = sfId(v?.ContentDocumentId, 'id');
    }
  }
  const fields = await describes.select(ctx, 'ContentDocument', NOTE_DOCUMENT_FIELDS);
  const docs = await soqlAll(ctx, `SELECT ${fields.join(', ')} FROM ContentDocument WHERE Id = '${sfId(id, 'id')}'`, { batchSize: o.batchSize });
  if (!docs[0]) throw new ProviderError('salesforce', 404, `the note ${id} could not be read back`, null);
  return (await unifyContentNotes(ctx, o, docs))[0]!;
}
