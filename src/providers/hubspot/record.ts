import type { UnifiedRecord } from '../types';
import type { AssociationIntent } from './associations';
import type { HsObject } from './types';
import { hubspotDate } from './util';

/** What a write sends: HubSpot properties and the associations to set. */
export interface Desunified {
  properties: Record<string, string>;
  intents: AssociationIntent[];
}

/** A HubSpot object as a unified record; archived objects come out deleted. */
export function record(objectType: string, o: HsObject, data: Record<string, unknown>): UnifiedRecord {
  const p = o.properties ?? {};
  return {
    objectType,
    remoteId: String(o.id),
    data,
    remoteData: o as Record<string, unknown>,
    remoteCreatedAt: hubspotDate(o.createdAt ?? p.createdate ?? p.hs_createdate),
    remoteUpdatedAt: hubspotDate(o.updatedAt ?? p.lastmodifieddate ?? p.hs_lastmodifieddate),
    ...(o.archived === true ? { deleted: true } : {}),
  };
}

/** A single reference (contact_id, company_id…) as an association intent; absent when the field is not written. */
export function single(field: string, value: unknown, toType: AssociationIntent['toType'], mode: AssociationIntent['mode']): AssociationIntent[] {
  if (value === undefined) return [];
  return [{ field, toType, ids: value === null || value === '' ? [] : [String(value)], mode }];
}

/** A list reference (contact_ids) as a `replace` intent. */
export function many(field: string, value: unknown, toType: AssociationIntent['toType']): AssociationIntent[] {
  if (value === undefined) return [];
  return [{ field, toType, ids: [...new Set((value as unknown[]).map(String))], mode: 'replace' }];
}
