import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { canonicalDecimal, decimalToNumber, numberToDecimal, pdId, isoSeconds, toDate } from '../../../src/providers/pipedrive/util';
import { pipedriveAuthHeaders, pipedriveErrorMessage } from '../../../src/providers/pipedrive/http';
import { v1 } from '../../../src/providers/pipedrive/api';

describe('pipedrive amounts: decimal strings ↔ JSON numbers, never rounded', () => {
  it('round-trips decimals of up to 15 significant digits exactly', () => {
    for (const s of ['1234.56', '0.1', '0.3', '100', '-42.5', '999999999999.99', '123456789012345', '0.000001', '1000000000000000000000', '0']) {
      const n = decimalToNumber(s, 'amount');
      expect(numberToDecimal(n)).toBe(canonicalDecimal(s));
      // what Pipedrive receives and answers is this JSON number
      expect(numberToDecimal(JSON.parse(JSON.stringify(n)) as number)).toBe(canonicalDecimal(s));
    }
    expect(decimalToNumber('1234.56', 'amount')).toBe(1234.56);
    expect(JSON.stringify({ value: decimalToNumber('1234.56', 'amount') })).toBe('{"value":1234.56}');
  });

  it('normalises without changing the value (leading and trailing zeros, exponent forms)', () => {
    expect(numberToDecimal(decimalToNumber('0100.50', 'amount'))).toBe('100.5');
    expect(numberToDecimal(decimalToNumber('1e-7', 'amount'))).toBe('0.0000001');
    expect(numberToDecimal(decimalToNumber('1.5e+21', 'amount'))).toBe('1500000000000000000000');
    expect(numberToDecimal(1e21)).toBe('1000000000000000000000');
    expect(numberToDecimal(-1.5e-9)).toBe('-0.0000000015');
    expect(numberToDecimal(-0)).toBe('0');
  });

  it('refuses, with a 422 naming the field, a decimal a double cannot hold exactly', () => {
    for (const s of ['12345678901234567.89', '0.12345678901234567890', '9007199254740993']) {
      const err = (() => {
        try {
          decimalToNumber(s, 'amount');
        } catch (e) {
          return e;
        }
      })() as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe('unsupported_by_provider');
      expect(err.status).toBe(422);
      expect(err.details).toMatchObject({ field: 'amount' });
    }
    expect(() => decimalToNumber('12abc', 'amount')).toThrow(/decimal number/);
  });
});

describe('pipedrive helpers', () => {
  it('reads v2 (RFC 3339) and v1 (UTC "YYYY-MM-DD HH:MM:SS") times', () => {
    expect(toDate('2025-01-01T10:20:00Z')?.toISOString()).toBe('2025-01-01T10:20:00.000Z');
    expect(toDate('2025-01-01 10:20:30')?.toISOString()).toBe('2025-01-01T10:20:30.000Z');
    expect(toDate('')).toBeNull();
    expect(toDate('nonsense')).toBeNull();
    expect(isoSeconds(new Date('2025-01-01T10:20:30.999Z'))).toBe('2025-01-01T10:20:30Z');
  });

  it('checks remote ids', () => {
    expect(pdId('42', 'user_id')).toBe(42);
    expect(() => pdId('abc', 'user_id')).toThrow(AppError);
  });

  it('authenticates with x-api-token, or a bearer token for OAuth connections', () => {
    expect(pipedriveAuthHeaders({ api_token: 't' })).toEqual({ 'x-api-token': 't' });
    expect(pipedriveAuthHeaders({ access_token: 'a', api_token: 't' })).toEqual({ authorization: 'Bearer a' });
    expect(pipedriveAuthHeaders({})).toEqual({});
  });

  it('reads Pipedrive error bodies', () => {
    expect(pipedriveErrorMessage({ success: false, error: 'Person not found', error_info: 'Please check …', data: null })).toBe('Person not found');
    expect(pipedriveErrorMessage({ errors: [{ message: 'bad' }] })).toBe('bad');
    expect(pipedriveErrorMessage('Gateway timeout')).toBe('Gateway timeout');
    expect(pipedriveErrorMessage(undefined)).toBeUndefined();
  });
});

describe('pipedrive API v1 prefix', () => {
  it('is /v1 on the shared host and /api/v1 on a company domain (OAuth api_domain)', () => {
    expect(v1({ baseUrl: 'https://api.pipedrive.com' })).toBe('/v1');
    expect(v1({ baseUrl: 'https://acme.pipedrive.com' })).toBe('/api/v1');
  });
});
