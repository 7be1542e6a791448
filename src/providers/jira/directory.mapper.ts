/** Jira users, groups, projects and labels → unified users, teams, collections and tags. */
import type { IdOf } from '../../core/unified/ids';
import type { CollectionFields, TagFields, TeamFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { JiraGroup, JiraProject, JiraUser } from './types';
import { asRecord, nonEmpty } from './util';

/**
 * Jira user → unified user, with the groups (teams) it belongs to. Jira Service Management customers
 * (`accountType: customer`) are not users of the site and are left out (undefined). Deactivated
 * users stay (they are still assignees and authors of history), `active: false` in remote_data.
 */
export function unifyUser(u: JiraUser, ids: IdOf, teamIds: readonly string[] = []): UnifiedRecord | undefined {
  if (!u.accountId || u.accountType === 'customer') return undefined;
  const data = {
    name: u.displayName ?? null,
    email_address: nonEmpty(u.emailAddress),
    teams: teamIds.map((g) => ids('ticketing.team', g)!),
    account_id: null,
  } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: u.accountId, data, remoteData: asRecord(u), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Jira group → unified team (remote id: the group id, stable across renames). */
export function unifyGroup(g: JiraGroup): UnifiedRecord {
  const data = { name: g.name ?? null, description: null } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: g.groupId, data, remoteData: asRecord(g), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Jira project → unified collection (`collection_type` PROJECT). */
export function unifyProject(p: JiraProject): UnifiedRecord {
  const data = {
    name: p.name ?? null,
    description: nonEmpty(p.description),
    collection_type: 'PROJECT',
    parent_id: null,
  } satisfies CollectionFields;
  return {
    objectType: 'ticketing.collection',
    remoteId: String(p.id),
    data,
    remoteData: asRecord(p),
    remoteCreatedAt: null,
    remoteUpdatedAt: null,
    ...(p.deleted === true ? { deleted: true } : {}),
  };
}

/** Jira label → unified tag. Labels have no id: the remote id is the label itself. */
export function unifyLabel(label: string): UnifiedRecord {
  const data = { name: label } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: label, data, remoteData: { name: label }, remoteCreatedAt: null, remoteUpdatedAt: null };
}
