import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { testRegistry } from '../support/test-provider';

let server: TestServer;
let other: Tenant;
const unknownId = '00000000-0000-4000-8000-000000000000';
const strip = (body: { details?: Record<string, unknown> }) => ({ ...body, details: { ...body.details, request_id: undefined } });

beforeAll(async () => {
  server = await startTestServer({ providers: testRegistry(), work: false });
  other = await server.createTenant('other');
  await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'cust-1' } });
});
afterAll(() => server.close());

describe('field mapping: define and map (endpoints 11 and 9)', () => {
  it('defines an attribute; a second one with the same name and object is a 409', async () => {
    const body = { object_type_owner: 'ticketing.ticket', name: 'severity', description: 'How bad', data_type: 'number' };
    const res = await server.call('POST', '/field-mapping/define', { body });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ object_type_owner: 'ticketing.ticket', name: 'severity', data_type: 'number', status: 'defined' });
    expect((await server.call('POST', '/field-mapping/define', { body })).status).toBe(409);
    // Same name on another object type is another attribute.
    expect((await server.call('POST', '/field-mapping/define', { body: { ...body, object_type_owner: 'crm.contact' } })).status).toBe(201);
    // Another project may use the same name.
    expect((await server.call('POST', '/field-mapping/define', { apiKey: other.apiKey, body })).status).toBe(201);
  });

  it('rejects unknown data types and object types, listing the allowed values', async () => {
    const badType = await server.call('POST', '/field-mapping/define', {
      body: { object_type_owner: 'ticketing.ticket', name: 'x', data_type: 'float' },
    });
    expect(badType.status).toBe(400);
    expect(badType.body.details.issues[0]).toMatchObject({ path: 'body.data_type', message: expect.stringContaining('string, number, boolean, date, json') });
    const badOwner = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticket', name: 'x', data_type: 'string' } });
    expect(badOwner.status).toBe(400);
    expect(badOwner.body.details.issues[0].path).toBe('body.object_type_owner');
  });

  it('maps for a linked user by Omniport id or origin id; unknown references name their field', async () => {
    const attr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticketing.ticket', name: 'region', data_type: 'string' } });
    const attributeId = attr.body.data.id_attribute;
    const byOrigin = await server.call('POST', '/field-mapping/map', {
      body: { attributeId, source_custom_field_id: '360001', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    expect(byOrigin.status).toBe(201);
    expect(byOrigin.body.data).toMatchObject({ attributeId, source_custom_field_id: '360001', source_provider: 'acme-desk', status: 'mapped' });
    const dup = await server.call('POST', '/field-mapping/map', {
      body: { attributeId, source_custom_field_id: '360002', source_provider: 'acme-desk', linked_user_id: byOrigin.body.data.linked_user_id },
    });
    expect(dup.status).toBe(409);

    const unknownAttr = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: unknownId, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    expect(unknownAttr.status).toBe(404);
    expect(unknownAttr.body.details.field).toBe('attributeId');
    const unknownProvider = await server.call('POST', '/field-mapping/map', {
      body: { attributeId, source_custom_field_id: '1', source_provider: 'nope', linked_user_id: 'cust-1' },
    });
    expect(unknownProvider.status).toBe(404);
    expect(unknownProvider.body.details.field).toBe('source_provider');
    const unknownUser = await server.call('POST', '/field-mapping/map', {
      body: { attributeId, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'nobody' },
    });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.details.field).toBe('linked_user_id');

    const crmAttr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'crm.deal', name: 'tier', data_type: 'string' } });
    const wrongVertical = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: crmAttr.body.data.id_attribute, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    expect(wrongVertical.status).toBe(422);
    expect(wrongVertical.body.details.field).toBe('source_provider');
  });

  it('answers another project’s attributes, mappings and linked users as unknown', async () => {
    const theirs = await server.call('POST', '/field-mapping/define', {
      apiKey: other.apiKey,
      body: { object_type_owner: 'ticketing.ticket', name: 'secret', data_type: 'string' },
    });
    await server.call('POST', '/linked-users', { apiKey: other.apiKey, body: { linked_user_origin_id: 'their-cust' } });
    const cross = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: theirs.body.data.id_attribute, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    const unknown = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: unknownId, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    expect(cross.status).toBe(404);
    expect(strip(cross.body)).toEqual(strip(unknown.body));

    const mine = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticketing.ticket', name: 'mine', data_type: 'string' } });
    const foreignUser = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: mine.body.data.id_attribute, source_custom_field_id: '1', source_provider: 'acme-desk', linked_user_id: 'their-cust' },
    });
    expect(foreignUser.status).toBe(404);
    expect(foreignUser.body.details.field).toBe('linked_user_id');

    expect((await server.call('DELETE', `/field-mapping/attributes/${theirs.body.data.id_attribute}`)).status).toBe(404);
    const list = await server.call('GET', '/field-mapping/attributes?limit=1000');
    expect(list.body.data.some((a: { id_attribute: string }) => a.id_attribute === theirs.body.data.id_attribute)).toBe(false);
  });

  it('lists and deletes mappings and attributes', async () => {
    const attr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticketing.ticket', name: 'gone', data_type: 'boolean' } });
    const id = attr.body.data.id_attribute;
    const map = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: id, source_custom_field_id: '9', source_provider: 'acme-desk', linked_user_id: 'cust-1' },
    });
    const listed = await server.call('GET', `/field-mapping/mappings?attributeId=${id}`);
    expect(listed.body.data.map((m: { id_mapping: string }) => m.id_mapping)).toEqual([map.body.data.id_mapping]);
    expect((await server.call('DELETE', `/field-mapping/mappings/${map.body.data.id_mapping}`)).status).toBe(204);
    expect((await server.call('GET', `/field-mapping/mappings?attributeId=${id}`)).body.data).toEqual([]);
    expect((await server.call('DELETE', `/field-mapping/attributes/${id}`)).status).toBe(204);
    expect((await server.call('DELETE', `/field-mapping/attributes/${id}`)).status).toBe(404);
  });
});
