import type { IdOf } from '../../core/unified/ids';
import type { CollectionFields, ContactFields, TagFields, TeamFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { HsCustomer, HsMailbox, HsTag, HsTeam, HsUser } from './types';
import { asRecord, nonEmpty, toDate } from './util';

const stamps = (o: { createdAt?: string | null; updatedAt?: string | null }) => ({
  remoteCreatedAt: toDate(o.createdAt),
  remoteUpdatedAt: toDate(o.updatedAt) ?? toDate(o.createdAt),
});

const fullName = (first: unknown, last: unknown) => [nonEmpty(first), nonEmpty(last)].filter(Boolean).join(' ') || null;

export function unifyUser(u: HsUser, ids: IdOf, teams: number[]): UnifiedRecord {
  const data = { name: fullName(u.firstName, u.lastName), email_address: nonEmpty(u.email), teams: teams.map((t) => ids('ticketing.team', t)!), account_id: null } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: String(u.id), data, remoteData: asRecord(u), ...stamps(u) };
}

export function unifyCustomer(c: HsCustomer): UnifiedRecord {
  const emails = c._embedded?.emails ?? [];
  const phones = c._embedded?.phones ?? [];
  const data = {
    name: fullName(c.firstName, c.lastName),
    email_address: nonEmpty(emails.find((e) => nonEmpty(e?.value))?.value),
    phone_number: nonEmpty(phones.find((p) => nonEmpty(p?.value))?.value),
    details: nonEmpty(c.background) ?? nonEmpty(c.jobTitle),
    account_id: null,
  } satisfies ContactFields;
  return { objectType: 'ticketing.contact', remoteId: String(c.id), data, remoteData: asRecord(c), ...stamps(c) };
}

export function unifyTeam(t: HsTeam): UnifiedRecord {
  const data = { name: nonEmpty(t.name), description: null } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: String(t.id), data, remoteData: asRecord(t), ...stamps(t) };
}

export function unifyMailbox(m: HsMailbox): UnifiedRecord {
  const data = { name: nonEmpty(m.name), description: nonEmpty(m.email), collection_type: 'MAILBOX', parent_id: null } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: String(m.id), data, remoteData: asRecord(m), ...stamps(m) };
}

/** Help Scout tags are named by their `name`; conversations carry the name (`tag`). The name is the remote id. */
export function unifyTag(t: HsTag): UnifiedRecord {
  const name = nonEmpty(t.name) ?? String(t.id);
  const data = { name } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: name, data, remoteData: asRecord(t), ...stamps(t) };
}
