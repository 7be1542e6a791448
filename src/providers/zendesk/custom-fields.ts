/**
 * Zendesk custom fields for field mapping: ticket fields (values in `custom_fields[{id, value}]`,
 * written the same way), user fields (`user_fields{key: value}`) for users and contacts, organization
 * fields (`organization_fields{key: value}`) for accounts. Only ticket fields can be written through
 * Omniport (tickets are the only writable object with custom fields).
 */
import type { AdapterContext, CustomFieldSupport, RemoteField } from '../types';
import { cursorPages, type ResolvedOptions } from './api';

interface ZdFieldDefinition {
  id: number;
  key?: string;
  title?: string;
  type?: string;
  active?: boolean;
  removable?: boolean;
}

const SOURCES: Record<string, { path: string; member: string; idOf: (f: ZdFieldDefinition) => string | undefined }> = {
  'ticketing.ticket': {
    path: '/api/v2/ticket_fields',
    member: 'ticket_fields',
    // System fields (subject, status, …) are not removable; only custom ones are listed.
    idOf: (f) => (f.removable === false ? undefined : String(f.id)),
  },
  'ticketing.user': { path: '/api/v2/user_fields', member: 'user_fields', idOf: (f) => f.key },
  'ticketing.contact': { path: '/api/v2/user_fields', member: 'user_fields', idOf: (f) => f.key },
  'ticketing.account': { path: '/api/v2/organization_fields', member: 'organization_fields', idOf: (f) => f.key },
};

async function list(ctx: AdapterContext, objectType: string, o: ResolvedOptions): Promise<RemoteField[]> {
  const source = SOURCES[objectType];
  if (!source) return [];
  const out: RemoteField[] = [];
  for await (const page of cursorPages<ZdFieldDefinition>(ctx, source.path, source.member, { pageSize: o.listPageSize })) {
    for (const f of page.items) {
      const id = source.idOf(f);
      if (id === undefined || f.active === false) continue;
      out.push({ id, label: f.title ?? id, type: f.type ?? 'text', object_type: objectType });
    }
  }
  return out;
}

/** The raw value of a custom field in a stored Zendesk object; undefined when the object has none. */
export function readZendeskCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  if (objectType === 'ticketing.ticket') {
    const values = (remoteData.custom_fields ?? remoteData.fields) as Array<{ id?: unknown; value?: unknown }> | undefined;
    return Array.isArray(values) ? values.find((v) => v && String(v.id) === fieldId)?.value : undefined;
  }
  const bag = objectType === 'ticketing.account' ? remoteData.organization_fields : objectType === 'ticketing.user' || objectType === 'ticketing.contact' ? remoteData.user_fields : undefined;
  return bag && typeof bag === 'object' ? (bag as Record<string, unknown>)[fieldId] : undefined;
}

export function zendeskCustomFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: Object.keys(SOURCES),
    list: (ctx, objectType) => list(ctx, objectType, o),
    read: readZendeskCustomField,
  };
}
