import pLimit from 'p-limit';
import { AppError } from './errors';
import { isUuid, type AccessContext } from './access';
import { loadReferences, resolveReferences, type ReferenceField } from './unified/references';
import { asAppError, notOfVertical, type BatchItem, type UnifiedObjects, type View } from './unified/objects';
import { ticketInput, type CommentInput, type TicketInput, type TicketPatch } from './unified/ticketing';
import type { FileFetcher } from './file-fetch';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { ListedRow, UploadRow } from '../store/unified.repo';
import type { ResolvedMapping } from '../store/field-mapping.repo';
import type { AdapterContext, CommentWrite, FileUpload, TicketingOperations, TicketWrite } from '../providers/types';


const asArray = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** Unified ticketing: writes go to the provider first, then to the store; reads come from the store. */
export class TicketingService {
  constructor(
    private readonly objects: UnifiedObjects,
    private readonly contexts: ProviderContexts,
    private readonly files: FileFetcher,
  ) {}

  async createTicket(connection: ConnectionRow, input: TicketInput, opts: { remoteData: boolean }): Promise<View> {
    const { ops, ctx } = this.operations(connection);
    const write = await this.ticketWrite(connection, input, '');
    const result = await ops.createTicket(ctx, write);
    return this.objects.save(connection, result, opts);
  }

  /** Up to 100 tickets; each element validated and created on its own (the provider's bulk API where it has one). */
  async createTickets(connection: ConnectionRow, items: unknown[], opts: { remoteData: boolean }): Promise<BatchItem[]> {
    const { ops, ctx } = this.operations(connection);
    const results: BatchItem[] = new Array(items.length);
    const valid: { index: number; data: TicketInput }[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = ticketInput.safeParse(item);
      if (parsed.success) {
        valid.push({ index, data: parsed.data });
        continue;
      }
      const issues = parsed.error.issues.map((i) => ({ path: [`[${index}]`, ...i.path].join('.'), message: i.message }));
      results[index] = { ok: false, error: new AppError('validation_failed', `${issues[0]?.path}: ${issues[0]?.message}`, { issues }) };
    }
    // References and field mappings of the whole batch: one query each.
    const preloaded = {
      refs: await loadReferences(this.objects.repo, connection.id, valid.flatMap((v) => ticketReferenceFields(v.data, ''))),
      mappings: await this.objects.mappingsOf(connection),
    };
    const prepared: { index: number; write: TicketWrite }[] = [];
    for (const { index, data } of valid) {
      try {
        prepared.push({ index, write: await this.ticketWrite(connection, data, `[${index}].`, preloaded) });
      } catch (err) {
        results[index] = { ok: false, error: asAppError(err) };
      }
    }
    const writes = prepared.map((p) => p.write);
    const limit = pLimit(4);
    const outcomes = ops.createTickets
      ? await ops.createTickets(ctx, writes)
      : await Promise.all(
          writes.map((w) =>
            limit(() => ops.createTicket(ctx, w).then((result) => ({ ok: true as const, result }), (error: Error) => ({ ok: false as const, error }))),
          ),
        );
    for (const [i, item] of (await this.objects.saveBulk(connection, outcomes, opts)).entries()) results[prepared[i]!.index] = item;
    return results;
  }

  /** PATCH by id: the connection is found from the ticket, inside the caller's project. */
  async updateTicket(access: AccessContext, id: string, patch: TicketPatch, connectionToken: ConnectionRow | undefined): Promise<View> {
    if (patch.id !== undefined && patch.id !== id) throw new AppError('validation_failed', 'body id does not match the addressed ticket', { field: 'id' });
    const { row, connection } = await this.objects.findWithConnection(access, 'ticketing.ticket', id, connectionToken);
    const { id: _ignored, ...fields } = patch;
    // A patch that changes nothing answers the ticket as stored, without calling the provider.
    if (Object.values(fields).every((v) => v === undefined)) return (await this.objects.views(connection, [row], { remoteData: false }))[0]!;
    const { ops, ctx } = this.operations(connection);
    const write = await this.ticketWrite(connection, fields, '');
    const result = await ops.updateTicket(ctx, row.remoteId, write);
    return this.objects.save(connection, result, { remoteData: false });
  }

