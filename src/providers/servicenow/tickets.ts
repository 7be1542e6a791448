/**
 * ServiceNow incident writes: create (then one Additional comment per `comment`), update (one PATCH), and
 * comments as journal entries written through the incident's `comments` or `work_notes` field, with files
 * uploaded to the incident through the Attachment API. ServiceNow answers the incident, not the journal entry:
 * the entry is then read from sys_journal_field. There is no bulk incident creation in the Table API, so
 * `createTickets` is left to the core (one create per element).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CommentWrite, FileUpload, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { currentUser, READ_PARAMS, tablePath, type ResolvedOptions } from './api';
import { JOURNAL_ELEMENTS, desunifyComment, unifyAttachment, unifyJournalEntry } from './comment.mapper';
import { desunifyIncident, unifyIncident } from './ticket.mapper';
import type { SnAttachment, SnIncident, SnJournalEntry } from './types';
import { PROVIDER, sysId } from './util';

const incidentPath = (id: string) => `${tablePath('incident')}/${id}`;

/** What was written already, said with a later failure (the write is not repeated). */
function partial(err: unknown, message: string, remoteId: string): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError(
    err instanceof AppError ? err.code : 'provider_error',
    `${message}: ${why}`,
    { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: remoteId },
    err instanceof AppError ? err.headers : {},
  );
}

async function journalOf(ctx: AdapterContext, incidentId: string, extra = '', limit?: number): Promise<SnJournalEntry[]> {
  const res = await ctx.http.get<{ result?: SnJournalEntry[] }>(tablePath('sys_journal_field'), {
    query: { ...READ_PARAMS, sysparm_query: `element_id=${incidentId}^elementIN${JOURNAL_ELEMENTS.join(',')}${extra}^ORDERBYDESCsys_created_on`, sysparm_limit: limit },
  });
  return Array.isArray(res.data?.result) ? res.data.result : [];
}

async function upload(ctx: AdapterContext, incidentId: string, file: FileUpload): Promise<SnAttachment> {
  const res = await ctx.http.post<{ result?: SnAttachment }>('/api/now/attachment/file', {
    query: { table_name: 'incident', table_sys_id: incidentId, file_name: file.fileName || 'file' },
    body: file.content,
    headers: { 'content-type': file.contentType || 'application/octet-stream' },
  });
  if (!res.data?.result?.sys_id) throw new AppError('provider_error', `ServiceNow accepted ${file.fileName} but did not describe it`, { provider: PROVIDER });
  return res.data.result;
}

export function servicenowTicketOperations(o: ResolvedOptions): TicketingOperations {
  /** Adds Additional comments one by one, then answers the incident's journal entries. */
  async function addComments(ctx: AdapterContext, id: string, comments: string[], after: string): Promise<UnifiedRecord[]> {
    if (!comments.length) return [];
    for (const [i, value] of comments.entries()) {
      try {
        await ctx.http.patch(incidentPath(id), { query: READ_PARAMS, json: { comments: value } });
      } catch (err) {
        throw partial(err, `ServiceNow incident ${id} was ${after}, but adding comment ${i + 1} of ${comments.length} failed`, id);
      }
    }
    const self = await currentUser(ctx, o);
    const users = new Map(self.user_name ? [[self.user_name, self.sys_id]] : []);
    return (await journalOf(ctx, id)).map((j) => unifyJournalEntry(j, ctx.ids, users));
  }

  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      const { body, comments } = desunifyIncident(input);
      const res = await ctx.http.post<{ result: SnIncident }>(tablePath('incident'), { query: READ_PARAMS, json: body });
      const incident = res.data.result;
      const related = await addComments(ctx, incident.sys_id, comments, 'created');
      return { record: unifyIncident(incident, ctx.ids), related };
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = sysId(remoteId, 'id');
      const { body, comments } = desunifyIncident(patch);
      let incident: SnIncident | undefined;
      if (Object.keys(body).length > 0) incident = (await ctx.http.patch<{ result: SnIncident }>(incidentPath(id), { query: READ_PARAMS, json: body, idempotent: true })).data.result;
      const related = await addComments(ctx, id, comments, 'updated');
      if (!incident || comments.length) incident = (await ctx.http.get<{ result: SnIncident }>(incidentPath(id), { query: READ_PARAMS })).data.result;
      return { record: unifyIncident(incident, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const id = sysId(input.ticket_id, 'ticket_id');
      desunifyComment(input, undefined); // refuse what ServiceNow cannot take before any call
      const self = await currentUser(ctx, o);
      const { element, value } = desunifyComment(input, self.sys_id);
      await ctx.http.patch(incidentPath(id), { query: { ...READ_PARAMS, sysparm_fields: 'sys_id' }, json: { [element]: value } });
      const users = new Map(self.user_name ? [[self.user_name, self.sys_id]] : []);
      let entry: SnJournalEntry | undefined;
      try {
        entry = (await journalOf(ctx, id, `^element=${element}^sys_created_by=${self.user_name ?? ''}`, 1))[0];
      } catch (err) {
        throw partial(err, `the ServiceNow ${element === 'comments' ? 'comment' : 'work note'} was added to incident ${id}, but reading it back failed`, id);
      }
      if (!entry) throw new AppError('provider_error', `ServiceNow accepted the ${element} entry on incident ${id} but does not list it`, { provider: PROVIDER, remote_id: id });
      const attachments: UnifiedRecord[] = [];
      for (const [i, file] of (input.files ?? []).entries()) {
        try {
          attachments.push(unifyAttachment(await upload(ctx, id, file), ctx.ids, users, entry.sys_id));
        } catch (err) {
          throw partial(err, `the comment was added to ServiceNow incident ${id}, but uploading file ${i + 1} of ${input.files.length} failed`, id);
        }
      }
      const comment = unifyJournalEntry(entry, ctx.ids, users, attachments.map((a) => ctx.ids('ticketing.attachment', a.remoteId)!));
      return { record: comment, related: attachments };
    },
  };
}
