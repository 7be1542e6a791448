/**
 * GitLab issues have no custom fields: through Omniport's HTTP API, listing remote fields and writing a
 * value mapped to GitLab are refused with 422 naming the field; nothing reaches GitLab. (No sync is
 * needed: mapped values are checked before any reference is resolved or GitLab is called.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitlabAdapter } from '../../../src/providers/gitlab';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startGitlabSimulator, type GitlabSimulator } from '../../simulators/gitlab';

describe('gitlab: field mapping', () => {
  let sim: GitlabSimulator;
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    sim = await startGitlabSimulator({ validateSpec: false });
    server = await startTestServer({ providers: new ProviderRegistry([gitlabAdapter]), work: false });
    const created = await server.call('POST', '/connections', {
      body: { provider: 'gitlab', linked_user_origin_id: 'fm', credentials: { access_token: sim.token }, base_url: sim.url },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    token = created.body.data.connection_token;
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  it('has no remote fields to list', async () => {
    const res = await server.call('GET', '/field-mapping/remote-fields?object_type=ticketing.ticket', { headers: { 'x-connection-token': token } });
    expect(res.status).toBe(422);
    expect(res.body.details.code).toBe('unsupported_by_provider');
  });

  it('refuses a mapped value on a ticket, naming it, before calling GitLab', async () => {
    const attr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticketing.ticket', name: 'severity', data_type: 'string' } });
    expect(attr.status).toBe(201);
    const map = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: attr.body.data.id_attribute, source_custom_field_id: 'severity', source_provider: 'gitlab', linked_user_id: 'fm' },
    });
    expect(map.status).toBe(201);
    const issuesBefore = sim.state.issues.size;
    sim.clearRequests();
    const res = await server.call('POST', '/ticketing/tickets', {
      headers: { 'x-connection-token': token },
      body: { name: 'with a custom value', field_mappings: { severity: 'high' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'field_mappings.severity' });
    expect(sim.state.issues.size).toBe(issuesBefore);
    expect(sim.requests).toEqual([]);
  });
});
