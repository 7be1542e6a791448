import { AppError, notFound } from './errors';
import { isUuid, type AccessContext } from './access';
import type { LinkedUserService } from './linked-users';
import type { ProviderContexts } from './provider-context';
import { CRM_OBJECTS } from './unified/crm';
import { TICKETING_OBJECTS } from './unified/ticketing';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { AttributeRow, FieldMappingRepo, MappingRow, ResolvedMapping } from '../store/field-mapping.repo';
import type { PageRequest } from '../store/pagination';
import type { LookupCache } from '../store/lookup-cache';
import type { ProviderRegistry } from '../providers/registry';
import type { CustomFieldValue, RemoteField } from '../providers/types';

export const DATA_TYPES = ['string', 'number', 'boolean', 'date', 'json'] as const;
export type DataType = (typeof DATA_TYPES)[number];
export const OBJECT_TYPE_OWNERS = [...TICKETING_OBJECTS, ...CRM_OBJECTS] as const;

/**
 * Custom attributes of a project (define), mapped per linked user and provider to a provider's custom
 * field (map). Values are written on create/update and read back, typed, from the stored provider data,
 * so a new mapping applies to every stored object at once.
 */
export class FieldMappingService {
  constructor(
    private readonly repo: FieldMappingRepo,
    private readonly linkedUsers: LinkedUserService,
    private readonly providers: ProviderRegistry,
    private readonly contexts: ProviderContexts,
    private readonly cache: LookupCache,
  ) {}

  define(access: AccessContext, input: { object_type_owner: string; name: string; description?: string; data_type: DataType }): Promise<AttributeRow> {
    return this.repo.insertAttribute({
      projectId: access.projectId,
      objectTypeOwner: input.object_type_owner,
      name: input.name,
      description: input.description ?? null,
      dataType: input.data_type,
    });
  }

  async map(
    access: AccessContext,
    input: { attributeId: string; source_custom_field_id: string; source_provider: string; linked_user_id: string },
  ): Promise<{ mapping: MappingRow; attribute: AttributeRow }> {
    const attribute = isUuid(input.attributeId) ? await this.repo.findAttribute(access.projectId, input.attributeId) : undefined;
    if (!attribute) throw notFound('attribute', 'attributeId');
    const manifest = this.providers.get(input.source_provider);
    if (!manifest) throw notFound(`provider ${JSON.stringify(input.source_provider)}`, 'source_provider');
    if (manifest.vertical !== attribute.objectTypeOwner.split('.')[0]) {
      throw new AppError('unprocessable', `${manifest.name} is a ${manifest.vertical} provider; the attribute belongs to ${attribute.objectTypeOwner}`, {
        field: 'source_provider',
      });
    }
    const linkedUser = await this.linkedUsers.resolve(access, input.linked_user_id, 'linked_user_id');
    const mapping = await this.repo.insertMapping({
      projectId: access.projectId,
      attributeId: attribute.id,
      linkedUserId: linkedUser.id,
      provider: manifest.name,
      sourceCustomFieldId: input.source_custom_field_id,
    });
    this.cache.forget({ mappingsOfProject: access.projectId });
    return { mapping, attribute };
  }

  listAttributes(access: AccessContext, page: PageRequest, filter: { objectTypeOwner?: string }) {
    return this.repo.listAttributes(access.projectId, page, filter);
  }

  listMappings(access: AccessContext, page: PageRequest, filter: { attributeId?: string; linkedUserId?: string; provider?: string }) {
    return this.repo.listMappings(access.projectId, page, filter);
  }

