/**
 * MCP tool-call overhead: the same operation as a REST call (fetch) and as an MCP tool call (the SDK's
 * Client over Streamable HTTP), against the Zendesk simulator, interleaved so both see the same load.
 * `npx tsx bench/mcp.ts [calls per operation]` (PostgreSQL: BENCH_DATABASE_URL=postgres://…/<empty database>).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, percentile, startBenchServer, syncAll } from './support';

const n = Number(process.argv[2] ?? 200);
const sim = await startZendeskSimulator({ validateSpec: false });
sim.seedTickets(500, { commentsPerTicket: 1 });
// No per-key budget: it would refuse the benchmark's own calls.
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]), { OMNIPORT_RATE_LIMIT_PER_MINUTE: '0' });
const cred = sim.credentials[0]!;
const { connectionId, token } = await connect(bench, { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
await syncAll(bench, connectionId, 'full sync');

const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', bench.url), { requestInit: { headers: { 'x-api-key': bench.apiKey, 'x-connection-token': token } } }));
await client.listTools(); // the client caches the output schemas it validates answers with
const ticketId = (await bench.call('GET', '/ticketing/tickets?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;

const ops: { label: string; rest: () => Promise<unknown>; tool: () => Promise<unknown> }[] = [
  {
    label: 'list 50 tickets',
    rest: () => bench.call('GET', '/ticketing/tickets?limit=50', undefined, { 'x-connection-token': token }),
    tool: () => client.callTool({ name: 'ticketing_list_tickets', arguments: { limit: 50 } }),
  },
  {
    label: 'get a ticket',
    rest: () => bench.call('GET', `/ticketing/tickets/${ticketId}`, undefined, { 'x-connection-token': token }),
    tool: () => client.callTool({ name: 'ticketing_get_ticket', arguments: { id: ticketId } }),
  },
  {
    label: 'create a comment (provider write)',
    rest: () => bench.call('POST', '/ticketing/comments', { ticket_id: ticketId, body: 'bench' }, { 'x-connection-token': token, 'idempotency-key': randomUUID() }),
    tool: () => client.callTool({ name: 'ticketing_create_comment', arguments: { ticket_id: ticketId, body: 'bench', idempotency_key: randomUUID() } }),
  },
];

console.log(`MCP overhead on ${bench.database}, ${n} calls per operation and interface (interleaved)`);
for (const op of ops) {
  // Warm-up.
  for (let i = 0; i < 10; i++) {
    await op.rest();
    await op.tool();
  }
  const rest: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await op.rest();
    rest.push(performance.now() - t);
    t = performance.now();
    await op.tool();
    tool.push(performance.now() - t);
  }
  const f = (v: number) => v.toFixed(1);
  const [r50, r99, t50, t99] = [percentile(rest, 50), percentile(rest, 99), percentile(tool, 50), percentile(tool, 99)];
  console.log(`${op.label}: REST p50 ${f(r50)} / p99 ${f(r99)} ms; MCP tool p50 ${f(t50)} / p99 ${f(t99)} ms; overhead p50 +${f(t50 - r50)} ms`);
}

await client.close();
await bench.omniport.close();
await sim.close();
