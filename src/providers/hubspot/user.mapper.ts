import type { UnifiedRecord } from '../types';
import type { HsOwner } from './types';
import { text, toDate } from './util';

/** A HubSpot owner → crm.user; archived (deactivated) owners come out deleted. */
export function unifyOwner(o: HsOwner): UnifiedRecord {
  const name = [text(o.firstName), text(o.lastName)].filter(Boolean).join(' ');
  return {
    objectType: 'crm.user',
    remoteId: String(o.id),
    data: { name: name || null, email: text(o.email) },
    remoteData: o as Record<string, unknown>,
    remoteCreatedAt: toDate(o.createdAt),
    remoteUpdatedAt: toDate(o.updatedAt),
    ...(o.archived === true ? { deleted: true } : {}),
  };
}
