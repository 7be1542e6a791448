import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyOrganization, unifyOrganization } from '../../../src/providers/pipedrive/company.mapper';
import { desunifyDeal, unifyDeal } from '../../../src/providers/pipedrive/deal.mapper';
import type { PdDeal, PdOrganization } from '../../../src/providers/pipedrive/types';

const ids = idFactory('conn-1');
const industries = [
  { id: 11, label: 'Software' },
  { id: 12, label: 'Retail' },
];

function error(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected an error');
}

describe('pipedrive organization ↔ crm.company', () => {
  const org: PdOrganization = {
    id: 3,
    name: 'Acme',
    owner_id: 2,
    address: { value: 'Main St 5, 10115 Berlin', route: 'Main St', street_number: '5', locality: 'Berlin', postal_code: '10115', country: 'Germany' },
    industry: 12,
    employee_count: 40,
    add_time: '2024-01-01T00:00:00Z',
    update_time: '2024-01-02T00:00:00Z',
  };

  it('reads name, industry label, employees, the address (WORK) and owner', () => {
    const r = unifyOrganization(org, ids, industries);
    expect(r.objectType).toBe('crm.company');
    expect(r.data).toEqual({
      name: 'Acme',
      industry: 'Retail',
      number_of_employees: 40,
      email_addresses: [],
      phone_numbers: [],
      addresses: [{ street_1: '5 Main St', street_2: null, city: 'Berlin', state: null, postal_code: '10115', country: 'Germany', address_type: 'WORK', owner_type: 'COMPANY' }],
      user_id: ids('crm.user', 2),
    });
    expect(unifyOrganization({ ...org, industry: 99, address: null }, ids, industries).data).toMatchObject({ industry: '99', addresses: [] });
  });

  it('writes them back (industry label → option id)', () => {
    expect(
      desunifyOrganization(
        { name: 'Acme', industry: 'software', number_of_employees: 12, addresses: [{ street_1: 'Main St 5', city: 'Berlin', country: 'DE', address_type: 'WORK' }], user_id: '2' },
        industries,
      ),
    ).toEqual({
      name: 'Acme',
      industry: 11,
      employee_count: 12,
      address: { value: 'Main St 5, Berlin, DE', route: 'Main St 5', locality: 'Berlin', country: 'DE' },
      owner_id: 2,
    });
    expect(desunifyOrganization({ addresses: [], industry: '' }, industries)).toEqual({ address: null, industry: null });
  });

  it('refuses emails, phones, an unknown industry and typed addresses', () => {
    expect(error(() => desunifyOrganization({ email_addresses: [{ email_address: 'a@b.example' }] }, industries))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'email_addresses' } });
    expect(error(() => desunifyOrganization({ phone_numbers: [{ phone_number: '1' }] }, industries))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'phone_numbers' } });
    expect(error(() => desunifyOrganization({ industry: 'Mining' }, industries))).toMatchObject({ code: 'unprocessable', details: { field: 'industry', allowed: ['Software', 'Retail'] } });
    expect(error(() => desunifyOrganization({ addresses: [{ city: 'X', address_type: 'BILLING' }] }, industries))).toMatchObject({ details: { field: 'addresses[0].address_type' } });
    expect(desunifyOrganization({ email_addresses: [], phone_numbers: [] }, industries)).toEqual({});
  });
});

describe('pipedrive deal ↔ crm.deal', () => {
  const deal: PdDeal = {
    id: 5,
    title: 'Big one',
    owner_id: 1,
    person_id: 7,
    org_id: 3,
    pipeline_id: 1,
    stage_id: 2,
    value: 1234.56,
    currency: 'EUR',
    status: 'open',
    expected_close_date: '2025-06-30',
    add_time: '2024-01-01T00:00:00Z',
    update_time: '2024-01-02T00:00:00Z',
    is_deleted: false,
  };

  it('reads the amount as an exact decimal string and the references', () => {
    const r = unifyDeal(deal, ids);
    expect(r.data).toEqual({
      name: 'Big one',
      description: null,
      amount: '1234.56',
      currency: 'EUR',
      stage_id: ids('crm.stage', 2),
      user_id: ids('crm.user', 1),
      company_id: ids('crm.company', 3),
      contact_ids: [ids('crm.contact', 7)],
      close_date: '2025-06-30',
    });
    expect(unifyDeal({ ...deal, value: null, person_id: null, is_deleted: true }, ids)).toMatchObject({ data: { amount: null, contact_ids: [] }, deleted: true });
    expect(unifyDeal({ ...deal, value: 1e21 }, ids).data.amount).toBe('1000000000000000000000');
  });

  it('writes them back', () => {
    expect(
      desunifyDeal({ name: 'Big one', amount: '1234.56', currency: 'EUR', stage_id: '2', user_id: '1', company_id: '3', contact_ids: ['7'], close_date: '2025-06-30T12:00:00+02:00' }),
    ).toEqual({ title: 'Big one', value: 1234.56, currency: 'EUR', stage_id: 2, owner_id: 1, org_id: 3, person_id: 7, expected_close_date: '2025-06-30' });
    expect(desunifyDeal({ contact_ids: [] })).toEqual({ person_id: null });
  });

  it('refuses a description, several contacts and amounts a double cannot hold', () => {
    expect(error(() => desunifyDeal({ description: 'x' }))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'description' } });
    expect(error(() => desunifyDeal({ contact_ids: ['1', '2'] }))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'contact_ids' } });
    expect(error(() => desunifyDeal({ amount: '12345678901234567.89' }))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'amount' } });
  });
});
