import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyPerson, unifyPerson } from '../../../src/providers/pipedrive/contact.mapper';
import type { PdPerson } from '../../../src/providers/pipedrive/types';

const ids = idFactory('conn-1');

const person: PdPerson = {
  id: 7,
  name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  owner_id: 1,
  org_id: 3,
  emails: [
    { value: 'ada@home.example', primary: false, label: 'home' },
    { value: 'ada@work.example', primary: true, label: 'work' },
    { value: 'ada@odd.example', primary: false, label: 'custom-label' },
  ],
  phones: [
    { value: '+372 5555 0001', primary: true, label: 'mobile' },
    { value: '+372 600 0002', primary: false, label: 'work' },
    { value: '+372 600 0003', primary: false, label: 'home' },
    { value: '+372 600 0004', primary: false, label: 'other' },
    { value: '', primary: false, label: 'other' },
  ],
  postal_address: { value: '123 Main St, Sunnyvale', street_number: '123', route: 'Main St', subpremise: 'Apt 1', locality: 'Sunnyvale', admin_area_level_1: 'CA', postal_code: '94085', country: 'USA' },
  add_time: '2024-01-02T03:04:05Z',
  update_time: '2024-02-03T04:05:06Z',
  is_deleted: false,
  custom_fields: {},
};

describe('pipedrive person → crm.contact', () => {
  it('maps names, emails and phones (primary first, labels as types), the postal address, owner and organization', () => {
    const r = unifyPerson(person, ids);
    expect(r.objectType).toBe('crm.contact');
    expect(r.remoteId).toBe('7');
    expect(r.data).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email_addresses: [
        { email_address: 'ada@work.example', email_address_type: 'WORK', owner_type: 'CONTACT' },
        { email_address: 'ada@home.example', email_address_type: 'PERSONAL', owner_type: 'CONTACT' },
        { email_address: 'ada@odd.example', email_address_type: 'OTHER', owner_type: 'CONTACT' },
      ],
      phone_numbers: [
        { phone_number: '+372 5555 0001', phone_type: 'MOBILE', owner_type: 'CONTACT' },
        { phone_number: '+372 600 0002', phone_type: 'WORK', owner_type: 'CONTACT' },
        { phone_number: '+372 600 0003', phone_type: 'HOME', owner_type: 'CONTACT' },
        { phone_number: '+372 600 0004', phone_type: 'OTHER', owner_type: 'CONTACT' },
      ],
      addresses: [
        { street_1: '123 Main St', street_2: 'Apt 1', city: 'Sunnyvale', state: 'CA', postal_code: '94085', country: 'USA', address_type: 'PERSONAL', owner_type: 'CONTACT' },
      ],
      user_id: ids('crm.user', 1),
      company_id: ids('crm.company', 3),
    });
    expect(r.remoteData).toBe(person);
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-02-03T04:05:06.000Z');
    expect(r.deleted).toBeUndefined();
  });

  it('handles a bare person (no organization, no contact sync) and a deleted one', () => {
    const r = unifyPerson({ id: 8, name: 'X', first_name: 'X', last_name: null, owner_id: 2, org_id: null, emails: [], phones: [], is_deleted: true }, ids);
    expect(r.data).toMatchObject({ first_name: 'X', last_name: null, email_addresses: [], phone_numbers: [], addresses: [], company_id: null });
    expect(r.deleted).toBe(true);
    // a free-text address without components
    expect(unifyPerson({ id: 9, postal_address: { value: 'Somewhere 1' } }, ids).data.addresses).toEqual([
      { street_1: 'Somewhere 1', street_2: null, city: null, state: null, postal_code: null, country: null, address_type: 'PERSONAL', owner_type: 'CONTACT' },
    ]);
  });
});

