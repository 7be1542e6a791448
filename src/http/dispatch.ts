import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Requests the MCP server dispatches to the REST routes (`app.inject`, inside this process) carry this header
 * with a secret drawn at start: such a request may name its connection by id (a session opened with a
 * connection id, or a tool's `connection` argument; the id is still looked up inside the caller's project),
 * and its audit entry is the tool call's, written once by src/mcp. Nobody outside the process knows the secret.
 */
const DISPATCH_HEADER = 'x-omniport-dispatch';
const CONNECTION_ID_HEADER = 'x-omniport-connection-id';
const secret = Buffer.from(randomBytes(32).toString('base64url'));

/** The headers of a dispatched request; `connectionId` selects the connection instead of a token. */
export function dispatchHeaders(connectionId?: string): Record<string, string> {
  return {
    [DISPATCH_HEADER]: secret.toString(),
    // The routes' header schema asks for a token: a placeholder, never read when an id is given.
    ...(connectionId ? { [CONNECTION_ID_HEADER]: connectionId, 'x-connection-token': 'by-id' } : {}),
  };
}

export function isDispatched(request: FastifyRequest): boolean {
  const value = request.headers[DISPATCH_HEADER];
  return typeof value === 'string' && value.length === secret.length && timingSafeEqual(Buffer.from(value), secret);
}

/** The connection id of a dispatched request, if it names one. */
export function dispatchedConnectionId(request: FastifyRequest): string | undefined {
  const value = request.headers[CONNECTION_ID_HEADER];
  return isDispatched(request) && typeof value === 'string' ? value : undefined;
}
