import type { IdOf } from '../../core/unified/ids';
import type { AccountFields, ContactFields, TagFields, TeamFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { FdAgent, FdCompany, FdContact, FdGroup } from './types';
import { asRecord, nonEmpty, toDate } from './util';

const stamps = (o: { created_at?: string | null; updated_at?: string | null }) => ({
  remoteCreatedAt: toDate(o.created_at),
  remoteUpdatedAt: toDate(o.updated_at) ?? toDate(o.created_at),
});

/** Freshdesk agent → unified user; its groups are its teams. */
export function unifyAgent(a: FdAgent, ids: IdOf): UnifiedRecord {
  const data = {
    name: nonEmpty(a.contact?.name),
    email_address: nonEmpty(a.contact?.email),
    teams: (a.group_ids ?? []).map((g) => ids('ticketing.team', g)!),
    account_id: null,
  } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: String(a.id), data, remoteData: asRecord(a), ...stamps(a) };
}

/** Freshdesk contact → unified contact (its company is its account; soft-deleted contacts come out deleted). */
export function unifyContact(c: FdContact, ids: IdOf): UnifiedRecord {
  const data = {
    name: nonEmpty(c.name),
    email_address: nonEmpty(c.email),
    phone_number: nonEmpty(c.phone) ?? nonEmpty(c.mobile),
    details: nonEmpty(c.description),
    account_id: ids('ticketing.account', c.company_id),
  } satisfies ContactFields;
  return { objectType: 'ticketing.contact', remoteId: String(c.id), data, remoteData: asRecord(c), ...stamps(c), ...(c.deleted ? { deleted: true } : {}) };
}

export function unifyCompany(c: FdCompany): UnifiedRecord {
  const data = { name: nonEmpty(c.name), domains: (c.domains ?? []).filter((d) => typeof d === 'string') } satisfies AccountFields;
  return { objectType: 'ticketing.account', remoteId: String(c.id), data, remoteData: asRecord(c), ...stamps(c) };
}

export function unifyGroup(g: FdGroup): UnifiedRecord {
  const data = { name: nonEmpty(g.name), description: nonEmpty(g.description) } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: String(g.id), data, remoteData: asRecord(g), ...stamps(g) };
}

/** Freshdesk tags are names on tickets, without ids or a list of their own: the name is the remote id. */
export function unifyTag(name: string, seenAt: Date | null): UnifiedRecord {
  const data = { name } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: name, data, remoteData: { name }, remoteCreatedAt: null, remoteUpdatedAt: seenAt };
}
