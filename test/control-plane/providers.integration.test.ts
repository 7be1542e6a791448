import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false });
});
afterAll(() => server.close());

it('lists the registered providers with their credential fields, capabilities and limitations', async () => {
  const res = await server.call('GET', '/providers');
  expect(res.status).toBe(200);
  const zendesk = res.body.data.find((p: { name: string }) => p.name === 'zendesk');
  expect(zendesk).toMatchObject({
    vertical: 'ticketing',
    credential_fields: ['email', 'api_token'],
    oauth: true,
    default_base_url: null,
  });
  expect(zendesk.capabilities['ticketing.ticket']).toEqual(expect.arrayContaining(['create', 'batch_create', 'update', 'sync', 'incremental_sync']));
  expect(zendesk.limitations.length).toBeGreaterThan(0);
  const close = res.body.data.find((p: { name: string }) => p.name === 'close');
  expect(close).toMatchObject({ vertical: 'crm', credential_fields: ['api_key'], oauth: true, default_base_url: 'https://api.close.com' });
  expect(close.capabilities['crm.deal']).toEqual(expect.arrayContaining(['create', 'batch_create', 'update', 'sync', 'incremental_sync']));
  expect(close.limitations.join(' ')).toContain('whole cents');
  const salesforce = res.body.data.find((p: { name: string }) => p.name === 'salesforce');
  expect(salesforce).toMatchObject({ vertical: 'crm', auth_kind: 'oauth2', oauth: true, default_base_url: null });
  expect(salesforce.credential_fields).toContain('access_token');
  expect(salesforce.capabilities['crm.engagement']).toEqual(expect.arrayContaining(['create', 'batch_create', 'update', 'sync', 'incremental_sync']));
  expect(salesforce.limitations.join(' ')).toContain('OpportunityContactRole');
  const attio = res.body.data.find((p: { name: string }) => p.name === 'attio');
  expect(attio).toMatchObject({ vertical: 'crm', credential_fields: ['access_token'], oauth: true, default_base_url: 'https://api.attio.com' });
  expect(attio.capabilities['crm.contact']).not.toContain('incremental_sync');
  expect(attio.capabilities['crm.engagement']).toBeUndefined();
  const dynamics = res.body.data.find((p: { name: string }) => p.name === 'dynamics');
  expect(dynamics).toMatchObject({ vertical: 'crm', auth_kind: 'oauth2', oauth: true, default_base_url: null, display_name: 'Microsoft Dynamics 365 Sales' });
  expect(dynamics.capabilities['crm.deal']).toEqual(expect.arrayContaining(['create', 'batch_create', 'update', 'sync', 'incremental_sync']));
  expect(dynamics.limitations.join(' ')).toContain('change tracking');
  const zoho = res.body.data.find((p: { name: string }) => p.name === 'zoho');
  expect(zoho).toMatchObject({ vertical: 'crm', auth_kind: 'oauth2', oauth: true, default_base_url: 'https://www.zohoapis.com' });
  expect(zoho.capabilities['crm.deal']).toEqual(expect.arrayContaining(['create', 'batch_create', 'update', 'sync', 'incremental_sync']));
  expect(zoho.limitations.join(' ')).toContain('Deleted Records API');
  const sell = res.body.data.find((p: { name: string }) => p.name === 'zendesk-sell');
  expect(sell).toMatchObject({ vertical: 'crm', credential_fields: ['access_token'], oauth: true, default_base_url: 'https://api.getbase.com' });
  expect(sell.capabilities['crm.contact']).toContain('incremental_sync');
  expect(sell.capabilities['crm.engagement']).not.toContain('incremental_sync');
  expect((await server.call('GET', '/providers', { apiKey: null })).status).toBe(401);
});

it('lists Freshdesk and Intercom with what they can do and what they cannot', async () => {
  const res = await server.call('GET', '/providers');
  const byName = (n: string) => res.body.data.find((p: { name: string }) => p.name === n);
  expect(byName('freshdesk')).toMatchObject({ vertical: 'ticketing', credential_fields: ['api_key'], oauth: false, default_base_url: null });
  expect(byName('freshdesk').capabilities['ticketing.account']).toEqual(expect.arrayContaining(['sync']));
  expect(byName('intercom')).toMatchObject({ vertical: 'ticketing', credential_fields: ['access_token'], oauth: true, default_base_url: 'https://api.intercom.io' });
  expect(byName('intercom').capabilities['ticketing.attachment']).not.toContain('create');
  for (const n of ['freshdesk', 'intercom']) expect(byName(n).limitations.length).toBeGreaterThan(0);
  // Jira takes an API token (the fields shown) or OAuth tokens (its OAuth app renews them and signs dynamic webhooks).
  expect(byName('jira')).toMatchObject({ credential_fields: ['email', 'api_token'], oauth: true, auth_kind: 'basic' });
});

it('lists Asana with its credentials, OAuth, collections and what it cannot do', async () => {
  const res = await server.call('GET', '/providers');
  const asana = res.body.data.find((p: { name: string }) => p.name === 'asana');
  expect(asana).toMatchObject({ vertical: 'ticketing', credential_fields: ['access_token', 'workspace_gid'], oauth: true, default_base_url: 'https://app.asana.com/api/1.0' });
  expect(asana.capabilities['ticketing.collection']).toEqual(expect.arrayContaining(['sync']));
  expect(asana.capabilities['ticketing.contact']).toBeUndefined();
  expect(asana.limitations.join(' ')).toMatch(/IN_PROGRESS and ON_HOLD are refused/);
});

it('lists ClickUp with its credentials, OAuth, collections and what it cannot do', async () => {
  const res = await server.call('GET', '/providers');
  const clickup = res.body.data.find((p: { name: string }) => p.name === 'clickup');
  expect(clickup).toMatchObject({ vertical: 'ticketing', credential_fields: ['access_token', 'workspace_id'], oauth: true, default_base_url: 'https://api.clickup.com/api' });
  expect(clickup.capabilities['ticketing.collection']).toEqual(expect.arrayContaining(['sync']));
  expect(clickup.limitations.join(' ')).toMatch(/ON_HOLD is refused/);
});

it('lists ServiceNow and Help Scout with their credentials, OAuth and what they cannot do', async () => {
  const res = await server.call('GET', '/providers');
  const byName = (n: string) => res.body.data.find((p: { name: string }) => p.name === n);
  // ServiceNow: the instance URL is required; basic auth or OAuth against the instance.
  expect(byName('servicenow')).toMatchObject({ vertical: 'ticketing', credential_fields: ['username', 'password'], oauth: true, default_base_url: null });
  expect(byName('servicenow').capabilities['ticketing.team']).toEqual(expect.arrayContaining(['sync']));
  expect(byName('servicenow').capabilities['ticketing.tag']).toBeUndefined();
  expect(byName('servicenow').limitations.join(' ')).toMatch(/sys_audit_delete/);
  expect(byName('helpscout')).toMatchObject({ vertical: 'ticketing', auth_kind: 'oauth2', credential_fields: ['access_token'], oauth: true, default_base_url: 'https://api.helpscout.net' });
  expect(byName('helpscout').capabilities['ticketing.collection']).toEqual(expect.arrayContaining(['sync']));
  expect(byName('helpscout').capabilities['ticketing.account']).toBeUndefined();
  expect(byName('helpscout').limitations.join(' ')).toMatch(/IN_PROGRESS is refused/);
});
