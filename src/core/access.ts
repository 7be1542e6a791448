/** Who is calling: resolved from the API key on every authenticated request. */
export interface AccessContext {
  projectId: string;
  userId: string;
  apiKeyId: string;
  /** The key's limits on AI agents (MCP): read tools only, and/or only the named tools (null: all). */
  mcp?: McpKeyScope;
}

export interface McpKeyScope {
  readOnly: boolean;
  tools: string[] | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot exist and is answered as unknown without a query. */
export const isUuid = (value: string) => UUID.test(value);
