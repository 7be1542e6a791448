import type { IdOf } from '../../core/unified/ids';
import type { AccountFields, ContactFields, TeamFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { SnCompany, SnGroup, SnUser } from './types';
import { asRecord, nonEmpty, refId, toDate } from './util';

const stamps = (o: { sys_created_on?: string; sys_updated_on?: string }) => ({
  remoteCreatedAt: toDate(o.sys_created_on),
  remoteUpdatedAt: toDate(o.sys_updated_on) ?? toDate(o.sys_created_on),
});

const nameOf = (u: SnUser) => nonEmpty(u.name) ?? ([u.first_name, u.last_name].filter((x) => nonEmpty(x)).join(' ') || null);

/** sys_user → unified user; its groups (sys_user_grmember) are its teams. */
export function unifyUser(u: SnUser, ids: IdOf, groups: string[]): UnifiedRecord {
  const data = {
    name: nameOf(u),
    email_address: nonEmpty(u.email),
    teams: groups.map((g) => ids('ticketing.team', g)!),
    account_id: ids('ticketing.account', refId(u.company)),
  } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: u.sys_id, data, remoteData: asRecord(u), ...stamps(u) };
}

/** sys_user → unified contact: callers of incidents are sys_user records. */
export function unifyCaller(u: SnUser, ids: IdOf): UnifiedRecord {
  const data = {
    name: nameOf(u),
    email_address: nonEmpty(u.email),
    phone_number: nonEmpty(u.phone) ?? nonEmpty(u.mobile_phone),
    details: nonEmpty(u.title),
    account_id: ids('ticketing.account', refId(u.company)),
  } satisfies ContactFields;
  return { objectType: 'ticketing.contact', remoteId: u.sys_id, data, remoteData: asRecord(u), ...stamps(u) };
}

export function unifyCompany(c: SnCompany): UnifiedRecord {
  const site = nonEmpty(c.website);
  let domain: string | null = null;
  if (site) {
    try {
      domain = new URL(/^https?:\/\//.test(site) ? site : `https://${site}`).hostname.replace(/^www\./, '');
    } catch {
      domain = null;
    }
  }
  const data = { name: nonEmpty(c.name), domains: domain ? [domain] : [] } satisfies AccountFields;
  return { objectType: 'ticketing.account', remoteId: c.sys_id, data, remoteData: asRecord(c), ...stamps(c) };
}

export function unifyGroup(g: SnGroup): UnifiedRecord {
  const data = { name: nonEmpty(g.name), description: nonEmpty(g.description) } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: g.sys_id, data, remoteData: asRecord(g), ...stamps(g) };
}
