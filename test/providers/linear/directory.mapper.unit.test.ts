import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { unifyLabel } from '../../../src/providers/linear/label.mapper';
import { TEAM_COLLECTION_TYPE, unifyTeam } from '../../../src/providers/linear/team.mapper';
import { unifyUser } from '../../../src/providers/linear/user.mapper';

const ids = idFactory('conn-1');

describe('linear directory mappers', () => {
  it('unifies a user with their teams; suspended users stay, archived ones are deleted', () => {
    const u = {
      id: 'u1',
      name: 'Sam Agent',
      displayName: 'sam',
      email: 'sam@example.com',
      active: true,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
      teams: { nodes: [{ id: 't1' }, { id: 't2' }], pageInfo: { hasNextPage: false, endCursor: null } },
    };
    const r = unifyUser(u, ids);
    expect(r).toMatchObject({ objectType: 'ticketing.user', remoteId: 'u1' });
    expect(r.data).toEqual({ name: 'Sam Agent', email_address: 'sam@example.com', teams: [ids('ticketing.team', 't1'), ids('ticketing.team', 't2')], account_id: null });
    expect(unifyUser(u, ids, ['t3', 't3']).data.teams).toEqual([ids('ticketing.team', 't3')]);
    expect(unifyUser({ ...u, active: false }, ids).deleted).toBeUndefined();
    expect(unifyUser({ ...u, archivedAt: '2024-02-01T00:00:00Z' }, ids).deleted).toBe(true);
    expect(unifyUser({ id: 'u2', name: '', displayName: 'bot', email: '' }, ids).data).toMatchObject({ name: 'bot', email_address: null, teams: [] });
  });

  it('unifies a team as a team and a collection, sub-teams naming their parent', () => {
    const [team, collection] = unifyTeam(
      { id: 't2', key: 'SU2', name: 'Support Tier 2', description: 'Escalations', parent: { id: 't1' }, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' },
      ids,
    );
    expect(team).toMatchObject({ objectType: 'ticketing.team', remoteId: 't2', data: { name: 'Support Tier 2', description: 'Escalations' } });
    expect(collection).toMatchObject({
      objectType: 'ticketing.collection',
      remoteId: 't2',
      data: { name: 'Support Tier 2', description: 'Escalations', collection_type: TEAM_COLLECTION_TYPE, parent_id: ids('ticketing.collection', 't1') },
    });
    const archived = unifyTeam({ id: 't3', name: 'Old', archivedAt: '2024-02-01T00:00:00Z' }, ids);
    expect(archived.every((r) => r.deleted === true)).toBe(true);
    expect(archived[1]!.data.parent_id).toBeNull();
  });

  it('unifies a label as a tag; archived labels are deleted', () => {
    expect(unifyLabel({ id: 'l1', name: 'Bug', createdAt: '2024-01-01T00:00:00Z' })).toMatchObject({ objectType: 'ticketing.tag', remoteId: 'l1', data: { name: 'Bug' } });
    expect(unifyLabel({ id: 'l2', name: 'Old', archivedAt: '2024-01-01T00:00:00Z' }).deleted).toBe(true);
  });
});
