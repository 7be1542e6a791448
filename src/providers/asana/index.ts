/**
 * Asana REST API adapter: tasks of the workspace's projects as tickets, comment stories, attachments, users,
 * teams, projects as collections, tags, and task custom fields for field mapping. Behaviour:
 * docs/providers/asana.md.
 */
import type { AdapterContext, CustomFieldSupport, ProviderAdapter, RemoteField } from '../types';
import { customFields, me, resolveOptions, workspace, type AsanaAdapterOptions, type ResolvedOptions } from './api';
import { asanaHttpProfile } from './http';
import { asanaManifest } from './manifest';
import { customFieldValue } from './mappers';
import { asanaSyncers } from './sync';
import { asanaTicketOperations } from './tickets';
import type { AsCustomField } from './types';
import { asanaWebhooks } from './webhooks';

export { asanaManifest } from './manifest';
export { asanaHttpProfile, asanaErrorMessage } from './http';
export type { AsanaAdapterOptions } from './api';

/** Task custom fields of the workspace, by gid. */
function taskCustomFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: ['ticketing.ticket'],
    async list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
      if (objectType !== 'ticketing.ticket') return [];
      return (await customFields(ctx, { ...o, cacheMs: 0 })).map((f) => ({ id: f.gid, label: f.name ?? f.gid, type: f.resource_subtype ?? f.type ?? 'text', object_type: objectType }));
    },
    read(objectType, remoteData, fieldId) {
      if (objectType !== 'ticketing.ticket' || !Array.isArray(remoteData.custom_fields)) return undefined;
      const field = (remoteData.custom_fields as AsCustomField[]).find((f) => f && f.gid === fieldId);
      return field ? customFieldValue(field) : undefined;
    },
  };
}

export function createAsanaAdapter(options: AsanaAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: asanaManifest,
    http: asanaHttpProfile,
    // `GET /users/me` names the token's user; the workspace (given or its first) must be readable.
    verifyCredentials: async (ctx) => {
      await me(ctx, { ...o, cacheMs: 0 });
      await workspace(ctx, { ...o, cacheMs: 0 });
    },
    syncers: asanaSyncers(o),
    ticketing: asanaTicketOperations(o),
    customFields: taskCustomFields(o),
    webhooks: asanaWebhooks(o),
  };
}

export const asanaAdapter: ProviderAdapter = createAsanaAdapter();
