import { describe, expect, it } from 'vitest';
import { zendeskAuthHeaders, zendeskErrorMessage } from '../../../src/providers/zendesk/http';
import { exportStartTime } from '../../../src/providers/zendesk/api';
import { zendeskManifest } from '../../../src/providers/zendesk/manifest';

describe('zendesk auth headers', () => {
  it('API token: Basic {email}/token:{api_token}', () => {
    const h = zendeskAuthHeaders({ email: 'jdoe@example.com', api_token: 'abc' });
    expect(h.authorization).toBe(`Basic ${Buffer.from('jdoe@example.com/token:abc').toString('base64')}`);
  });

  it('OAuth: Bearer access token', () => {
    expect(zendeskAuthHeaders({ access_token: 'tok', email: 'x@example.com', api_token: 'y' })).toEqual({ authorization: 'Bearer tok' });
  });
});

describe('zendesk error messages', () => {
  it('includes the first field error of a RecordInvalid', () => {
    expect(
      zendeskErrorMessage({
        error: 'RecordInvalid',
        description: 'Record validation errors',
        details: {
          type: [{ description: 'Type: "bug" is not a valid value', error: 'InvalidValue' }],
          priority: [{ description: 'Priority: "p1" is not a valid value', error: 'InvalidValue' }],
        },
      }),
    ).toBe('RecordInvalid: Record validation errors: Type: "bug" is not a valid value (and 1 more)');
  });

  it('reads the other shapes Zendesk answers with', () => {
    expect(zendeskErrorMessage({ error: "Couldn't authenticate you" })).toBe("Couldn't authenticate you");
    expect(zendeskErrorMessage({ error: 'RecordNotFound', description: 'Not found' })).toBe('RecordNotFound: Not found');
    expect(zendeskErrorMessage({ error: { title: 'Forbidden', message: 'You do not have access' } })).toBe('Forbidden: You do not have access');
    expect(zendeskErrorMessage({ errors: [{ code: 'InvalidPaginationParameter', title: 'Invalid Pagination Parameter', detail: 'page[size] too big' }] })).toBe(
      'Invalid Pagination Parameter: page[size] too big',
    );
    expect(zendeskErrorMessage({ details: { base: [{ description: 'Description: cannot be blank' }] } })).toBe('Description: cannot be blank');
    expect(zendeskErrorMessage('<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
    expect(zendeskErrorMessage(undefined)).toBeUndefined();
    expect(zendeskErrorMessage({})).toBeUndefined();
  });
});

describe('export start time', () => {
  it('is 0 on a full run and never within the lag window', () => {
    const now = Date.parse('2024-05-01T12:00:00Z');
    expect(exportStartTime(undefined, 60, now)).toBe(0);
    expect(exportStartTime(new Date('2024-05-01T10:00:00Z'), 60, now)).toBe(Date.parse('2024-05-01T10:00:00Z') / 1000);
    expect(exportStartTime(new Date('2024-05-01T11:59:50Z'), 65, now)).toBe(now / 1000 - 65);
    expect(exportStartTime(new Date('2024-05-01T11:59:50Z'), 0, now)).toBe(now / 1000 - 10);
  });
});

describe('zendesk manifest', () => {
  it('takes email and api_token only, and needs a base URL', () => {
    expect(zendeskManifest.credentials.safeParse({ email: 'a@example.com', api_token: 't' }).success).toBe(true);
    expect(zendeskManifest.credentials.safeParse({ email: 'nope', api_token: 't' }).success).toBe(false);
    expect(zendeskManifest.credentials.safeParse({ email: 'a@example.com', api_token: 't', extra: 1 }).success).toBe(false);
    expect(zendeskManifest.defaultBaseUrl).toBeUndefined();
    expect(zendeskManifest.authKind).toBe('basic');
    expect(zendeskManifest.capabilities['ticketing.collection']).toBeUndefined();
  });
});
