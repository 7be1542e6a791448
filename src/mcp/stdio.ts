import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isUuid } from '../core/access';

export interface StdioBridgeOptions {
  /** The running Omniport's base URL (its /mcp endpoint is used). */
  url: string;
  apiKey: string;
  /** A connection id or a connection token; none: every tool takes a `connection` argument. */
  connection?: string;
  readOnly?: boolean;
  tools?: string;
  passthrough?: boolean;
}

/**
 * `omniport mcp`: MCP over stdio for local agents (Claude Desktop, IDEs), relayed message by message to the
 * running server's Streamable HTTP endpoint. The server does everything (authentication, scoping, tools,
 * audit), so a stdio session is exactly an HTTP one, and the sandbox and the embedded database (which live
 * in the server's process) work the same. Resolves when the agent closes standard input.
 */
export async function runStdioBridge(opts: StdioBridgeOptions): Promise<void> {
  const headers: Record<string, string> = { 'x-api-key': opts.apiKey, 'x-mcp-client': 'stdio' };
  if (opts.connection) headers[isUuid(opts.connection) ? 'x-mcp-connection' : 'x-connection-token'] = opts.connection;
  if (opts.readOnly) headers['x-mcp-read-only'] = 'true';
  if (opts.tools) headers['x-mcp-tools'] = opts.tools;
  if (opts.passthrough) headers['x-mcp-passthrough'] = 'true';

  const upstream = new StreamableHTTPClientTransport(new URL('/mcp', opts.url), { requestInit: { headers } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (err) => process.stderr.write(`omniport mcp: ${err.message}\n`);
  // Messages after initialize wait for its answer, which carries the session id they must be sent with (an
  // agent may write them at once); after that they are relayed as they come, so calls run concurrently.
  let initialized: Promise<unknown> = Promise.resolve();
  local.onmessage = (message: JSONRPCMessage) => {
    const send = isInitializeRequest(message) ? upstream.send(message) : initialized.then(() => upstream.send(message));
    if (isInitializeRequest(message)) initialized = send.catch(() => {});
    send.catch((err: Error) => {
      // A request the server did not answer (401, unreachable) gets an error, so the agent is not left waiting
      // (the transport's onerror has printed why).
      if ('id' in message && 'method' in message) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32001, message: err.message } });
    });
  };
  await upstream.start();
  await local.start();
  await closed;
  await upstream.terminateSession().catch(() => {});
  await upstream.close();
}
