import type { AccountFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { ZdOrganization } from './types';
import { asRecord, toDate } from './util';

/** Zendesk organization → unified account (`domain_names` → `domains`). */
export function unifyOrganization(o: ZdOrganization): UnifiedRecord {
  const data = { name: o.name ?? null, domains: Array.isArray(o.domain_names) ? [...o.domain_names] : [] } satisfies AccountFields;
  return {
    objectType: 'ticketing.account',
    remoteId: String(o.id),
    data,
    remoteData: asRecord(o),
    remoteCreatedAt: toDate(o.created_at),
    remoteUpdatedAt: toDate(o.updated_at),
  };
}
