import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { unifyCustomer } from '../../../src/providers/gorgias/contact.mapper';
import { readGorgiasCustomField } from '../../../src/providers/gorgias/custom-fields';
import { unifyTag } from '../../../src/providers/gorgias/tag.mapper';
import { unifyTeam } from '../../../src/providers/gorgias/team.mapper';
import { teamsByUser, unifyUser } from '../../../src/providers/gorgias/user.mapper';
import { toDate, toIso } from '../../../src/providers/gorgias/util';

const ids = idFactory('conn-1');

describe('users and teams', () => {
  it('maps a user with the teams that list it as a member', () => {
    const teams = [
      { id: 1, name: 'Tier 1', members: [{ id: 3924 }, { id: 5 }] },
      { id: 2, name: 'Billing', members: [{ id: 3924 }, { id: 3924 }] },
      { id: 3, name: 'Empty', members: null },
    ];
    const membership = teamsByUser(teams);
    expect(membership.get(3924)).toEqual([1, 2]);
    const u = unifyUser(
      { id: 3924, email: 'steve@company.com', firstname: 'Steve', lastname: 'Frazeli', role: { name: 'admin' }, created_datetime: '2019-04-13T03:27:56.973873', updated_datetime: '2019-09-25T06:18:22.839271' },
      ids,
      membership.get(3924),
    );
    expect(u).toMatchObject({ objectType: 'ticketing.user', remoteId: '3924' });
    expect(u.data).toEqual({ name: 'Steve Frazeli', email_address: 'steve@company.com', teams: [ids('ticketing.team', 1), ids('ticketing.team', 2)], account_id: null });
    expect(u.remoteUpdatedAt?.toISOString()).toBe('2019-09-25T06:18:22.839Z');
  });

  it('maps a team', () => {
    const t = unifyTeam({ id: 123, name: 'Warehouse team', description: '', created_datetime: '2024-01-15T10:30:00Z', members: [] });
    expect(t).toMatchObject({ objectType: 'ticketing.team', remoteId: '123', data: { name: 'Warehouse team', description: null } });
    expect(t.remoteCreatedAt?.toISOString()).toBe('2024-01-15T10:30:00.000Z');
  });
});

describe('customers → contacts', () => {
  it('takes the primary email, else the preferred email channel, and the preferred phone', () => {
    const c = unifyCustomer({
      id: 3924,
      email: null,
      name: null,
      firstname: 'John',
      lastname: 'Smith',
      note: 'Our best customer.',
      channels: [
        { type: 'email', address: 'old@example.com', preferred: false },
        { type: 'email', address: 'john@example.com', preferred: true },
        { type: 'phone', address: '+15550100' },
      ],
      created_datetime: '2019-04-13T03:27:56.973873',
    });
    expect(c).toMatchObject({ objectType: 'ticketing.contact', remoteId: '3924' });
    expect(c.data).toEqual({ name: 'John Smith', email_address: 'john@example.com', phone_number: '+15550100', details: 'Our best customer.', account_id: null });
    expect(c.remoteUpdatedAt?.toISOString()).toBe('2019-04-13T03:27:56.973Z');
    expect(unifyCustomer({ id: 1, email: 'a@b.c', name: 'A' }).data).toMatchObject({ email_address: 'a@b.c', name: 'A', phone_number: null });
  });
});

describe('tags', () => {
  it('keeps the Gorgias id as remote id, and reports deleted tags', () => {
    expect(unifyTag({ id: 7, name: 'refund', created_datetime: '2020-01-01T00:00:00' })).toMatchObject({ remoteId: '7', data: { name: 'refund' } });
    expect(unifyTag({ id: 8, name: 'old', deleted_datetime: '2021-01-01T00:00:00' }).deleted).toBe(true);
  });
});

describe('custom field values', () => {
  it('reads the object-keyed form, bare values and the array form', () => {
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: { '17': { id: 17, value: 'ORD-7' } } }, '17')).toBe('ORD-7');
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: { '18': false } }, '18')).toBe(false);
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: { a: { id: 19, value: 3 } } }, '19')).toBe(3);
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: [{ id: 20, value: 'x' }] }, '20')).toBe('x');
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: null }, '17')).toBeUndefined();
    expect(readGorgiasCustomField('ticketing.ticket', { custom_fields: { '17': { id: 17, value: 'ORD-7' } } }, '99')).toBeUndefined();
    expect(readGorgiasCustomField('ticketing.contact', { custom_fields: { '17': 'x' } }, '17')).toBeUndefined();
  });
});

describe('datetimes', () => {
  it('reads zoneless Gorgias datetimes as UTC and keeps explicit zones', () => {
    expect(toIso('2019-07-05T14:42:00.384938')).toBe('2019-07-05T14:42:00.384Z');
    expect(toIso('2021-11-02T21:58:43.171610+00:00')).toBe('2021-11-02T21:58:43.171Z');
    expect(toIso('2024-01-15T10:30:00Z')).toBe('2024-01-15T10:30:00.000Z');
    expect(toIso('2024-01-15T12:30:00+02:00')).toBe('2024-01-15T10:30:00.000Z');
    expect(toDate('')).toBeNull();
    expect(toDate('not a date')).toBeNull();
    expect(toDate(null)).toBeNull();
  });
});
