/**
 * The Panora TypeScript client (the liblab-generated `PanoraSDK`, axios underneath) replayed request by
 * request, as its service methods and HTTP layer build them: method, path, query (`remote_data`, `id`,
 * `originId`), headers (Authorization: Bearer <key>, axios' Accept, JSON Content-Type on bodies,
 * x-connection-token where the method takes one, a User-Agent of its kind) and body, for every endpoint of
 * the interface (seed endpoints 1–11) and every alias Omniport keeps for it. Each answer is checked
 * against the shape the client's types read: `{message?, error?, statusCode: number, data?}` for the
 * envelope answers (its `.data`), the bare ticket for endpoint 6.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type CallResult, type TestServer } from '../support/harness';
import { syncAndWait } from '../support/sync-wait';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let server: TestServer;
let hubspot: HubSpotSimulator;
let zendesk: ZendeskSimulator;
let zdToken: string;
let hsToken: string;

beforeAll(async () => {
  hubspot = await startHubSpotSimulator({ accessTokens: ['hs-panora'] });
  hubspot.seedContacts(2);
  hubspot.seedDeals(2);
  hubspot.addProperty('contacts', { name: 'loyalty_tier', label: 'Loyalty tier', type: 'string' });
  zendesk = await startZendeskSimulator({ validateSpec: false });
  zendesk.seedTickets(2);
  server = await startTestServer();
  zdToken = await connectZendesk(server, zendesk, { origin: 'panora-customer' });
  hsToken = await connectHubSpot(server, hubspot, 'hs-panora', { origin: 'panora-customer' });
  await syncAndWait(server, zdToken);
  await syncAndWait(server, hsToken);
}, 240_000);
afterAll(async () => {
  await server?.close();
  await hubspot?.close();
  await zendesk?.close();
});

/** One request as the Panora client sends it. */
function panora(method: 'GET' | 'POST' | 'PATCH', path: string, o: { body?: unknown; connectionToken?: string } = {}): Promise<CallResult> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${server.tenant.apiKey}`,
    accept: 'application/json, text/plain, */*',
    'user-agent': 'liblab PanoraSDK/1.3.0 typescript',
  };
  if (o.connectionToken) headers['x-connection-token'] = o.connectionToken;
  // axios sends JSON with its Content-Type whenever the client passes a body object.
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  return server.call(method, path, { apiKey: null, headers, rawBody: o.body === undefined ? undefined : JSON.stringify(o.body) });
}

/** What the client's `*Response` types read: statusCode (number), message and error (strings, optional), data. */
function expectEnvelope(res: CallResult, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, message: expect.any(String) });
  expect(res.body.error).toBeUndefined();
  expect(res.body.data).toBeDefined();
  return res.body.data;
}

/** UnifiedTicketOutput / UnifiedDealOutput …: the output fields the client's models declare. */
const unifiedOutput = { id: expect.any(String), remote_id: expect.any(String), field_mappings: expect.any(Object) };

describe('the Panora client on the seed endpoints', () => {
  let ticketId: string;

  it('1 POST /auth/generate-apikey', async () => {
    const res = await panora('POST', '/auth/generate-apikey', {
      body: { keyName: 'from-panora', projectId: server.tenant.projectId, userId: server.tenant.userId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ api_key: expect.stringMatching(/^sk_/), key_name: 'from-panora', id_project: server.tenant.projectId });
  });

  it('3 POST /ticketing/tickets?remote_data=true, 5 GET /ticketing/tickets, then GET /ticketing/tickets/{id}', async () => {
    const created = await panora('POST', '/ticketing/tickets?remote_data=true', {
      connectionToken: zdToken,
      body: { name: 'Printer on fire', status: 'OPEN', description: ['It smokes.'], priority: 'HIGH', tags: ['hardware'], field_mappings: {} },
    });
    const ticket = expectEnvelope(created, 201);
    expect(ticket).toMatchObject({ ...unifiedOutput, name: 'Printer on fire', description: ['It smokes.'], remote_data: expect.any(Object) });
    ticketId = ticket.id;

    const list = await panora('GET', '/ticketing/tickets?remote_data=true', { connectionToken: zdToken });
    const items = expectEnvelope(list, 200);
    expect(Array.isArray(items)).toBe(true);
    expect(items[0]).toMatchObject({ ...unifiedOutput, remote_data: expect.any(Object) });

    // getTicket: GetTicketResponse, read as `.data` — the envelope.
    const one = await panora('GET', `/ticketing/tickets/${ticketId}?remote_data=true`);
    expect(expectEnvelope(one, 200)).toMatchObject({ ...unifiedOutput, id: ticketId, remote_data: expect.any(Object) });
  });

  it('2 POST /ticketing/tickets/batch', async () => {
    const res = await panora('POST', '/ticketing/tickets/batch', {
      connectionToken: zdToken,
      body: [
        { name: 'Batch one', description: ['first'] },
        { name: 'Batch two', description: 'second', comment: ['an opening comment'] },
      ],
    });
    const data = expectEnvelope(res, 201);
    expect(data).toEqual([expect.objectContaining({ name: 'Batch one', ...unifiedOutput }), expect.objectContaining({ name: 'Batch two', ...unifiedOutput })]);
  });

  it('4 POST /ticketing/comments with a file held by POST /ticketing/attachments (uploader included)', async () => {
    const users = expectEnvelope(await panora('GET', '/ticketing/users', { connectionToken: zdToken }), 200);
    const uploader = users[0].id as string;
    const held = await panora('POST', '/ticketing/attachments?remote_data=true', {
      connectionToken: zdToken,
      body: { file_name: 'notes.txt', file_url: undefined, content: Buffer.from('hello').toString('base64'), uploader, field_mappings: {} },
    });
    const attachment = expectEnvelope(held, 201);
    expect(attachment).toMatchObject({ id: expect.any(String), file_name: 'notes.txt', uploader });

    const res = await panora('POST', '/ticketing/comments?remote_data=true', {
      connectionToken: zdToken,
      body: { body: 'See the file', is_private: false, creator_type: 'USER', ticket_id: ticketId, user_id: uploader, attachments: [attachment.id] },
    });
    const comment = expectEnvelope(res, 201);
    expect(comment).toMatchObject({ ...unifiedOutput, body: 'See the file', ticket_id: ticketId });
    expect(comment.attachments).toEqual([expect.objectContaining({ file_name: 'notes.txt', id: expect.any(String) })]);
  });

  it('refuses an uploader that is not a user of the connection (422 naming it)', async () => {
    const res = await panora('POST', '/ticketing/attachments', {
      connectionToken: zdToken,
      body: { file_name: 'x.txt', content: Buffer.from('x').toString('base64'), uploader: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(422);
    expect(res.body.details).toMatchObject({ code: 'unknown_reference', field: 'uploader' });
  });

  it('6 PATCH /ticketing/tickets?id= answers the bare ticket (UnifiedTicketOutput)', async () => {
    const res = await panora('PATCH', `/ticketing/tickets?id=${ticketId}`, { body: { name: 'Printer fixed' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ...unifiedOutput, id: ticketId, name: 'Printer fixed' });
    expect(res.body.data).toBeUndefined();
  });

  it('7 PATCH /crm/deals/{id} with the client’s empty body; getDeal reads .data', async () => {
    const [deal] = expectEnvelope(await panora('GET', '/crm/deals', { connectionToken: hsToken }), 200);
    const res = await panora('PATCH', `/crm/deals/${deal.id}`, { body: {} });
    expect(expectEnvelope(res, 200)).toMatchObject({ ...unifiedOutput, id: deal.id, remote_data: expect.any(Object) });
    const one = await panora('GET', `/crm/deals/${deal.id}`);
    expect(expectEnvelope(one, 200)).toMatchObject({ ...unifiedOutput, id: deal.id });
  });

  it('8 POST /crm/contacts/batch; updateContact PATCH /crm/contacts?id= with {id}; getContact reads .data', async () => {
    const res = await panora('POST', '/crm/contacts/batch', {
      connectionToken: hsToken,
      body: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email_addresses: [{ email_address: 'ada@panora.example', email_address_type: 'WORK', owner_type: 'CONTACT' }],
          phone_numbers: [{ phone_number: '+44 20 7946 0000', phone_type: 'WORK', owner_type: 'CONTACT' }],
          addresses: [{ street_1: '1 Analytical Way', city: 'London', country: 'GB', address_type: 'WORK', owner_type: 'CONTACT' }],
          field_mappings: {},
        },
      ],
    });
    const [contact] = expectEnvelope(res, 201);
    expect(contact).toMatchObject({ ...unifiedOutput, first_name: 'Ada' });
    const patched = await panora('PATCH', `/crm/contacts?id=${contact.id}`, { body: { id: contact.id } });
    expect(expectEnvelope(patched, 200)).toMatchObject({ id: contact.id });
    expect(expectEnvelope(await panora('GET', `/crm/contacts/${contact.id}`), 200)).toMatchObject({ id: contact.id, first_name: 'Ada' });
  });

  it('11 POST /field-mapping/define, 9 POST /field-mapping/map, and getFieldMappings GET /field-mapping/attribute', async () => {
    const defined = await panora('POST', '/field-mapping/define', {
      body: { object_type_owner: 'crm.contact', name: 'tier', description: 'Loyalty tier', data_type: 'string' },
    });
    const attribute = expectEnvelope(defined, 201);
    expect(attribute).toMatchObject({ id_attribute: expect.any(String), name: 'tier', status: 'defined' });
    const mapped = await panora('POST', '/field-mapping/map', {
      body: { attributeId: attribute.id_attribute, source_custom_field_id: 'loyalty_tier', source_provider: 'hubspot', linked_user_id: 'panora-customer' },
    });
    expect(expectEnvelope(mapped, 201)).toMatchObject({ attributeId: attribute.id_attribute, status: 'mapped' });
    const listed = await panora('GET', '/field-mapping/attribute');
    expect(expectEnvelope(listed, 200)).toEqual([expect.objectContaining({ id_attribute: attribute.id_attribute, name: 'tier' })]);
    expect(listed.body).toEqual((await panora('GET', '/field-mapping/attributes')).body);
  });

  it('10 POST /magic-link/create, and getMagicLink GET /magic-link/single?id=', async () => {
    const res = await panora('POST', '/magic-link/create', {
      body: { linked_user_origin_id: 'panora-link', email: 'it@panora.example', alias: 'Panora Ltd', id_project: server.tenant.projectId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ id_invite_link: expect.any(String), url: expect.stringContaining('/connect/'), linked_user: { linked_user_origin_id: 'panora-link' } });
    const single = await panora('GET', `/magic-link/single?id=${res.body.id_invite_link}`);
    expect(expectEnvelope(single, 200)).toMatchObject({ id_invite_link: res.body.id_invite_link, linked_user: { alias: 'Panora Ltd' } });
    expect(single.body).toEqual((await panora('GET', `/magic-link/${res.body.id_invite_link}`)).body);
    const unknown = await panora('GET', '/magic-link/single?id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });
});

describe('the Panora client’s linked-user paths', () => {
  it('addLinkedUser POST /linked-users/create with id_project; getLinkedUser GET /linked-users/single?originId=', async () => {
    const created = await panora('POST', '/linked-users/create', {
      body: { linked_user_origin_id: 'panora-lu', alias: 'Panora LU', id_project: server.tenant.projectId },
    });
    const user = expectEnvelope(created, 201);
    expect(user).toMatchObject({ id_linked_user: expect.any(String), linked_user_origin_id: 'panora-lu', alias: 'Panora LU' });
    const single = await panora('GET', '/linked-users/single?originId=panora-lu');
    expect(expectEnvelope(single, 200)).toEqual(user);
    expect((await panora('GET', '/linked-users/single?originId=nobody')).status).toBe(404);
  });

  it('answers another project’s id_project as one that does not exist', async () => {
    const other = await server.createTenant('panora-other');
    const res = await panora('POST', '/linked-users/create', { body: { linked_user_origin_id: 'x', id_project: other.projectId } });
    expect(res.status).toBe(404);
    expect(res.body.details.field).toBe('id_project');
  });
});
