import pLimit from 'p-limit';
import { AppError, notFound } from './errors';
import { isUuid, type AccessContext } from './access';
import { resolveReferences, type ReferenceField } from './unified/references';
import { toRows } from './unified/records';
import { unifiedView } from './unified/view';
import { ticketInput, type CommentInput, type TicketInput, type TicketPatch } from './unified/ticketing';
import type { FileFetcher } from './file-fetch';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo } from '../store/control-plane.repo';
import type { PageRequest } from '../store/pagination';
import type { UnifiedListFilter, UnifiedRepo, UnifiedRow, UploadRow } from '../store/unified.repo';
import type { AdapterContext, CommentWrite, FileUpload, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../providers/types';

export type View = Record<string, unknown>;

/** Per element of a batch: the created object, or its error. */
export type BatchItem = { ok: true; view: View } | { ok: false; error: AppError };

const asArray = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** Unified ticketing: writes go to the provider first, then to the store; reads come from the store. */
export class TicketingService {
  constructor(
    private readonly repo: UnifiedRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly contexts: ProviderContexts,
    private readonly files: FileFetcher,
  ) {}

  async createTicket(connection: ConnectionRow, input: TicketInput, opts: { remoteData: boolean }): Promise<View> {
    const { ops, ctx } = this.operations(connection);
    const write = await this.ticketWrite(connection, input, '');
    const result = await ops.createTicket(ctx, write);
    return this.save(connection, result, opts);
  }

  /** Up to 100 tickets; each element validated and created on its own (the provider's bulk API where it has one). */
  async createTickets(connection: ConnectionRow, items: unknown[], opts: { remoteData: boolean }): Promise<BatchItem[]> {
    const { ops, ctx } = this.operations(connection);
    const results: BatchItem[] = new Array(items.length);
    const prepared: { index: number; write: TicketWrite }[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = ticketInput.safeParse(item);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: [`[${index}]`, ...i.path].join('.'), message: i.message }));
        results[index] = { ok: false, error: new AppError('validation_failed', `${issues[0]?.path}: ${issues[0]?.message}`, { issues }) };
        continue;
      }
      try {
        prepared.push({ index, write: await this.ticketWrite(connection, parsed.data, `[${index}].`) });
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
    for (const [i, outcome] of outcomes.entries()) {
      const { index } = prepared[i]!;
      results[index] = outcome.ok ? { ok: true, view: await this.save(connection, outcome.result, opts) } : { ok: false, error: asAppError(outcome.error) };
    }
    return results;
  }

  /** PATCH by id: the connection is found from the ticket, inside the caller's project. */
  async updateTicket(access: AccessContext, id: string, patch: TicketPatch, connectionToken: ConnectionRow | undefined): Promise<View> {
    if (patch.id !== undefined && patch.id !== id) throw new AppError('validation_failed', 'body id does not match the addressed ticket', { field: 'id' });
    const { row, connection } = await this.findWithConnection(access, 'ticketing.ticket', id, connectionToken);
    const { ops, ctx } = this.operations(connection);
    const { id: _ignored, ...fields } = patch;
    const write = await this.ticketWrite(connection, fields, '');
    const result = await ops.updateTicket(ctx, row.remoteId, write);
    return this.save(connection, result, { remoteData: false });
  }

  async createComment(connection: ConnectionRow, input: CommentInput, opts: { remoteData: boolean }): Promise<View> {
    const { ops, ctx } = this.operations(connection);
    if (input.body === undefined && input.html_body === undefined) {
      throw new AppError('validation_failed', 'body or html_body is required', { field: 'body' });
    }
    this.rejectUnmappedFields(input.field_mappings);
    const refs = await resolveReferences(this.repo, connection.id, [
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
    };
    const result = await ops.createComment(ctx, write);
    return this.save(connection, result, opts);
  }

  async list(connection: ConnectionRow, objectType: string, page: PageRequest, filter: UnifiedListFilter, opts: { remoteData: boolean }) {
    const result = await this.repo.list(connection.id, objectType, page, filter);
    return { ...result, items: await this.views(connection.id, result.items, opts) };
  }

  async get(access: AccessContext, objectType: string, id: string, token: ConnectionRow | undefined, opts: { remoteData: boolean }): Promise<View> {
    const { row } = await this.findWithConnection(access, objectType, id, token);
    return (await this.views(row.connectionId, [row], opts))[0]!;
  }

  /** A ticket id filter on comments must be a ticket of the connection; it becomes the parent filter. */
  parentFilter(connection: ConnectionRow, ticketId: string | undefined): string | undefined {
    if (ticketId === undefined) return undefined;
    if (!isUuid(ticketId)) throw new AppError('validation_failed', 'ticket_id must be an Omniport ticket id', { field: 'ticket_id' });
    return ticketId;
  }

  async createUpload(connection: ConnectionRow, input: { file_name: string; file_url?: string; content?: string; content_type?: string }): Promise<UploadRow> {
    return this.repo.insertUpload({
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
    if (!adapter.ticketing) throw new AppError('unsupported_by_provider', `${connection.provider} is not a ticketing provider`);
    return { ops: adapter.ticketing, ctx };
  }

  private async findWithConnection(access: AccessContext, objectType: string, id: string, token: ConnectionRow | undefined) {
    const row = isUuid(id) ? await this.repo.findInProject(access.projectId, objectType, id) : undefined;
    // A connection token, if sent, must be the object's connection; otherwise the object is unknown there.
    if (!row || (token && token.id !== row.connectionId)) throw notFound(objectType.split('.')[1]!);
    const connection = await this.controlPlane.findConnection(access.projectId, row.connectionId);
    if (!connection) throw notFound(objectType.split('.')[1]!);
    return { row, connection };
  }

  private async ticketWrite(connection: ConnectionRow, input: Omit<TicketInput, 'comment'> & { comment?: string | string[] }, prefix: string): Promise<TicketWrite> {
    this.rejectUnmappedFields(input.field_mappings);
    const fields: ReferenceField[] = [
      ...optionalRef(`${prefix}parent_ticket`, 'ticketing.ticket', input.parent_ticket),
      ...optionalRef(`${prefix}project_id`, 'ticketing.collection', input.project_id),
      ...optionalRef(`${prefix}account_id`, 'ticketing.account', input.account_id),
      ...optionalRef(`${prefix}contact_id`, 'ticketing.contact', input.contact_id),
      ...(input.assigned_to ? [{ field: `${prefix}assigned_to`, objectType: 'ticketing.user', ids: input.assigned_to }] : []),
    ];
    const refs = await resolveReferences(this.repo, connection.id, fields);
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
    };
  }

  /** Field mapping values need a mapping for the project; none is defined yet for this connection. */
  private rejectUnmappedFields(values: Record<string, unknown> | undefined) {
    const names = Object.keys(values ?? {});
    if (names.length > 0) {
      throw new AppError('unprocessable', `field_mappings.${names[0]}: no field mapping with this name for this connection`, {
        field: `field_mappings.${names[0]}`,
      });
    }
  }

  private async resolveFiles(connection: ConnectionRow, refs: string[]): Promise<FileUpload[]> {
    const uploads = new Map((await this.repo.findUploads(connection.id, refs.filter(isUuid))).map((u) => [u.id, u]));
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

  /** Read-after-write: the provider's answer is stored before it is returned. */
  private async save(connection: ConnectionRow, result: WriteResult, opts: { remoteData: boolean }): Promise<View> {
    const records: UnifiedRecord[] = [result.record, ...(result.related ?? [])];
    const rows = toRows(connection, records, null);
    await this.repo.upsert(rows);
    const main = rows[0]!;
    const view = unifiedView(main, opts);
    if (main.objectType === 'ticketing.comment') view.attachments = rows.slice(1).filter((r) => r.objectType === 'ticketing.attachment').map((r) => unifiedView(r, opts));
    return view;
  }

  /** Views of a page; comments get their attachment objects in one extra query. */
  private async views(connectionId: string, rows: UnifiedRow[], opts: { remoteData: boolean }): Promise<View[]> {
    const attachmentIds = rows.flatMap((r) => (r.objectType === 'ticketing.comment' ? ((r.data.attachments as string[] | undefined) ?? []) : []));
    const attachments = new Map((await this.repo.findMany(connectionId, attachmentIds)).map((a) => [a.id, a]));
    return rows.map((row) => {
      const view = unifiedView(row, opts);
      if (row.objectType === 'ticketing.comment') {
        view.attachments = ((row.data.attachments as string[] | undefined) ?? []).flatMap((id) => {
          const a = attachments.get(id);
          return a ? [unifiedView(a, opts)] : [];
        });
      }
      return view;
    });
  }
}

function optionalRef(field: string, objectType: string, id: string | undefined): ReferenceField[] {
  return id === undefined ? [] : [{ field, objectType, ids: [id] }];
}

function asAppError(err: unknown): AppError {
  return err instanceof AppError ? err : new AppError('internal_error', 'internal error');
}
