import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyCompany, unifyCompany } from '../../../src/providers/hubspot/company.mapper';
import { desunifyContact, unifyContact } from '../../../src/providers/hubspot/contact.mapper';
import type { WriteContext } from '../../../src/providers/hubspot/contact-info';
import type { HsPropertyDefinition } from '../../../src/providers/hubspot/types';

const ids = idFactory('conn-1');
const now = new Date('2025-01-02T03:04:05Z');
const create: WriteContext = { mode: 'create', now };
const update: WriteContext = { mode: 'update', now };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('HubSpot contact → unified', () => {
  const contact = {
    id: '1001',
    properties: {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      hs_additional_emails: 'ada@home.example;ADA@example.com;countess@example.org',
      phone: '+44 20 1234',
      mobilephone: '+44 7700 900',
      fax: null,
      address: '12 St James Sq',
      city: 'London',
      state: null,
      zip: 'SW1Y 4JH',
      country: 'UK',
      hubspot_owner_id: '101',
      createdate: '2024-01-01T10:00:00.000Z',
      lastmodifieddate: '2024-06-01T10:00:00.000Z',
    },
    createdAt: '2024-01-01T10:00:00.000Z',
    updatedAt: '2024-06-01T10:00:00.000Z',
    archived: false,
  };

  it('maps every field, the primary company and keeps the object as remote_data', () => {
    const r = unifyContact(contact, { companies: [{ id: '5000002', primary: false }, { id: '5000001', primary: true }] }, ids);
    expect(r.objectType).toBe('crm.contact');
    expect(r.remoteId).toBe('1001');
    expect(r.remoteData).toBe(contact);
    expect(r.deleted).toBeUndefined();
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-06-01T10:00:00.000Z');
    expect(r.data).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email_addresses: [
        { email_address: 'ada@example.com', email_address_type: null, owner_type: 'CONTACT' },
        { email_address: 'ada@home.example', email_address_type: null, owner_type: 'CONTACT' },
        { email_address: 'countess@example.org', email_address_type: null, owner_type: 'CONTACT' },
      ],
      phone_numbers: [
        { phone_number: '+44 20 1234', phone_type: 'WORK', owner_type: 'CONTACT' },
        { phone_number: '+44 7700 900', phone_type: 'MOBILE', owner_type: 'CONTACT' },
      ],
      addresses: [
        { street_1: '12 St James Sq', street_2: null, city: 'London', state: null, postal_code: 'SW1Y 4JH', country: 'UK', address_type: null, owner_type: 'CONTACT' },
      ],
      user_id: ids('crm.user', '101'),
      company_id: ids('crm.company', '5000001'),
    });
  });

  it('empty contact: empty lists and nulls; no primary → first company; archived → deleted', () => {
    const r = unifyContact({ id: '7', properties: {}, archived: true }, { companies: [{ id: '9', primary: false }] }, ids);
    expect(r.data).toMatchObject({ first_name: null, email_addresses: [], phone_numbers: [], addresses: [], user_id: null, company_id: ids('crm.company', '9') });
    expect(r.deleted).toBe(true);
  });
});

