import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../services';
import type { ConnectionRow } from '../store/control-plane.repo';
import { accessOf } from './auth';
import { dispatchedConnectionId } from './dispatch';

export const connectionTokenHeaders = z.object({
  'x-connection-token': z.string().min(1).describe('The connection token of the linked user’s connection.'),
});

export const optionalConnectionTokenHeaders = z.object({
  'x-connection-token': z.string().min(1).optional().describe('Optional: if sent, it must be the object’s connection.'),
});

declare module 'fastify' {
  interface FastifyRequest {
    /** The connection of the request's x-connection-token, once resolved (the audit log names it). */
    connection?: ConnectionRow;
  }
}

/** The connection selected by x-connection-token, inside the caller's project (401 otherwise). */
export async function connectionOf(services: Services, request: FastifyRequest): Promise<ConnectionRow> {
  const token = request.headers['x-connection-token'];
  const byId = dispatchedConnectionId(request);
  request.connection = byId
    ? await services.connections.resolveId(accessOf(request), byId)
    : await services.connections.resolveToken(accessOf(request), typeof token === 'string' ? token : undefined);
  return request.connection;
}

/** The connection of an optional token, for calls addressed by object id. */
export async function optionalConnectionOf(services: Services, request: FastifyRequest): Promise<ConnectionRow | undefined> {
  return request.headers['x-connection-token'] === undefined ? undefined : connectionOf(services, request);
}

/** `remote_data=true|false`, strictly. */
export const remoteDataQuery = z.object({
  remote_data: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: include the provider’s original object in remote_data.'),
});
