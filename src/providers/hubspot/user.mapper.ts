import type { UnifiedRecord } from '../types';
import type { HsOwner } from './types';
import { nonEmpty, hubspotDate } from './util';

/** A HubSpot owner → crm.user; archived (deactivated) owners come out deleted. */
export function unifyOwner(o: HsOwner): UnifiedRecord {
  const name = [nonEmpty(o.firstName), nonEmpty(o.lastName)].filter(Boolean).join(' ');
  return {
    objectType: 'crm.user',
    remoteId: String(o.id),
    data: { name: name || null, email: nonEmpty(o.email) },
    remoteData: o as Record<string, unknown>,
    remoteCreatedAt: hubspotDate(o.createdAt),
    remoteUpdatedAt: hubspotDate(o.updatedAt),
    ...(o.archived === true ? { deleted: true } : {}),
  };
}