  async deleteAttribute(access: AccessContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.deleteAttribute(access.projectId, id))) throw notFound('attribute');
    this.cache.forget({ mappingsOfProject: access.projectId });
  }

  async deleteMapping(access: AccessContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.deleteMapping(access.projectId, id))) throw notFound('mapping');
    this.cache.forget({ mappingsOfProject: access.projectId });
  }

  /** The provider's own custom fields, so a developer can choose what to map. */
  async remoteFields(connection: ConnectionRow, objectType?: string): Promise<RemoteField[]> {
    const { adapter, ctx } = this.contexts.forConnection(connection);
    if (!adapter.customFields) {
      throw new AppError('unsupported_by_provider', `${connection.provider} has no custom fields Omniport can map`);
    }
    const types = objectType ? [objectType] : Object.keys(adapter.manifest.capabilities);
    const lists = await Promise.all(types.filter((t) => adapter.customFields!.objectTypes.includes(t)).map((t) => adapter.customFields!.list(ctx, t)));
    return lists.flat();
  }

  mappingsOf(connection: ConnectionRow): Promise<ResolvedMapping[]> {
    const { projectId, linkedUserId, provider } = connection;
    return this.cache.fieldMappings(projectId, linkedUserId, provider, () => this.repo.mappingsFor(projectId, linkedUserId, provider));
  }

  /** `field_mappings` values of a write as provider custom fields: mapped names only, values of the declared type. */
  async toCustomFields(
    connection: ConnectionRow,
    objectType: string,
    values: Record<string, unknown> | undefined,
    prefix: string,
    loaded?: ResolvedMapping[],
  ): Promise<CustomFieldValue[]> {
    const entries = Object.entries(values ?? {});
    if (entries.length === 0) return [];
    const mappings = (loaded ?? (await this.mappingsOf(connection))).filter((m) => m.objectTypeOwner === objectType);
    const adapter = this.contexts.adapterOf(connection);
    return entries.map(([name, value]) => {
      const field = `${prefix}field_mappings.${name}`;
      const mapping = mappings.find((m) => m.name === name);
      if (!mapping) {
        throw new AppError('unprocessable', `${field}: no ${objectType} attribute with this name is mapped for this linked user and ${connection.provider}`, {
          field,
        });
      }
      if (!adapter.customFields?.objectTypes.includes(objectType)) {
        throw new AppError('unsupported_by_provider', `${field}: ${connection.provider} has no custom fields on ${objectType}`, { field });
      }
      return { remoteFieldId: mapping.sourceCustomFieldId, value: checkType(value, mapping.dataType as DataType, field) };
    });
  }

  /** Reads mapped values from a stored provider object, typed as declared; absent values are null. */
  readValues(connection: ConnectionRow, mappings: ResolvedMapping[], objectType: string, remoteData: Record<string, unknown>): Record<string, unknown> {
    const relevant = mappings.filter((m) => m.objectTypeOwner === objectType);
    if (relevant.length === 0) return {};
    const adapter = this.contexts.adapterOf(connection);
    const out: Record<string, unknown> = {};
    for (const m of relevant) {
      const raw = adapter.customFields?.read(objectType, remoteData, m.sourceCustomFieldId);
      out[m.name] = coerce(raw, m.dataType as DataType);
    }
    return out;
  }
}

function checkType(value: unknown, type: DataType, field: string): unknown {
  if (value === null) return null;
  const fail = () => {
    throw new AppError('validation_failed', `${field}: expected a ${type}`, { field, issues: [{ path: field, message: `expected a ${type}` }] });
  };
  switch (type) {
    case 'string':
      if (typeof value !== 'string') fail();
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') fail();
      return value;
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(value) || Number.isNaN(Date.parse(value))) fail();
      return value;
    case 'json':
      return value;
  }
}

/** Provider values come as the provider stores them (HubSpot: strings): convert to the declared type. */
function coerce(raw: unknown, type: DataType): unknown {
  if (raw === undefined || raw === null || raw === '') return null;
  switch (type) {
    case 'string':
      return typeof raw === 'string' ? raw : JSON.stringify(raw);
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(raw);
      return Number.isFinite(n) ? n : null;
    }
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 1 || raw === '1') return true;
      if (raw === 'false' || raw === 0 || raw === '0') return false;
      return null;
    case 'date': {
      if (typeof raw === 'number') return new Date(raw).toISOString();
      return typeof raw === 'string' ? raw : null;
    }
    case 'json':
      return raw;
  }
}
