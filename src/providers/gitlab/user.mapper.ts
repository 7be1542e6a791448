import type { IdOf } from '../../core/unified/ids';
import type { UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GlMember } from './types';
import { asRecord, nonEmpty } from './util';

/**
 * GitLab user (a project or group member, or the token's own user) → unified user. `teams` are the
 * groups the user is a direct member of (among the groups the token's user belongs to). The email is
 * the user's public email, or the private one where GitLab shows it (`GET /user`, administrators).
 * GitLab's member entities carry no user timestamps (`created_at` is the membership's), so none are set.
 */
export function unifyUser(u: GlMember, ids: IdOf, teamRemoteIds: Iterable<number> = []): UnifiedRecord {
  const data = {
    name: nonEmpty(u.name) ?? nonEmpty(u.username),
    email_address: nonEmpty(u.email) ?? nonEmpty(u.public_email),
    teams: [...new Set(teamRemoteIds)].map((g) => ids('ticketing.team', g)!),
    account_id: null,
  } satisfies UserFields;
  // Membership details belong to one project or group, not to the user.
  const { access_level: _a, expires_at: _e, membership_state: _m, ...user } = u;
  return {
    objectType: 'ticketing.user',
    remoteId: String(u.id),
    data,
    remoteData: asRecord(user),
    remoteCreatedAt: null,
    remoteUpdatedAt: null,
    ...(u.state === 'deleted' ? { deleted: true } : {}),
  };
}
