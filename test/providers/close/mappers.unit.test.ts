import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyContact, desunifyLead, desunifyOpportunity, desunifyTask, splitName, unifyActivityEngagement, unifyContact, unifyOpportunity } from '../../../src/providers/close/mappers';
import { centsToDecimal, decimalToCents } from '../../../src/providers/close/util';
import { toCloseValue } from '../../../src/providers/close/custom-fields';

const ids = idFactory('conn-1');

describe('amounts in whole cents', () => {
  it('converts decimals to cents and back by text, exactly', () => {
    expect(decimalToCents('1234.56', 'amount')).toBe(123456);
    expect(decimalToCents('1234.5', 'amount')).toBe(123450);
    expect(decimalToCents('1234.500', 'amount')).toBe(123450);
    expect(decimalToCents('-0.05', 'amount')).toBe(-5);
    expect(decimalToCents('90071992547409.91', 'amount')).toBe(9007199254740991);
    expect(centsToDecimal(123456)).toBe('1234.56');
    expect(centsToDecimal(123450)).toBe('1234.5');
    expect(centsToDecimal(100)).toBe('1');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(0)).toBe('0');
  });

  it('refuses what cents cannot hold instead of rounding', () => {
    expect(() => decimalToCents('1.005', 'amount')).toThrow(/whole cents/);
    expect(() => decimalToCents('90071992547409.92', 'amount')).toThrow(/larger/);
    expect(() => decimalToCents('1e3', 'amount')).toThrow(/decimal/);
  });
});

describe('contacts', () => {
  it('splits and joins the one Close name', () => {
    expect(splitName('Ada King Lovelace')).toEqual({ first: 'Ada', last: 'King Lovelace' });
    expect(splitName('Ada')).toEqual({ first: 'Ada', last: null });
    expect(desunifyContact({ last_name: 'Byron' }, { name: 'Ada Lovelace' }, false)).toEqual({ name: 'Ada Byron' });
  });

  it('maps emails and phones with their types, and refuses what Close contacts lack', () => {
    const body = desunifyContact(
      { first_name: 'Ada', email_addresses: [{ email_address: 'a@x.example', email_address_type: 'PERSONAL' }], phone_numbers: [{ phone_number: '+1', phone_type: 'FAX' }] },
      undefined,
      true,
    );
    expect(body).toEqual({ name: 'Ada', emails: [{ email: 'a@x.example', type: 'home' }], phones: [{ phone: '+1', type: 'fax' }] });
    expect(() => desunifyContact({ first_name: 'A', addresses: [{ city: 'X' }] }, undefined, true)).toThrow(/no addresses/);
    expect(() => desunifyContact({ first_name: 'A', user_id: 'user_1' }, undefined, true)).toThrow(/no owner/);
    const c = unifyContact({ id: 'cont_1', name: 'Ada Lovelace', lead_id: 'lead_1', emails: [{ email: 'a@x.example', type: 'direct' }], phones: [{ phone: '+1', type: 'weird' }] }, ids);
    expect(c.data).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', company_id: ids('crm.company', 'lead_1') });
    expect(c.data.email_addresses).toEqual([{ email_address: 'a@x.example', email_address_type: 'WORK', owner_type: 'CONTACT' }]);
    expect(c.data.phone_numbers).toEqual([{ phone_number: '+1', phone_type: 'OTHER', owner_type: 'CONTACT' }]);
  });
});

describe('leads, opportunities, tasks, engagements', () => {
  it('keeps the deal name and description in the note, and needs a lead', () => {
    expect(desunifyOpportunity({ name: 'Big', description: 'line 2', amount: '10.5', company_id: 'lead_1' }, undefined, true)).toMatchObject({
      note: 'Big\nline 2',
      value: 1050,
      lead_id: 'lead_1',
    });
    expect(desunifyOpportunity({ name: 'Bigger' }, { id: 'oppo_1', note: 'Big\nline 2' }, false)).toEqual({ note: 'Bigger\nline 2' });
    expect(() => desunifyOpportunity({ name: 'x' }, undefined, true)).toThrow(/belongs to a lead/);
    expect(() => desunifyOpportunity({ name: 'x', company_id: 'lead_1', contact_ids: ['cont_1', 'cont_2'] }, undefined, true)).toThrow(/one contact/);
    const d = unifyOpportunity({ id: 'oppo_1', note: 'Big\nline 2', value: 9876543, value_currency: 'EUR' }, ids);
    expect(d.data).toMatchObject({ name: 'Big', description: 'Big\nline 2', amount: '98765.43', currency: 'EUR' });
  });

  it('refuses lead fields Close does not have', () => {
    expect(() => desunifyLead({ name: 'x', industry: 'Software' })).toThrow(/industry/);
    expect(desunifyLead({ name: 'x', addresses: [{ street_1: '1 Main', address_type: 'BILLING' }] })).toMatchObject({ addresses: [{ label: 'mailing', address_1: '1 Main' }] });
    expect(() => desunifyLead({ name: 'x', addresses: [{ street_1: '1', address_type: 'SHIPPING' }] })).toThrow(/SHIPPING/);
  });

  it('writes lead tasks and reads calls and meetings', () => {
    expect(desunifyTask({ subject: 'Call back', status: 'COMPLETED', company_id: 'lead_1' }, true)).toEqual({ _type: 'lead', text: 'Call back', is_complete: true, lead_id: 'lead_1' });
    const call = unifyActivityEngagement({ id: 'acti_1', _type: 'Call', activity_at: '2026-01-01T10:00:00.000000+00:00', duration: 90, direction: 'inbound', contact_id: 'cont_1' }, ids);
    expect(call.data).toMatchObject({ type: 'CALL', direction: 'INBOUND', start_at: '2026-01-01T10:00:00.000Z', end_time: '2026-01-01T10:01:30.000Z' });
    const meeting = unifyActivityEngagement({ id: 'acti_2', _type: 'Meeting', title: 'Demo', starts_at: '2026-01-01T10:00:00Z', ends_at: '2026-01-01T11:00:00Z', attendees: [{ contact_id: 'cont_1' }, { email: 'x@y.z' }] }, ids);
    expect(meeting.data).toMatchObject({ type: 'MEETING', subject: 'Demo', contact_ids: [ids('crm.contact', 'cont_1')] });
  });

  it('converts custom field values by type', () => {
    expect(toCloseValue({ id: 'cf_1', type: 'number' }, '12.5')).toBe(12.5);
    expect(toCloseValue({ id: 'cf_2', type: 'choices', choices: ['Gold', 'Silver'] }, 'gold')).toBe('Gold');
    expect(toCloseValue({ id: 'cf_3', type: 'choices', choices: ['A', 'B'], accepts_multiple_values: true }, ['a', 'B'])).toEqual(['A', 'B']);
    expect(() => toCloseValue({ id: 'cf_4', type: 'date' }, 'soon')).toThrow(/date/);
  });
});
