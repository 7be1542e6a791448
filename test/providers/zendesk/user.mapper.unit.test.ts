import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { unifyUser, userObjectType } from '../../../src/providers/zendesk/user.mapper';
import { unifyOrganization } from '../../../src/providers/zendesk/organization.mapper';
import { unifyGroup } from '../../../src/providers/zendesk/group.mapper';
import { unifyTag } from '../../../src/providers/zendesk/tag.mapper';

const ids = idFactory('conn-1');

describe('unifyUser', () => {
  const agent = {
    id: 35436,
    name: 'Johnny Agent',
    email: 'johnny@example.com',
    role: 'agent',
    active: true,
    phone: '+1555',
    organization_id: 57542,
    default_group_id: 77,
    created_at: '2009-07-20T22:55:29Z',
    updated_at: '2011-05-05T10:38:52Z',
  };

  it('agents and admins are users', () => {
    const r = unifyUser(agent, ids);
    expect(r.objectType).toBe('ticketing.user');
    expect(r.remoteId).toBe('35436');
    expect(r.remoteData).toBe(agent);
    expect(r.data).toEqual({
      name: 'Johnny Agent',
      email_address: 'johnny@example.com',
      teams: [ids('ticketing.team', 77)],
      account_id: ids('ticketing.account', 57542),
    });
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2011-05-05T10:38:52.000Z');
    expect(unifyUser({ ...agent, role: 'admin' }, ids).objectType).toBe('ticketing.user');
  });

  it('end-users are contacts', () => {
    const r = unifyUser({ ...agent, role: 'end-user', details: 'VIP customer', default_group_id: null }, ids);
    expect(r.objectType).toBe('ticketing.contact');
    expect(r.data).toEqual({
      name: 'Johnny Agent',
      email_address: 'johnny@example.com',
      phone_number: '+1555',
      details: 'VIP customer',
      account_id: ids('ticketing.account', 57542),
    });
  });

  it('maps nulls, and inactive (deleted) users are deleted', () => {
    const r = unifyUser({ id: 1, role: 'end-user', name: null, email: '', phone: null, details: '', organization_id: null, active: false }, ids);
    expect(r.data).toEqual({ name: null, email_address: null, phone_number: null, details: null, account_id: null });
    expect(r.deleted).toBe(true);
    expect(unifyUser({ id: 2, role: 'agent' }, ids).data).toEqual({ name: null, email_address: null, teams: [], account_id: null });
  });

  it('object type by role', () => {
    expect(userObjectType('end-user')).toBe('ticketing.contact');
    expect(userObjectType('agent')).toBe('ticketing.user');
    expect(userObjectType('admin')).toBe('ticketing.user');
  });
});

describe('organizations, groups, tags', () => {
  it('organization → account with domains', () => {
    const o = { id: 4112492, name: 'Groablet Enterprises', domain_names: ['remote.com', 'other.com'], created_at: '2018-11-14T00:14:52Z', updated_at: '2018-11-14T00:54:22Z' };
    const r = unifyOrganization(o);
    expect(r).toMatchObject({ objectType: 'ticketing.account', remoteId: '4112492', data: { name: 'Groablet Enterprises', domains: ['remote.com', 'other.com'] }, remoteData: o });
    expect(unifyOrganization({ id: 1, domain_names: null }).data).toEqual({ name: null, domains: [] });
  });

  it('group → team', () => {
    const r = unifyGroup({ id: 211, name: 'DJs', description: 'Peeps who DJ', deleted: false, created_at: '2009-05-13T00:07:08Z' });
    expect(r).toMatchObject({ objectType: 'ticketing.team', remoteId: '211', data: { name: 'DJs', description: 'Peeps who DJ' } });
    expect(r.deleted).toBeUndefined();
    const gone = unifyGroup({ id: 212, name: 'Old', description: '', deleted: true });
    expect(gone.data.description).toBeNull();
    expect(gone.deleted).toBe(true);
  });

  it('tag → tag with its name as remote id', () => {
    expect(unifyTag({ name: 'vip', count: 12 })).toEqual({
      objectType: 'ticketing.tag',
      remoteId: 'vip',
      data: { name: 'vip' },
      remoteData: { name: 'vip', count: 12 },
      remoteCreatedAt: null,
      remoteUpdatedAt: null,
    });
  });
});