describe('crm.contact → pipedrive person', () => {
  it('writes name, emails/phones with labels (first is primary), postal address and references', () => {
    const body = desunifyPerson(
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email_addresses: [
          { email_address: 'grace@navy.example', email_address_type: 'WORK' },
          { email_address: 'grace@home.example', email_address_type: 'PERSONAL' },
          { email_address: 'g@other.example' },
        ],
        phone_numbers: [
          { phone_number: '+1 555 0100', phone_type: 'MOBILE' },
          { phone_number: '+1 555 0101', phone_type: 'HOME' },
        ],
        addresses: [{ street_1: '1 Navy Way', street_2: 'Suite 2', city: 'Arlington', state: 'VA', postal_code: '22202', country: 'US', address_type: 'PERSONAL' }],
        user_id: '2',
        company_id: '5',
      },
      { postalAddress: true },
      true,
    );
    expect(body).toEqual({
      name: 'Grace Hopper',
      emails: [
        { value: 'grace@navy.example', primary: true, label: 'work' },
        { value: 'grace@home.example', primary: false, label: 'home' },
        { value: 'g@other.example', primary: false },
      ],
      phones: [
        { value: '+1 555 0100', primary: true, label: 'mobile' },
        { value: '+1 555 0101', primary: false, label: 'home' },
      ],
      postal_address: {
        value: '1 Navy Way, Suite 2, Arlington, VA 22202, US',
        route: '1 Navy Way',
        subpremise: 'Suite 2',
        locality: 'Arlington',
        admin_area_level_1: 'VA',
        postal_code: '22202',
        country: 'US',
      },
      owner_id: 2,
      org_id: 5,
    });
  });

  it('round-trips through Pipedrive’s shapes', () => {
    const input = {
      first_name: 'Grace',
      last_name: 'Hopper',
      email_addresses: [{ email_address: 'grace@navy.example', email_address_type: 'WORK' }],
      phone_numbers: [{ phone_number: '+1 555 0100', phone_type: 'OTHER' }],
      addresses: [{ street_1: '1 Navy Way', city: 'Arlington', country: 'US' }],
    };
    const body = desunifyPerson(input, { postalAddress: true }, true);
    const back = unifyPerson({ id: 1, first_name: 'Grace', last_name: 'Hopper', emails: body.emails as never, phones: body.phones as never, postal_address: body.postal_address as never }, ids);
    expect(back.data).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email_addresses: [{ email_address: 'grace@navy.example', email_address_type: 'WORK', owner_type: 'CONTACT' }],
      phone_numbers: [{ phone_number: '+1 555 0100', phone_type: 'OTHER', owner_type: 'CONTACT' }],
      addresses: [{ street_1: '1 Navy Way', street_2: null, city: 'Arlington', state: null, postal_code: null, country: 'US', address_type: 'PERSONAL' }],
    });
  });

  it('patches one name part with the other from the current person, and clears lists', () => {
    expect(desunifyPerson({ last_name: 'Kelly' }, { postalAddress: true, current: { first_name: 'Grace', last_name: 'Hopper' } }, false)).toEqual({ name: 'Grace Kelly' });
    expect(desunifyPerson({ email_addresses: [], phone_numbers: [], addresses: [] }, { postalAddress: true }, false)).toEqual({ emails: [], phones: [], postal_address: null });
    // nothing to clear without contact sync
    expect(desunifyPerson({ addresses: [] }, { postalAddress: false }, false)).toEqual({});
  });

  it('refuses what Pipedrive cannot store, naming the field', () => {
    const fail = (input: Record<string, unknown>, postalAddress = true) => {
      try {
        desunifyPerson(input, { postalAddress }, true);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('expected an error');
    };
    expect(fail({ email_addresses: [{ email_address: 'a@b.example' }] })).toMatchObject({ code: 'validation_failed', details: { field: 'first_name' } });
    expect(fail({ first_name: 'A', phone_numbers: [{ phone_number: '1', phone_type: 'FAX' }] })).toMatchObject({
      code: 'unsupported_by_provider',
      details: { field: 'phone_numbers[0].phone_type', allowed: ['MOBILE', 'WORK', 'HOME', 'OTHER'] },
    });
    expect(fail({ first_name: 'A', addresses: [{ city: 'X' }, { city: 'Y' }] })).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'addresses' } });
    expect(fail({ first_name: 'A', addresses: [{ city: 'X', address_type: 'WORK' }] })).toMatchObject({
      code: 'unsupported_by_provider',
      details: { field: 'addresses[0].address_type', allowed: ['PERSONAL'] },
    });
    expect(fail({ first_name: 'A', addresses: [{ city: 'X' }] }, false)).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'addresses' } });
    expect(fail({ first_name: 'A', user_id: 'not-a-number' })).toMatchObject({ code: 'unknown_reference', details: { field: 'user_id' } });
  });
});
