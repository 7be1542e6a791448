import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { UnknownOption, hasBareOptions, readCustomValue, toPipedriveValue } from '../../../src/providers/pipedrive/custom-fields';
import type { PdFieldDef } from '../../../src/providers/pipedrive/types';

const def = (field_type: string, options?: { id: number; label: string }[]): PdFieldDef => ({
  field_code: 'a'.repeat(40),
  field_name: `A ${field_type} field`,
  field_type,
  options: options ?? null,
  is_custom_field: true,
});
const colours = [
  { id: 1, label: 'Red' },
  { id: 2, label: 'Green' },
];

describe('pipedrive custom field values: mapped value → Pipedrive value by the field’s definition', () => {
  it('converts numbers, money, dates, times, booleans, text and ids', () => {
    expect(toPipedriveValue(def('double'), 2.5)).toBe(2.5);
    expect(toPipedriveValue(def('double'), '2.5')).toBe(2.5);
    expect(toPipedriveValue(def('int'), 3)).toBe(3);
    expect(toPipedriveValue(def('monetary'), 99.9, { currency: 'EUR' })).toEqual({ value: 99.9, currency: 'EUR' });
    expect(toPipedriveValue(def('monetary'), 99.9)).toEqual({ value: 99.9 });
    expect(toPipedriveValue(def('monetary'), { value: 5, currency: 'USD' })).toEqual({ value: 5, currency: 'USD' });
    expect(toPipedriveValue(def('date'), '2025-01-02')).toBe('2025-01-02');
    expect(toPipedriveValue(def('date'), '2025-01-02T10:00:00Z')).toBe('2025-01-02');
    expect(toPipedriveValue(def('time'), '10:30')).toBe('10:30');
    expect(toPipedriveValue(def('boolean'), true)).toBe(true);
    expect(toPipedriveValue(def('varchar'), 'x')).toBe('x');
    expect(toPipedriveValue(def('text'), 12)).toBe('12');
    expect(toPipedriveValue(def('user'), 2)).toBe(2);
    expect(toPipedriveValue(def('address'), 'Main St 1')).toEqual({ value: 'Main St 1' });
    expect(toPipedriveValue(def('double'), null)).toBeNull();
  });

  it('writes options by label (case-insensitive) or id; a set clears with null', () => {
    expect(toPipedriveValue(def('enum', colours), 'green')).toBe(2);
    expect(toPipedriveValue(def('enum', colours), 1)).toBe(1);
    expect(toPipedriveValue(def('set', colours), ['Red', 'Green'])).toEqual([1, 2]);
    expect(toPipedriveValue(def('set', colours), 'Red, Green')).toEqual([1, 2]);
    expect(toPipedriveValue(def('set', colours), [])).toBeNull();
    expect(() => toPipedriveValue(def('enum', colours), 'Blue')).toThrow(UnknownOption);
  });

  it('refuses values of the wrong kind with a 422 naming Pipedrive’s field', () => {
    for (const [type, value] of [
      ['double', 'abc'],
      ['int', 1.5],
      ['date', 'tomorrow'],
      ['boolean', 'yes'],
      ['varchar', { a: 1 }],
      ['monetary', 'lots'],
    ] as const) {
      const err = (() => {
        try {
          toPipedriveValue(def(type), value);
        } catch (e) {
          return e;
        }
      })() as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.status).toBe(422);
      expect(err.details).toMatchObject({ field: 'field_mappings', remote_field_id: 'a'.repeat(40) });
    }
  });
});

describe('pipedrive custom field values: remote_data → value', () => {
  const key = 'b'.repeat(40);
  it('reads option labels, amounts, addresses and plain values', () => {
    expect(readCustomValue({ custom_fields: { [key]: { id: 2, label: 'Green' } } }, key)).toBe('Green');
    expect(readCustomValue({ custom_fields: { [key]: [{ id: 1, label: 'Red' }, { id: 2, label: 'Green' }] } }, key)).toEqual(['Red', 'Green']);
    expect(readCustomValue({ custom_fields: { [key]: { value: 10.5, currency: 'EUR' } } }, key)).toBe(10.5);
    expect(readCustomValue({ custom_fields: { [key]: { value: 'Main St 1', locality: 'X' } } }, key)).toBe('Main St 1');
    expect(readCustomValue({ custom_fields: { [key]: 42 } }, key)).toBe(42);
    expect(readCustomValue({ custom_fields: { [key]: null } }, key)).toBeNull();
    expect(readCustomValue({}, key)).toBeUndefined();
  });

  it('knows when a write answer carries option ids without labels', () => {
    const defs = new Map([[key, def('enum', colours)]]);
    expect(hasBareOptions({ [key]: 2 }, defs)).toBe(true);
    expect(hasBareOptions({ [key]: null }, defs)).toBe(false);
    expect(hasBareOptions({ [key]: 'text' }, undefined)).toBe(false);
    expect(hasBareOptions({ [key]: 2 }, undefined)).toBe(true);
    expect(hasBareOptions({ [key]: [1, 2] }, undefined)).toBe(true);
    expect(hasBareOptions(undefined, undefined)).toBe(false);
  });
});
