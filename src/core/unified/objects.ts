import { isDatabaseUnavailable } from '../../store/database';
import { AppError, notFound } from '../errors';
import { isUuid, type AccessContext } from '../access';
import { toRows } from './records';
import { unifiedView } from './view';
import type { ConnectionRow, ControlPlaneRepo } from '../../store/control-plane.repo';
import type { Page, PageRequest } from '../../store/pagination';
import type { ListedRow, StoreTimes, UnifiedInsert, UnifiedListFilter, UnifiedRepo } from '../../store/unified.repo';
import type { ResolvedMapping } from '../../store/field-mapping.repo';
import type { FieldMappingService } from '../field-mapping';
import type { LookupCache } from '../../store/lookup-cache';
import type { BulkItemResult, CustomFieldValue, WriteResult } from '../../providers/types';

export type View = Record<string, unknown>;

/** Object types whose views embed child objects (a comment's attachments): built in `views`, not by the database. */
const HAS_CHILDREN = new Set(['ticketing.comment']);

/** Per element of a batch: the created object, or its error. */
export type BatchItem = { ok: true; view: View } | { ok: false; error: AppError };

/**
 * What every vertical shares: reads from the store (one query per page, children batch-loaded),
 * lookups by id inside the caller's project, and read-after-write saving of provider answers.
 */
/**
 * A connection's token used on the other vertical's endpoints (a HubSpot token on /ticketing/…): the same
 * 422 on reads as on writes, instead of an empty list.
 */
export function notOfVertical(provider: string, vertical: 'ticketing' | 'crm'): AppError {
  return new AppError('unsupported_by_provider', `${provider} is not a ${vertical === 'crm' ? 'CRM' : 'ticketing'} provider`, { field: 'x-connection-token' });
}

export class UnifiedObjects {
  constructor(
    readonly repo: UnifiedRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly fieldMapping: FieldMappingService,
    private readonly cache: LookupCache,
  ) {}

  /**
   * A page of views. Most pages are plain stored views, read as the JSON text kept with each object (`json`);
   * views with `field_mappings` values, `remote_data` or child objects are built here (`views`).
   */
  async list(
    connection: ConnectionRow,
    objectType: string,
    page: PageRequest,
    filter: UnifiedListFilter,
    opts: { remoteData: boolean },
  ): Promise<Page<View> & { json?: undefined } | Page<string> & { json: true }> {
    const vertical = objectType.split('.')[0] as 'ticketing' | 'crm';
    if (connection.vertical !== vertical) throw notOfVertical(connection.provider, vertical);
    const mappings = await this.fieldMapping.mappingsOf(connection);
    // Mapped custom field values are read from remote_data: it is read only when asked for or mapped.
    const mapped = mappings.some((m) => m.objectTypeOwner === objectType);
    if (!opts.remoteData && !mapped && !HAS_CHILDREN.has(objectType)) {
      const presented = await this.repo.listPresented(connection.id, objectType, page, filter);
      return { ...presented, items: presented.items.map((r) => r.json), json: true };
    }
    const result = await this.repo.list(connection.id, objectType, page, filter, { remoteData: opts.remoteData || mapped });
    return { ...result, items: await this.views(connection, result.items, opts, mappings) };
  }

  /** A view by id (JSON text when it is a plain stored view, like `list`). */
  async get(access: AccessContext, objectType: string, id: string, token: ConnectionRow | undefined, opts: { remoteData: boolean }): Promise<{ json: string } | { view: View }> {
    if (!opts.remoteData && !HAS_CHILDREN.has(objectType) && isUuid(id)) {
      const found = await this.repo.findPresentedInProject(access.projectId, objectType, id);
      const connection = await this.connectionOfFound(access, objectType, found?.connectionId, token);
      const mappings = await this.fieldMapping.mappingsOf(connection);
      if (!mappings.some((m) => m.objectTypeOwner === objectType)) return { json: found!.json };
    }
    const { row, connection } = await this.findWithConnection(access, objectType, id, token);
    return { view: (await this.views(connection, [row], opts))[0]! };
  }

  /** An object by id and its connection, inside the caller's project; a token, if sent, must be that connection. */
  async findWithConnection(access: AccessContext, objectType: string, id: string, token: ConnectionRow | undefined) {
    const row = isUuid(id) ? await this.repo.findInProject(access.projectId, objectType, id) : undefined;
    return { row: row!, connection: await this.connectionOfFound(access, objectType, row?.connectionId, token) };
  }