  async createComment(connection: ConnectionRow, input: CommentInput, opts: { remoteData: boolean }): Promise<View> {
    const { ops, ctx } = this.operations(connection);
    if (input.body === undefined && input.html_body === undefined) {
      throw new AppError('validation_failed', 'body or html_body is required', { field: 'body' });
    }
    const customFields = await this.objects.customFields(connection, 'ticketing.comment', input.field_mappings, '');
    const refs = await resolveReferences(this.objects.repo, connection.id, [
      { field: 'ticket_id', objectType: 'ticketing.ticket', ids: [input.ticket_id] },
      ...optionalRef('contact_id', 'ticketing.contact', input.contact_id),
      ...optionalRef('user_id', 'ticketing.user', input.user_id),
    ]);
    const files = await this.resolveFiles(connection, input.attachments ?? []);
    const write: CommentWrite = {
      body: input.body,
      html_body: input.html_body,
      is_private: input.is_private,
      creator_type: input.creator_type,
      ticket_id: refs.get('ticket_id')![0]!,
      contact_id: refs.get('contact_id')?.[0],
      user_id: refs.get('user_id')?.[0],
      files,
      customFields,
    };
    const result = await ops.createComment(ctx, write);
    return this.objects.save(connection, result, opts);
  }

  async createUpload(connection: ConnectionRow, input: { file_name: string; file_url?: string; content?: string; content_type?: string; uploader?: string }): Promise<UploadRow> {
    if (input.uploader !== undefined) {
      await resolveReferences(this.objects.repo, connection.id, [{ field: 'uploader', objectType: 'ticketing.user', ids: [input.uploader] }]);
    }
    if (input.file_url !== undefined) await this.files.checkUrl(input.file_url, 'file_url');
    return this.objects.repo.insertUpload({
      projectId: connection.projectId,
      connectionId: connection.id,
      fileName: input.file_name,
      contentType: input.content_type ?? 'application/octet-stream',
      contentBase64: input.content ?? null,
      fileUrl: input.file_url ?? null,
    });
  }

  private operations(connection: ConnectionRow): { ops: TicketingOperations; ctx: AdapterContext } {
    const { adapter, ctx } = this.contexts.forConnection(connection);
    if (!adapter.ticketing) throw notOfVertical(connection.provider, 'ticketing');
    return { ops: adapter.ticketing, ctx };
  }

  private async ticketWrite(
    connection: ConnectionRow,
    input: Omit<TicketInput, 'comment'> & { comment?: string | string[] },
    prefix: string,
    preloaded?: { refs: Map<string, ListedRow>; mappings: ResolvedMapping[] },
  ): Promise<TicketWrite> {
    const customFields = await this.objects.customFields(connection, 'ticketing.ticket', input.field_mappings, prefix, preloaded?.mappings);
    const fields = ticketReferenceFields(input, prefix);
    const refs = await resolveReferences(this.objects.repo, connection.id, fields, preloaded?.refs);
    const one = (field: string) => refs.get(`${prefix}${field}`)?.[0];
    return {
      name: input.name,
      status: input.status,
      description: asArray(input.description),
      due_date: input.due_date,
      type: input.type,
      parent_ticket: one('parent_ticket'),
      project_id: one('project_id'),
      tags: input.tags,
      completed_at: input.completed_at,
      priority: input.priority,
      assigned_to: refs.get(`${prefix}assigned_to`),
      comment: asArray(input.comment),
      account_id: one('account_id'),
      contact_id: one('contact_id'),
      customFields,
    };
  }

  private async resolveFiles(connection: ConnectionRow, refs: string[]): Promise<FileUpload[]> {
    const uploads = new Map((await this.objects.repo.findUploads(connection.id, refs.filter(isUuid))).map((u) => [u.id, u]));
    return Promise.all(
      refs.map(async (ref, i) => {
        const field = `attachments[${i}]`;
        const upload = uploads.get(ref);
        if (upload) {
          if (upload.contentBase64 !== null) {
            return { fileName: upload.fileName, contentType: upload.contentType, content: Buffer.from(upload.contentBase64, 'base64') };
          }
          return this.files.fetch(upload.fileUrl!, field, upload.fileName);
        }
        if (isUuid(ref)) throw new AppError('unknown_reference', `${field}: no attachment with id ${JSON.stringify(ref)} in this connection`, { field });
        return this.files.fetch(ref, field);
      }),
    );
  }

}

/** The reference fields present in a ticket input, named with their prefix (`[3].assigned_to`). */
function ticketReferenceFields(input: Omit<TicketInput, 'comment'>, prefix: string): ReferenceField[] {
  return [
    ...optionalRef(`${prefix}parent_ticket`, 'ticketing.ticket', input.parent_ticket),
    ...optionalRef(`${prefix}project_id`, 'ticketing.collection', input.project_id),
    ...optionalRef(`${prefix}account_id`, 'ticketing.account', input.account_id),
    ...optionalRef(`${prefix}contact_id`, 'ticketing.contact', input.contact_id),
    ...(input.assigned_to ? [{ field: `${prefix}assigned_to`, objectType: 'ticketing.user', ids: input.assigned_to }] : []),
  ];
}

function optionalRef(field: string, objectType: string, id: string | undefined): ReferenceField[] {
  return id === undefined ? [] : [{ field, objectType, ids: [id] }];
}

