import type { IncomingHttpHeaders } from 'node:http';
import type { AccessContext } from '../core/access';
import { AppError } from '../core/errors';
import type { Services } from '../services';

/**
 * What an MCP session may call. Fixed when the session opens, from the API key (mcp_read_only, mcp_tools),
 * and the session's headers, which can only narrow it: `x-mcp-read-only: true`, `x-mcp-tools: a,b`,
 * `x-mcp-passthrough: true` (passthrough is off otherwise). The project's mcp_read_only is read at each call.
 */
export interface McpScope {
  readOnly: boolean;
  readOnlyBecause?: string;
  tools: Set<string> | null;
  toolsBecause?: string;
  passthrough: boolean;
}

export interface McpSession {
  projectId: string;
  apiKeyId: string;
  /** The session's connection (x-connection-token, or x-mcp-connection with its id); else tools take `connection`. */
  connection?: { id: string; provider: string };
  scope: McpScope;
  /** `stdio` when the session is `omniport mcp`'s (named in the audit log). */
  client?: string;
  /** Refuses a `connection` argument outside the project or the session's linked user (x-linked-user-id). */
  checkConnection(id: string): Promise<void>;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

const flag = (headers: IncomingHttpHeaders, name: string): boolean => {
  const value = header(headers, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new AppError('validation_failed', `${name}: true or false`, { field: name });
};

/** Opens a session for an authenticated initialize request; a bad connection is a 401 before any MCP exchange. */
export async function openSession(services: Services, access: AccessContext, headers: IncomingHttpHeaders, toolNames: Set<string>): Promise<McpSession> {
  const token = header(headers, 'x-connection-token');
  const connectionId = header(headers, 'x-mcp-connection');
  const row = token ? await services.connections.resolveToken(access, token) : connectionId ? await services.connections.resolveId(access, connectionId) : undefined;
  const linkedUserId = header(headers, 'x-linked-user-id');

  const readOnlyHeader = flag(headers, 'x-mcp-read-only');
  const keyReadOnly = access.mcp?.readOnly ?? false;
  const listed = header(headers, 'x-mcp-tools')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = listed?.filter((n) => !toolNames.has(n)) ?? [];
  if (unknown.length) throw new AppError('validation_failed', `x-mcp-tools: no tool named ${unknown.join(', ')}`, { field: 'x-mcp-tools' });
  const keyTools = access.mcp?.tools ?? null;
  let tools: Set<string> | null = null;
  if (keyTools && listed) tools = new Set(listed.filter((n) => keyTools.includes(n)));
  else if (keyTools ?? listed) tools = new Set(keyTools ?? listed);

  return {
    projectId: access.projectId,
    apiKeyId: access.apiKeyId,
    connection: row ? { id: row.id, provider: row.provider } : undefined,
    client: header(headers, 'x-mcp-client') === 'stdio' ? 'stdio' : undefined,
    scope: {
      readOnly: keyReadOnly || readOnlyHeader,
      readOnlyBecause: keyReadOnly ? 'the API key’s mcp_read_only' : readOnlyHeader ? 'x-mcp-read-only' : undefined,
      tools,
      toolsBecause: keyTools && listed ? 'the API key’s mcp_tools and x-mcp-tools' : keyTools ? 'the API key’s mcp_tools' : 'x-mcp-tools',
      passthrough: flag(headers, 'x-mcp-passthrough'),
    },
    async checkConnection(id: string) {
      const found = await services.connections.resolveId(access, id);
      if (linkedUserId && found.linkedUserId !== linkedUserId) throw new AppError('invalid_connection_token', 'that connection is not one of the session’s linked user (x-linked-user-id)');
    },
  };
}
