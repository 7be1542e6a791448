import { describe, expect, it } from 'vitest';
import { addV4, associationsForCreate, createBody, mapOfV3, mapOfWrites, primaryOf } from '../../../src/providers/hubspot/associations';
import { hubspotAuthHeaders, hubspotErrorMessage, statusOfCategory } from '../../../src/providers/hubspot/http';
import { hubspotManifest } from '../../../src/providers/hubspot/manifest';
import type { AssociationMap } from '../../../src/providers/hubspot/types';
import { propertyValue } from '../../../src/providers/hubspot/util';

describe('HTTP profile', () => {
  it('authenticates with a bearer token', () => {
    expect(hubspotAuthHeaders({ access_token: 'pat-na1-x' })).toEqual({ authorization: 'Bearer pat-na1-x' });
    expect(hubspotAuthHeaders({})).toEqual({});
  });

  it('reads HubSpot error bodies', () => {
    expect(hubspotErrorMessage({ status: 'error', message: 'Contact already exists. Existing ID: 1001', category: 'CONFLICT' })).toBe('Contact already exists. Existing ID: 1001');
    const list = [{ isValid: false, name: 'amount', message: 'abc was not a valid number.', error: 'INVALID_DOUBLE' }];
    expect(hubspotErrorMessage({ message: `Property values were not valid: ${JSON.stringify(list)}` })).toBe('Property values were not valid: amount: abc was not a valid number.');
    expect(hubspotErrorMessage({ status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT' })).toBe('You have reached your ten_secondly_rolling limit.');
    expect(hubspotErrorMessage({ message: 'Batch failed', errors: [{ message: 'one' }, { message: 'two' }] })).toBe('Batch failed (one; two)');
    expect(hubspotErrorMessage('<html>bad gateway</html>')).toBe('<html>bad gateway</html>');
    expect(hubspotErrorMessage(undefined)).toBeUndefined();
    expect([statusOfCategory('CONFLICT'), statusOfCategory('OBJECT_NOT_FOUND'), statusOfCategory('VALIDATION_ERROR'), statusOfCategory(undefined)]).toEqual([409, 404, 400, 400]);
  });

  it('manifest: honest capabilities, OAuth endpoints, rate-limit header, credentials', () => {
    expect(hubspotManifest.capabilities['crm.stage']).toEqual(['list', 'get', 'sync']);
    expect(hubspotManifest.capabilities['crm.contact']).toContain('batch_create');
    expect(hubspotManifest.rateLimitHeaders).toMatchObject({ remaining: 'x-hubspot-ratelimit-remaining' });
    expect(hubspotManifest.oauth?.tokenUrl).toBe('https://api.hubapi.com/oauth/v1/token');
    expect(hubspotManifest.credentials.safeParse({ access_token: 'x' }).success).toBe(true);
    expect(hubspotManifest.credentials.safeParse({ access_token: 'x', refresh_token: 'r', expires_at: '2030-01-01T00:00:00Z' }).success).toBe(true);
    expect(hubspotManifest.credentials.safeParse({}).success).toBe(false);
  });

  it('property values travel as strings', () => {
    expect([propertyValue('a'), propertyValue(12.5), propertyValue(true), propertyValue(null), propertyValue({ a: 1 })]).toEqual(['a', '12.5', 'true', '', '{"a":1}']);
  });
});

describe('associations', () => {
  it('creates primary company associations with the Primary and default types', () => {
    const writes = associationsForCreate('contacts', [{ field: 'company_id', toType: 'companies', ids: ['5'], mode: 'primary' }]);
    expect(writes).toEqual([{ toType: 'companies', toId: '5', typeIds: [1, 279] }]);
    expect(createBody(writes)).toEqual([
      {
        to: { id: '5' },
        types: [
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 },
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 },
        ],
      },
    ]);
    const deal = associationsForCreate('deals', [
      { field: 'company_id', toType: 'companies', ids: ['5'], mode: 'primary' },
      { field: 'contact_ids', toType: 'contacts', ids: ['1', '2'], mode: 'replace' },
    ]);
    expect(deal.map((w) => w.typeIds)).toEqual([[5, 341], [3], [3]]);
    expect(mapOfWrites('deals', deal)).toEqual({ companies: [{ id: '5', primary: true }], contacts: [{ id: '1', primary: false }, { id: '2', primary: false }] });
    expect(associationsForCreate('notes', [{ field: 'contact_id', toType: 'contacts', ids: ['1'], mode: 'replace' }])[0]!.typeIds).toEqual([202]);
  });

  it('reads v3 association names and v4 type ids, merging duplicates', () => {
    const v3 = mapOfV3(
      {
        id: '1',
        properties: {},
        associations: {
          companies: {
            results: [
              { id: '7', type: 'contact_to_company_unlabeled' },
              { id: '8', type: 'contact_to_company' },
              { id: '8', type: 'contact_to_company_unlabeled' },
            ],
          },
        },
      },
      ['companies', 'deals'],
    );
    expect(v3).toEqual({ companies: [{ id: '7', primary: false }, { id: '8', primary: true }] });
    expect(primaryOf(v3.companies)).toBe('8');
    const v4: AssociationMap = {};
    addV4(v4, 'deals', 'companies', [
      { toObjectId: 7, associationTypes: [{ typeId: 341, label: null }] },
      { toObjectId: 9, associationTypes: [{ typeId: 5, label: 'Primary' }, { typeId: 341, label: null }] },
    ]);
    expect(v4).toEqual({ companies: [{ id: '7', primary: false }, { id: '9', primary: true }] });
    expect(primaryOf([{ id: '3', primary: false }])).toBe('3');
    expect(primaryOf(undefined)).toBeNull();
  });
});
