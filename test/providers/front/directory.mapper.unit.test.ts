import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { unifyAccount, unifyContact } from '../../../src/providers/front/contact.mapper';
import { readFrontCustomField } from '../../../src/providers/front/custom-fields';
import { unifyInbox, unifyTag, unifyTeam } from '../../../src/providers/front/directory.mapper';
import { teammateName, unifyTeammate } from '../../../src/providers/front/user.mapper';

const ids = idFactory('conn-1');

describe('unifyTeammate', () => {
  it('is a user with its name, email and teams', () => {
    const t = { id: 'tea_1', email: 'sam@acme.example', username: 'sam', first_name: 'Sam', last_name: 'Agent', type: 'user' };
    const r = unifyTeammate(t, ids, ['tim_1', 'tim_2']);
    expect(r).toMatchObject({ objectType: 'ticketing.user', remoteId: 'tea_1', remoteData: t, remoteCreatedAt: null });
    expect(r.data).toEqual({
      name: 'Sam Agent',
      email_address: 'sam@acme.example',
      teams: [ids('ticketing.team', 'tim_1'), ids('ticketing.team', 'tim_2')],
      account_id: null,
    });
  });
  it('falls back to the username, then the email, for the name', () => {
    expect(teammateName({ id: 'tea_1', first_name: '', last_name: ' ', username: 'sam' })).toBe('sam');
    expect(teammateName({ id: 'tea_1', email: 'x@y.z' })).toBe('x@y.z');
  });
});

describe('unifyContact', () => {
  it('takes the first email and phone handles and the account that lists it', () => {
    const c = {
      id: 'crd_1',
      name: 'Casey',
      description: 'VIP',
      handles: [
        { handle: '@casey', source: 'twitter' },
        { handle: '+15550100', source: 'phone' },
        { handle: 'casey@customer.example', source: 'email' },
        { handle: 'other@customer.example', source: 'email' },
      ],
    };
    expect(unifyContact(c, ids, 'acc_1').data).toEqual({
      name: 'Casey',
      email_address: 'casey@customer.example',
      phone_number: '+15550100',
      details: 'VIP',
      account_id: ids('ticketing.account', 'acc_1'),
    });
    expect(unifyContact({ id: 'crd_2', name: '', description: '' }, ids).data).toEqual({
      name: null,
      email_address: null,
      phone_number: null,
      details: null,
      account_id: null,
    });
  });
});

describe('directory', () => {
  it('maps accounts, inboxes, teams and tags', () => {
    expect(unifyAccount({ id: 'acc_1', name: 'Customer Co', domains: ['customer.example'], created_at: 1714558830, updated_at: 1714558831 })).toMatchObject({
      objectType: 'ticketing.account',
      remoteId: 'acc_1',
      data: { name: 'Customer Co', domains: ['customer.example'] },
    });
    expect(unifyInbox({ id: 'inb_1', name: 'Support' }).data).toEqual({ name: 'Support', description: null, collection_type: 'INBOX', parent_id: null });
    expect(unifyTeam({ id: 'tim_1', name: 'Care' }).data).toEqual({ name: 'Care', description: null });
    expect(unifyTag({ id: 'tag_1', name: 'billing', created_at: 1714558830 })).toMatchObject({ objectType: 'ticketing.tag', remoteId: 'tag_1', data: { name: 'billing' } });
  });
});

describe('readFrontCustomField', () => {
  it('reads custom fields by name', () => {
    const data = { custom_fields: { 'Order number': 'ORD-7', Escalated: false } };
    expect(readFrontCustomField('ticketing.ticket', data, 'Order number')).toBe('ORD-7');
    expect(readFrontCustomField('ticketing.ticket', data, 'Escalated')).toBe(false);
    expect(readFrontCustomField('ticketing.ticket', data, 'cuf_1')).toBeUndefined();
    expect(readFrontCustomField('ticketing.contact', {}, 'x')).toBeUndefined();
  });
});
