/**
 * The MCP server, driven by the SDK's own Client over Streamable HTTP and over stdio (`omniport mcp`, the
 * production build spawned), against the Zendesk and HubSpot simulators: the tools and their schemas, writes
 * that reach the provider exactly once (a retried call with the same idempotency key creates nothing more),
 * scoping (read-only key, allowlist), authentication (a wrong key is a 401 before any MCP exchange, another
 * project's connection token is refused) and one audit entry per tool call.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../support/harness';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';

const bin = path.resolve(import.meta.dirname, '../../bin/omniport.js');
const HS_TOKEN = 'hs-mcp-token';

describe('MCP server', { timeout: 300_000 }, () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  let hubspot: HubSpotSimulator;
  let zdToken: string;
  let hsToken: string;
  let zdConnectionId: string;
  let readOnlyKey: string;
  const clients: Client[] = [];
  /** Tool calls made by this file (each must be in the audit log once). */
  let calls = 0;

  const httpClient = async (headers: Record<string, string>) => {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    calls++;
    return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const errorCode = (result: CallToolResult) => (result.content[0] as { text: string }).text.split(':')[0];

  beforeAll(async () => {
    zendesk = await startZendeskSimulator({ validateSpec: false });
    hubspot = await startHubSpotSimulator({ accessTokens: [HS_TOKEN] });
    hubspot.seedDeals(3);
    server = await startTestServer();
    zdToken = await connectZendesk(server, zendesk, { origin: 'agent-customer' });
    hsToken = await connectHubSpot(server, hubspot, HS_TOKEN, { origin: 'agent-customer' });
    await syncAndWait(server, zdToken);
    await syncAndWait(server, hsToken);
    const list = await server.call('GET', '/connections');
    zdConnectionId = list.body.data.find((c: { provider: string }) => c.provider === 'zendesk').id_connection;
    const key = await server.call('POST', '/auth/generate-apikey', {
      body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'agent-read-only', mcp_read_only: true },
    });
    expect(key.status).toBe(201);
    readOnlyKey = key.body.api_key;
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await server?.close();
    await zendesk?.close();
    await hubspot?.close();
  });

  it('lists the connection’s tools, each with a description and object input and output schemas', async () => {
    const client = await httpClient({ 'x-api-key': server.tenant.apiKey, 'x-connection-token': zdToken });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'ticketing_list_tickets',
        'ticketing_get_ticket',
        'ticketing_create_ticket',
        'ticketing_create_tickets_batch',
        'ticketing_update_ticket',
        'ticketing_create_comment',
        'ticketing_list_comments',
        'ticketing_create_attachment',
        'sync_get_status',
        'sync_start',
      ]),
    );
    // The connection's vertical only; passthrough off by default.
    expect(names.filter((n) => n.startsWith('crm_'))).toEqual([]);
    expect(names).not.toContain('passthrough_send');
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const create = tools.find((t) => t.name === 'ticketing_create_ticket')!;
    expect(create.inputSchema.required).toContain('idempotency_key');
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['name', 'description', 'priority', 'remote_data']));
    // The provider's limitations from its manifest.
    expect(create.description).toContain('No collections');
  });

  it('creates a ticket and a comment that reach Zendesk once, a retried call creating nothing more, and lists them back', async () => {
    const client = await httpClient({ authorization: `Bearer ${server.tenant.apiKey}`, 'x-connection-token': zdToken });
    const subject = `mcp-ticket-${randomUUID()}`;
    const args = { name: subject, description: 'Raised by an agent', priority: 'HIGH', idempotency_key: randomUUID() };
    const created = await call(client, 'ticketing_create_ticket', args);
    expect(created.isError).toBeFalsy();
    const ticket = created.structuredContent.data;
    expect(ticket.name).toBe(subject);
    expect((created.content[0] as { text: string }).text).toContain(ticket.id);
    const again = await call(client, 'ticketing_create_ticket', args);
    expect(again.structuredContent.data.id).toBe(ticket.id);
    const inZendesk = [...zendesk.state.tickets.values()].filter((t) => t.subject === subject);
    expect(inZendesk).toHaveLength(1);

    const commentArgs = { ticket_id: ticket.id, body: 'An agent looked at it', idempotency_key: randomUUID() };
    const comment = await call(client, 'ticketing_create_comment', commentArgs);
    expect(comment.isError).toBeFalsy();
    await call(client, 'ticketing_create_comment', commentArgs);
    expect(inZendesk[0]!.comments.filter((c) => c.body === 'An agent looked at it')).toHaveLength(1);

    const listed = await call(client, 'ticketing_list_comments', { ticket_id: ticket.id });
    expect(listed.structuredContent.data.map((c: { id: string }) => c.id)).toContain(comment.structuredContent.data.id);
    const got = await call(client, 'ticketing_get_ticket', { id: ticket.id });
    expect(got.structuredContent.data.remote_id).toBe(String(inZendesk[0]!.id));

    // The same ticket as a resource.
    const resource = await client.readResource({ uri: `omniport://ticketing/tickets/${ticket.id}` });
    calls++; // a resource read is dispatched as ticketing_get_ticket, and audited as it
    expect(JSON.parse((resource.contents[0] as { text: string }).text).name).toBe(subject);
    const caps = await client.readResource({ uri: 'omniport://connection/capabilities' });
    expect(JSON.parse((caps.contents[0] as { text: string }).text).capabilities['ticketing.ticket']).toContain('create');

    // A bad argument is the API's own validation error.
    const bad = await call(client, 'ticketing_create_ticket', { name: 'x', priority: 'SOMEDAY', idempotency_key: randomUUID() });
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe('validation_failed');
    const noKey = await call(client, 'ticketing_create_ticket', { name: 'x' });
    expect(errorCode(noKey)).toBe('validation_failed');
  });

  it('updates a deal on a CRM connection', async () => {
    const client = await httpClient({ 'x-api-key': server.tenant.apiKey, 'x-connection-token': hsToken });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['crm_list_deals', 'crm_update_deal', 'crm_create_contact']));
    expect(names.filter((n) => n.startsWith('ticketing_'))).toEqual([]);
    const deals = await call(client, 'crm_list_deals', { limit: 1 });
    const deal = deals.structuredContent.data[0];
    const updated = await call(client, 'crm_update_deal', { id: deal.id, name: 'Renamed by an agent', idempotency_key: randomUUID() });
    expect(updated.isError).toBeFalsy();
    expect(updated.structuredContent.data.name).toBe('Renamed by an agent');
    expect(hubspot.state.objects.deals.get(deal.remote_id)!.properties.dealname).toBe('Renamed by an agent');
    const status = await call(client, 'sync_get_status', {});
    expect(status.structuredContent.data.streams.length).toBeGreaterThan(0);
  });

  it('a read-only key sees no write tool and is refused one by name; a session narrows its tools', async () => {
    const client = await httpClient({ 'x-api-key': readOnlyKey, 'x-connection-token': zdToken });
    const tools = (await client.listTools()).tools;
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.filter((t) => !t.annotations?.readOnlyHint)).toEqual([]);
    const before = zendesk.state.tickets.size;
    const refused = await call(client, 'ticketing_create_ticket', { name: 'not allowed', idempotency_key: randomUUID() });
    expect(refused.isError).toBe(true);
    expect(errorCode(refused)).toBe('forbidden');
    expect(zendesk.state.tickets.size).toBe(before);

    const narrowed = await httpClient({ 'x-api-key': server.tenant.apiKey, 'x-connection-token': zdToken, 'x-mcp-tools': 'ticketing_list_tickets,ticketing_get_ticket' });
    expect((await narrowed.listTools()).tools.map((t) => t.name).sort()).toEqual(['ticketing_get_ticket', 'ticketing_list_tickets']);
    expect(errorCode(await call(narrowed, 'ticketing_list_comments', {}))).toBe('forbidden');
  });

  it('a project made read-only for agents refuses writes at the next call, in sessions already open', async () => {
    const client = await httpClient({ 'x-api-key': server.tenant.apiKey, 'x-connection-token': zdToken });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('ticketing_create_ticket');
    expect((await server.call('PATCH', '/project', { body: { mcp_read_only: true } })).body.data.mcp_read_only).toBe(true);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('ticketing_create_ticket');
      const refused = await call(client, 'ticketing_create_ticket', { name: 'not now', description: 'no', idempotency_key: randomUUID() });
      expect(errorCode(refused)).toBe('forbidden');
      expect((refused.content[0] as { text: string }).text).toContain('mcp_read_only');
    } finally {
      await server.call('PATCH', '/project', { body: { mcp_read_only: false } });
    }
  });

  it('answers a wrong key 401 before any MCP exchange, and refuses another project’s connection token', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const wrong = await server.call('POST', '/mcp', { apiKey: 'sk_test_wrongwrongwrongwrongwrongwrongwrong12', headers, body: init });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details.code).toBe('unauthorized');
    await expect(httpClient({ 'x-api-key': 'sk_test_wrongwrongwrongwrongwrongwrongwrong12', 'x-connection-token': zdToken })).rejects.toThrow(/401/);

    const other = await server.createTenant('mcp-other');
    const otherConnection = await server.call('POST', '/connections', {
      apiKey: other.apiKey,
      body: { provider: 'zendesk', linked_user_origin_id: 'other', credentials: { email: zendesk.credentials[0]!.email, api_token: zendesk.credentials[0]!.apiToken }, base_url: zendesk.url },
    });
    expect(otherConnection.status).toBe(201);
    const foreign = await server.call('POST', '/mcp', { headers: { ...headers, 'x-connection-token': otherConnection.body.data.connection_token }, body: init });
    expect(foreign.status).toBe(401);
    expect(foreign.body.details.code).toBe('invalid_connection_token');
    // Nor as a tool's connection argument.
    const open = await httpClient({ 'x-api-key': server.tenant.apiKey });
    const refused = await call(open, 'ticketing_list_tickets', { connection: otherConnection.body.data.id_connection });
    expect(errorCode(refused)).toBe('invalid_connection_token');
    const allowed = await call(open, 'ticketing_list_tickets', { connection: zdConnectionId, limit: 2 });
    expect(allowed.isError).toBeFalsy();
    expect(allowed.structuredContent.data.length).toBeGreaterThan(0);
  });

  it('serves a local agent over stdio (omniport mcp)', async () => {
    const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--connection', zdConnectionId, '--url', server.url],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OMNIPORT_API_KEY: server.tenant.apiKey },
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toContain('ticketing_create_ticket');
    const subject = `mcp-stdio-${randomUUID()}`;
    const args = { name: subject, description: 'From a local agent', idempotency_key: randomUUID() };
    const first = await call(client, 'ticketing_create_ticket', args);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    await call(client, 'ticketing_create_ticket', args);
    expect([...zendesk.state.tickets.values()].filter((t) => t.subject === subject)).toHaveLength(1);
    const listed = await call(client, 'ticketing_list_tickets', { limit: 5 });
    expect(listed.structuredContent.data.length).toBeGreaterThan(0);
    await client.close();

    // A wrong key over stdio: the connect fails, saying why.
    const wrong = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    const wrongTransport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--connection', zdToken, '--url', server.url],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OMNIPORT_API_KEY: 'sk_test_wrongwrongwrongwrongwrongwrongwrong12' },
      stderr: 'pipe',
    });
    await expect(wrong.connect(wrongTransport)).rejects.toThrow(/401/);
    await wrong.close().catch(() => {});
  });

  it('records every tool call once in the audit log, with the key, the tool and the connection', async () => {
    const rows = await server.sql(`select actor_id, target_id, details from audit_log where action = 'mcp.tool_called' order by created_at`);
    expect(rows).toHaveLength(calls);
    const create = rows.filter((r) => (r.details as { tool: string }).tool === 'ticketing_create_ticket');
    expect(create.length).toBeGreaterThan(0);
    expect(create.every((r) => r.target_id === zdConnectionId)).toBe(true);
    expect(create.some((r) => (r.details as { replayed?: boolean }).replayed)).toBe(true);
    expect(create.some((r) => (r.details as { client?: string }).client === 'stdio')).toBe(true);
    const apiKeys = new Set(rows.map((r) => r.actor_id));
    expect(apiKeys.size).toBe(2); // the tenant's key and the read-only key
    // Dispatched writes are not recorded a second time by their route (sync.requested etc.).
    const others = await server.sql(`select count(*)::int as n from audit_log where action <> 'mcp.tool_called' and action like 'sync.%'`);
    expect(others[0]!.n).toBe(2); // the two syncAndWait calls of the set-up
  });
});

describe('MCP and the per-key rate limit', { timeout: 120_000 }, () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  afterAll(async () => {
    await server?.close();
    await zendesk?.close();
  });

  it('counts each MCP message once, not once more for the route a tool call is dispatched to', async () => {
    zendesk = await startZendeskSimulator({ validateSpec: false });
    server = await startTestServer({ env: { OMNIPORT_RATE_LIMIT_PER_MINUTE: '6' }, work: false });
    const token = await connectZendesk(server, zendesk); // request 1 of the minute
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-connection-token': token };
    const init = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': server.tenant.apiKey },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    }); // 2
    expect(init.status).toBe(200);
    const session = { ...headers, 'x-api-key': server.tenant.apiKey, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    const statuses: (number | string)[] = [];
    for (let id = 2; id <= 6; id++) {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ticketing_list_tickets', arguments: { limit: 1 } } }),
      });
      const body = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
      statuses.push(res.status === 200 ? (body.result.isError ? (body.result.content[0]?.text.split(':')[0] ?? 'error') : 'ok') : res.status);
    }
    // Requests 3 to 6 are answered; the seventh is over the limit of 6, refused before any MCP exchange.
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok', 429]);
  });
});
