import { describe, expect, it } from 'vitest';
import { fieldType, plainCustomValue, readJiraCustomField, shapeCustomValue } from '../../../src/providers/jira/custom-fields';
import { textToAdf } from '../../../src/providers/jira/adf';
import type { JiraFieldDefinition } from '../../../src/providers/jira/types';

const def = (type: string, extra: Partial<JiraFieldDefinition['schema']> = {}): JiraFieldDefinition => ({ id: 'customfield_1', custom: true, schema: { type, ...extra } });
const ct = (k: string) => `com.atlassian.jira.plugin.system.customfieldtypes:${k}`;

describe('jira custom field values', () => {
  it('reads plain values out of Jira shapes', () => {
    expect(plainCustomValue('x')).toBe('x');
    expect(plainCustomValue(3)).toBe(3);
    expect(plainCustomValue(null)).toBeNull();
    expect(plainCustomValue(undefined)).toBeUndefined();
    expect(plainCustomValue(textToAdf('multi\nline'))).toBe('multi\nline');
    expect(plainCustomValue({ self: 's', value: 'Gold', id: '1' })).toBe('Gold');
    expect(plainCustomValue([{ value: 'a' }, { value: 'b' }])).toEqual(['a', 'b']);
    expect(plainCustomValue({ accountId: 'acc', displayName: 'A' })).toBe('acc');
    expect(plainCustomValue({ name: '1.0', id: '3' })).toBe('1.0');
    expect(readJiraCustomField('ticketing.ticket', { fields: { customfield_1: { value: 'Gold' } } }, 'customfield_1')).toBe('Gold');
    expect(readJiraCustomField('ticketing.ticket', { id: '1' }, 'customfield_1')).toBeUndefined();
    expect(readJiraCustomField('ticketing.comment', { fields: { customfield_1: 1 } }, 'customfield_1')).toBeUndefined();
  });

  it('writes values in the shape of the field type', () => {
    expect(shapeCustomValue(def('string', { custom: ct('textfield') }), 'x')).toBe('x');
    expect(shapeCustomValue(def('string', { custom: ct('textarea') }), 'a\n\nb')).toEqual(textToAdf('a\n\nb'));
    expect(shapeCustomValue(def('number'), 2.5)).toBe(2.5);
    expect(shapeCustomValue(def('date'), '2030-01-02T10:00:00Z')).toBe('2030-01-02');
    expect(shapeCustomValue(def('datetime'), '2030-01-02T10:00:00Z')).toBe('2030-01-02T10:00:00.000+0000');
    expect(shapeCustomValue(def('option'), 'Gold')).toEqual({ value: 'Gold' });
    expect(shapeCustomValue(def('option'), { id: '10100' })).toEqual({ id: '10100' });
    expect(shapeCustomValue(def('array', { items: 'option' }), ['a', 'b'])).toEqual([{ value: 'a' }, { value: 'b' }]);
    expect(shapeCustomValue(def('array', { items: 'string' }), 'one')).toEqual(['one']);
    expect(shapeCustomValue(def('user'), 'acc')).toEqual({ accountId: 'acc' });
    expect(shapeCustomValue(def('array', { items: 'user' }), ['acc'])).toEqual([{ accountId: 'acc' }]);
    expect(shapeCustomValue(def('version'), '1.0')).toEqual({ name: '1.0' });
    expect(shapeCustomValue(def('option'), null)).toBeNull();
    expect(shapeCustomValue(def('any'), { raw: true })).toEqual({ raw: true });
  });

  it('names field types by their custom type key or schema', () => {
    expect(fieldType(def('string', { custom: ct('textfield') }))).toBe('textfield');
    expect(fieldType(def('array', { items: 'option' }))).toBe('array<option>');
    expect(fieldType({ id: 'x' })).toBe('any');
  });
});