  /**
   * The connection of an object found (or not: 404) in the caller's project. A token, if sent, must be that
   * connection; without one, the connection comes from the cache.
   */
  private async connectionOfFound(access: AccessContext, objectType: string, connectionId: string | undefined, token: ConnectionRow | undefined) {
    const label = objectType.split('.')[1]!;
    if (!connectionId || (token && token.id !== connectionId)) throw notFound(label);
    const connection = token ?? (await this.cache.connection(connectionId, () => this.controlPlane.findConnection(access.projectId, connectionId)));
    if (!connection || connection.projectId !== access.projectId) throw notFound(label);
    return connection;
  }

  /** Read-after-write: the provider's answer is stored before it is returned. */
  async save(connection: ConnectionRow, result: WriteResult, opts: { remoteData: boolean }): Promise<View> {
    const [item] = await this.saveBulk(connection, [{ ok: true, result }], opts);
    return (item as { ok: true; view: View }).view;
  }

  /**
   * Values of `field_mappings` in a write, as the provider's custom fields. Only mapped names are
   * accepted: an unmapped name is a 422 naming it (nothing is silently dropped).
   */
  customFields(
    connection: ConnectionRow,
    objectType: string,
    values: Record<string, unknown> | undefined,
    prefix: string,
    loaded?: ResolvedMapping[],
  ): Promise<CustomFieldValue[]> {
    return this.fieldMapping.toCustomFields(connection, objectType, values, prefix, loaded);
  }

  /** The connection's field mappings, loaded once for a whole batch. */
  mappingsOf(connection: ConnectionRow): Promise<ResolvedMapping[]> {
    return this.fieldMapping.mappingsOf(connection);
  }

  /** Saves the successes of a bulk write in one statement and pairs every input with its result, in order. */
  async saveBulk(connection: ConnectionRow, outcomes: BulkItemResult[], opts: { remoteData: boolean }): Promise<BatchItem[]> {
    const written = outcomes.flatMap((o) => (o.ok ? [o.result] : []));
    const stored = written.map((r) => toRows(connection, [r.record, ...(r.related ?? [])], null));
    const times = new Map<string, StoreTimes>();
    try {
      await this.repo.upsert(stored.flat(), { times });
    } catch (err) {
      if (!isDatabaseUnavailable(err) || written.length === 0) throw err;
      // Written at the provider, not stored: never answered as a failure the client may simply retry.
      throw new AppError('outcome_unknown', `the provider accepted the write, but Omniport's database was unavailable to store it; the next sync stores it`, {
        remote_ids: written.map((w) => w.record.remoteId),
      });
    }
    const mappings = written.length > 0 ? await this.fieldMapping.mappingsOf(connection) : [];
    let next = 0;
    return outcomes.map((outcome) => {
      if (!outcome.ok) return { ok: false as const, error: asAppError(outcome.error) };
      const rows = stored[next++]!.map((r) => ({ ...r, ...times.get(r.id)! }));
      const view = this.view(connection, mappings, rows[0]!, opts);
      if (rows[0]!.objectType === 'ticketing.comment') {
        view.attachments = rows.slice(1).filter((r) => r.objectType === 'ticketing.attachment').map((r) => this.view(connection, mappings, r, opts));
      }
      return { ok: true as const, view };
    });
  }

  /**
   * Views of a page: comments get their attachment objects in one extra query, and mapped custom
   * field values are read from the stored provider data (one query for the mappings).
   */
  async views(connection: ConnectionRow, rows: ListedRow[], opts: { remoteData: boolean }, loaded?: ResolvedMapping[]): Promise<View[]> {
    const attachmentIds = rows.flatMap((r) => (r.objectType === 'ticketing.comment' ? ((r.data.attachments as string[] | undefined) ?? []) : []));
    const mappings = loaded ?? (await this.fieldMapping.mappingsOf(connection));
    const attachmentRows = await this.repo.findMany(connection.id, attachmentIds, { remoteData: opts.remoteData || mappings.length > 0 });
    const attachments = new Map(attachmentRows.map((a) => [a.id, a]));
    return rows.map((row) => {
      const view = this.view(connection, mappings, row, opts);
      if (row.objectType === 'ticketing.comment') {
        view.attachments = ((row.data.attachments as string[] | undefined) ?? []).flatMap((id) => {
          const a = attachments.get(id);
          return a ? [this.view(connection, mappings, a, opts)] : [];
        });
      }
      return view;
    });
  }

  private view(connection: ConnectionRow, mappings: ResolvedMapping[], row: ListedRow | (UnifiedInsert & StoreTimes), opts: { remoteData: boolean }): View {
    const view = unifiedView(row, opts);
    view.field_mappings = this.fieldMapping.readValues(connection, mappings, row.objectType, row.remoteData);
    return view;
  }
}

export function asAppError(err: unknown): AppError {
  return err instanceof AppError ? err : new AppError('internal_error', 'internal error');
}
