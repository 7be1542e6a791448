import { describe, expect, it } from 'vitest';
import { readZendeskCustomField } from '../../../src/providers/zendesk/custom-fields';

describe('readZendeskCustomField', () => {
  it('reads ticket custom fields by field id', () => {
    const ticket = { id: 1, custom_fields: [{ id: 27642, value: '745' }, { id: 27648, value: true }, { id: 3, value: null }] };
    expect(readZendeskCustomField('ticketing.ticket', ticket, '27642')).toBe('745');
    expect(readZendeskCustomField('ticketing.ticket', ticket, '27648')).toBe(true);
    expect(readZendeskCustomField('ticketing.ticket', ticket, '3')).toBeNull();
    expect(readZendeskCustomField('ticketing.ticket', ticket, '404')).toBeUndefined();
    expect(readZendeskCustomField('ticketing.ticket', { id: 2 }, '27642')).toBeUndefined();
  });

  it('reads user and organization fields by key', () => {
    const user = { id: 1, user_fields: { plan: 'plan_pro', employee_id: null } };
    expect(readZendeskCustomField('ticketing.contact', user, 'plan')).toBe('plan_pro');
    expect(readZendeskCustomField('ticketing.user', user, 'employee_id')).toBeNull();
    expect(readZendeskCustomField('ticketing.account', { id: 3, organization_fields: { tier: 'tier_gold' } }, 'tier')).toBe('tier_gold');
    expect(readZendeskCustomField('ticketing.comment', user, 'plan')).toBeUndefined();
  });
});
