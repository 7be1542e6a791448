import { v5 as uuidv5 } from 'uuid';

const NAMESPACE = 'c6f0f0a4-8f6e-4d4b-9a53-7c2e8f1d0b11';

/**
 * Omniport's id of a provider object: derived from (connection, object type, remote id), so it never
 * changes, needs no lookup when a synced object refers to another one, and differs across connections.
 */
export function unifiedId(connectionId: string, objectType: string, remoteId: string): string {
  return uuidv5(`${connectionId}\u0000${objectType}\u0000${remoteId}`, NAMESPACE);
}

export type IdOf = (objectType: string, remoteId: string | number | null | undefined) => string | null;

export function idFactory(connectionId: string): IdOf {
  return (objectType, remoteId) =>
    remoteId === null || remoteId === undefined || remoteId === '' ? null : unifiedId(connectionId, objectType, String(remoteId));
}
