import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { unifyGroup } from '../../../src/providers/gitlab/group.mapper';
import { unifyLabel } from '../../../src/providers/gitlab/label.mapper';
import { unifyProject } from '../../../src/providers/gitlab/project.mapper';
import { unifyUser } from '../../../src/providers/gitlab/user.mapper';

const ids = idFactory('conn-1');

describe('unifyUser', () => {
  it('maps a member with its teams, leaving the membership details out of remote_data', () => {
    const r = unifyUser(
      { id: 4, username: 'riley', name: 'Riley Dev', state: 'active', public_email: 'riley@acme.example', access_level: 30, expires_at: null, membership_state: 'active' },
      ids,
      [10, 11, 10],
    );
    expect(r).toMatchObject({ objectType: 'ticketing.user', remoteId: '4', remoteCreatedAt: null, remoteUpdatedAt: null });
    expect(r.data).toEqual({ name: 'Riley Dev', email_address: 'riley@acme.example', teams: [ids('ticketing.team', 10), ids('ticketing.team', 11)], account_id: null });
    expect(r.remoteData).toEqual({ id: 4, username: 'riley', name: 'Riley Dev', state: 'active', public_email: 'riley@acme.example' });
    expect(r.deleted).toBeUndefined();
  });

  it('prefers the private email where GitLab shows it, falls back to the username, and ignores empty public emails', () => {
    expect(unifyUser({ id: 1, username: 'sam', name: 'Sam', email: 'sam@example.com', public_email: '' }, ids).data).toMatchObject({ email_address: 'sam@example.com', teams: [] });
    expect(unifyUser({ id: 2, username: 'ghost', name: '', public_email: '' }, ids).data).toMatchObject({ name: 'ghost', email_address: null });
  });
});

describe('unifyGroup', () => {
  it('maps a group to a team named by its full name', () => {
    const r = unifyGroup({ id: 11, name: 'Support', full_name: 'Acme / Support', description: 'Customer support', created_at: '2020-01-01T00:00:00.000Z', parent_id: 10 });
    expect(r).toMatchObject({ objectType: 'ticketing.team', remoteId: '11', data: { name: 'Acme / Support', description: 'Customer support' } });
    expect(r.remoteCreatedAt?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(unifyGroup({ id: 12, name: 'Solo', description: '' }).data).toEqual({ name: 'Solo', description: null });
  });
});

describe('unifyProject', () => {
  it('maps a project to a collection of type PROJECT', () => {
    const r = unifyProject({
      id: 8,
      name: 'Help desk',
      name_with_namespace: 'Acme / Support / Help desk',
      description: 'Customer tickets',
      created_at: '2020-01-01T00:00:00.000Z',
      last_activity_at: '2021-01-01T00:00:00.000Z',
    });
    expect(r).toMatchObject({
      objectType: 'ticketing.collection',
      remoteId: '8',
      data: { name: 'Acme / Support / Help desk', description: 'Customer tickets', collection_type: 'PROJECT', parent_id: null },
    });
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2021-01-01T00:00:00.000Z');
    expect(unifyProject({ id: 9, name: 'Bare', description: null }).data).toMatchObject({ name: 'Bare', description: null });
  });
});

describe('unifyLabel', () => {
  it('maps a label to a tag by its id', () => {
    expect(unifyLabel({ id: 3, name: 'bug', color: '#dc143c', is_project_label: false })).toMatchObject({
      objectType: 'ticketing.tag',
      remoteId: '3',
      data: { name: 'bug' },
      remoteCreatedAt: null,
    });
  });
});
