/**
 * HubSpot properties (v3): the account's property definitions per object type, used to read custom
 * properties along with the standard ones, to check writes, and to list remote fields for field mapping.
 */
import { ConnectionCache } from '../kit';
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { OBJECT_SPECS, specOf } from './objects';
import type { HsPropertyDefinition, HsType } from './types';
import { PROVIDER, propertyValue, unsupported } from './util';

export type PropertyDefs = Map<string, HsPropertyDefinition>;

/** A property the account (not HubSpot) defined: the candidates for field mapping. */
export const isCustom = (d: HsPropertyDefinition) => d.hubspotDefined !== true && d.archived !== true;

const readOnly = (d: HsPropertyDefinition) => d.modificationMetadata?.readOnlyValue === true || d.calculated === true;

/** Property definitions per connection and object type, kept for `ttlMs`; concurrent callers share one request. */
export class PropertyCatalog {
  private readonly cache: ConnectionCache;

  constructor(ttlMs: number) {
    this.cache = new ConnectionCache(ttlMs);
  }

  /**
   * The definitions, or undefined when the token may not read them (no `crm.schemas.*.read` scope):
   * then only the standard properties are read and writes are not checked against the account.
   */
  defs(ctx: AdapterContext, hsType: HsType, opts: { fresh?: boolean } = {}): Promise<PropertyDefs | undefined> {
    return this.cache.get(ctx, hsType, () => this.load(ctx, hsType), opts.fresh);
  }

  private async load(ctx: AdapterContext, hsType: HsType): Promise<PropertyDefs | undefined> {
    try {
      const res = await ctx.http.get<{ results?: HsPropertyDefinition[] }>(`/crm/v3/properties/${hsType}`);
      return new Map((res.data?.results ?? []).filter((d) => d && typeof d.name === 'string' && d.archived !== true).map((d) => [d.name, d]));
    } catch (err) {
      if (err instanceof ProviderError && err.providerStatus === 403) return undefined;
      throw err;
    }
  }

  /** Standard properties of the object plus every custom property of the account. */
  readable(standard: string[], defs: PropertyDefs | undefined): string[] {
    const names = new Set(standard);
    for (const d of defs?.values() ?? []) if (isCustom(d)) names.add(d.name);
    return [...names];
  }

  /**
   * Writes mapped custom field values into `properties` (values as HubSpot strings). A property the
   * account lacks, a read-only one, or one the unified fields already set differently is a 422.
   */
  async applyCustomFields(
    ctx: AdapterContext,
    hsType: HsType,
    defs: PropertyDefs | undefined,
    values: CustomFieldValue[] | undefined,
    properties: Record<string, string>,
  ): Promise<void> {
    for (const { remoteFieldId: name, value } of values ?? []) {
      const field = `field_mappings (HubSpot property ${name})`;
      let d = defs?.get(name);
      // The property may have been created since the definitions were read.
      if (defs && !d) d = (await this.defs(ctx, hsType, { fresh: true }))?.get(name);
      if (defs && !d) throw unsupported(field, `this HubSpot account has no ${hsType} property named ${name}`);
      if (d && readOnly(d)) throw unsupported(field, `the HubSpot property ${name} is read-only`);
      const v = propertyValue(value);
      if (name in properties && properties[name] !== v) {
        throw new AppError('unprocessable', `${field}: the HubSpot property is also set by a unified field, to another value`, { field: 'field_mappings' });
      }
      properties[name] = v;
    }
  }
}

/** Field mapping on HubSpot: any custom property of contacts, companies, deals and activities. */
export function hubspotCustomFields(catalog: PropertyCatalog): CustomFieldSupport {
  return {
    objectTypes: Object.keys(OBJECT_SPECS),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const spec = specOf(objectType);
      if (!spec) return [];
      const out = new Map<string, RemoteField>();
      for (const hsType of spec.hsTypes) {
        const defs = await catalog.defs(ctx, hsType, { fresh: true });
        if (!defs) throw new AppError('provider_error', 'HubSpot refused to list properties: the token needs the crm.schemas.*.read scopes', { provider: PROVIDER });
        for (const d of defs.values()) {
          if (!isCustom(d) || readOnly(d) || out.has(d.name)) continue;
          const label = spec.hsTypes.length > 1 ? `${d.label ?? d.name} (${hsType})` : (d.label ?? d.name);
          out.set(d.name, { id: d.name, label, type: d.type ?? 'string', object_type: objectType });
        }
      }
      return [...out.values()];
    },
    read(_objectType, remoteData, fieldId) {
      const properties = remoteData.properties as Record<string, unknown> | undefined;
      return properties?.[fieldId] ?? null;
    },
  };
}