describe('unified contact → HubSpot', () => {
  it('writes names, the email, typed and untyped phones, the address, owner and primary company', () => {
    const d = desunifyContact(
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email_addresses: [{ email_address: 'grace@navy.example', email_address_type: 'WORK' }],
        phone_numbers: [{ phone_number: '+1 555 0100', phone_type: 'MOBILE' }, { phone_number: '+1 555 0101' }, { phone_number: '+1 555 0102', phone_type: 'FAX' }],
        addresses: [{ street_1: '1 Navy Way', city: 'Arlington', state: 'VA', postal_code: '22202', country: 'US', address_type: 'WORK' }],
        user_id: '102',
        company_id: '5000001',
      },
      create,
    );
    expect(d.properties).toEqual({
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@navy.example',
      mobilephone: '+1 555 0100',
      phone: '+1 555 0101',
      fax: '+1 555 0102',
      address: '1 Navy Way',
      city: 'Arlington',
      state: 'VA',
      zip: '22202',
      country: 'US',
      hubspot_owner_id: '102',
    });
    expect(d.intents).toEqual([{ field: 'company_id', toType: 'companies', ids: ['5000001'], mode: 'primary' }]);
  });

  it('on update a list replaces every slot (empty lists clear)', () => {
    const d = desunifyContact({ email_addresses: [], phone_numbers: [{ phone_number: '1', phone_type: 'WORK' }], addresses: [] }, update);
    expect(d.properties).toEqual({ email: '', phone: '1', mobilephone: '', fax: '', address: '', city: '', state: '', zip: '', country: '' });
    expect(desunifyContact({ first_name: 'X' }, update)).toEqual({ properties: { firstname: 'X' }, intents: [] });
  });

  it('refuses what HubSpot cannot hold, naming the field', () => {
    expect(refusal(() => desunifyContact({ email_addresses: [{ email_address: 'a@x.io' }, { email_address: 'b@x.io' }] }, create)).details.field).toBe('email_addresses[1]');
    const home = refusal(() => desunifyContact({ phone_numbers: [{ phone_number: '1', phone_type: 'HOME' }] }, create));
    expect(home.code).toBe('unsupported_by_provider');
    expect(home.status).toBe(422);
    expect(home.details.field).toBe('phone_numbers[0].phone_type');
    expect(home.message).toContain('WORK (phone), MOBILE (mobilephone), FAX (fax)');
    expect(refusal(() => desunifyContact({ phone_numbers: [{ phone_number: '1', phone_type: 'WORK' }, { phone_number: '2', phone_type: 'WORK' }] }, create)).details.field).toBe('phone_numbers[1]');
    expect(refusal(() => desunifyContact({ phone_numbers: ['1', '2', '3', '4'].map((n) => ({ phone_number: n })) }, create)).details.field).toBe('phone_numbers[3]');
    expect(refusal(() => desunifyContact({ addresses: [{ city: 'A' }, { city: 'B' }] }, create)).details.field).toBe('addresses[1]');
    expect(refusal(() => desunifyContact({ addresses: [{ street_1: 'a', street_2: 'b' }] }, create)).details.field).toBe('addresses[0].street_2');
  });

  it('checks slots against the account’s properties: a missing fax is refused, not cleared', () => {
    const defs = new Map<string, HsPropertyDefinition>(['phone', 'mobilephone'].map((name) => [name, { name }]));
    expect(refusal(() => desunifyContact({ phone_numbers: [{ phone_number: '1', phone_type: 'FAX' }] }, { ...create, defs })).message).toContain('no fax property');
    expect(desunifyContact({ phone_numbers: [] }, { ...update, defs }).properties).toEqual({ phone: '', mobilephone: '' });
    // untyped phones skip slots the account lacks
    expect(refusal(() => desunifyContact({ phone_numbers: ['1', '2', '3'].map((n) => ({ phone_number: n })) }, { ...create, defs })).details.field).toBe('phone_numbers[2]');
  });
});

describe('HubSpot company ↔ unified', () => {
  const company = {
    id: '5000001',
    properties: {
      name: 'Analytical Engines',
      industry: 'COMPUTER_SOFTWARE',
      numberofemployees: '250',
      phone: '+44 1',
      address: '1 Main St',
      address2: 'Floor 2',
      city: 'London',
      zip: 'E1',
      country: 'UK',
      hubspot_owner_id: '103',
      createdate: '2024-01-01T00:00:00Z',
      hs_lastmodifieddate: '2024-02-01T00:00:00Z',
    },
  };

  it('reads every field', () => {
    const r = unifyCompany(company, ids);
    expect(r.objectType).toBe('crm.company');
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(r.data).toEqual({
      name: 'Analytical Engines',
      industry: 'COMPUTER_SOFTWARE',
      number_of_employees: 250,
      email_addresses: [],
      phone_numbers: [{ phone_number: '+44 1', phone_type: 'WORK', owner_type: 'COMPANY' }],
      addresses: [{ street_1: '1 Main St', street_2: 'Floor 2', city: 'London', state: null, postal_code: 'E1', country: 'UK', address_type: null, owner_type: 'COMPANY' }],
      user_id: ids('crm.user', '103'),
    });
  });

  it('writes every field and refuses emails and non-work phones', () => {
    const d = desunifyCompany(
      { name: 'X', industry: 'RETAIL', number_of_employees: 12, phone_numbers: [{ phone_number: '1' }], addresses: [{ street_1: 'a', street_2: 'b', city: 'c' }], user_id: '101' },
      create,
    );
    expect(d.properties).toEqual({ name: 'X', industry: 'RETAIL', numberofemployees: '12', phone: '1', address: 'a', address2: 'b', city: 'c', hubspot_owner_id: '101' });
    expect(d.intents).toEqual([]);
    expect(refusal(() => desunifyCompany({ email_addresses: [{ email_address: 'a@b.io' }] }, create)).details.field).toBe('email_addresses');
    expect(desunifyCompany({ email_addresses: [] }, create).properties).toEqual({});
    expect(refusal(() => desunifyCompany({ phone_numbers: [{ phone_number: '1', phone_type: 'MOBILE' }] }, create)).details.field).toBe('phone_numbers[0].phone_type');
  });
});
