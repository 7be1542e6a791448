/**
 * ClickUp API v2 adapter: tasks of one workspace as tickets, comments, attachments, members, user groups as
 * teams, spaces, folders and lists as collections, tags, and list custom fields for field mapping.
 * Behaviour: docs/providers/clickup.md.
 */
import type { AdapterContext, CustomFieldSupport, ProviderAdapter, RemoteField } from '../types';
import { customFields, resolveOptions, workspace, type ClickUpAdapterOptions, type ResolvedOptions } from './api';
import { clickupHttpProfile } from './http';
import { clickupManifest } from './manifest';
import { customFieldValue } from './mappers';
import { clickupSyncers } from './sync';
import { clickupTicketOperations } from './tickets';
import type { CuField } from './types';
import { clickupWebhooks } from './webhooks';

export { clickupManifest } from './manifest';
export { clickupHttpProfile, clickupErrorMessage } from './http';
export type { ClickUpAdapterOptions } from './api';

function taskCustomFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: ['ticketing.ticket'],
    async list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
      if (objectType !== 'ticketing.ticket') return [];
      return (await customFields(ctx, { ...o, cacheMs: 0 })).map((f) => ({ id: f.id, label: f.name ?? f.id, type: f.type ?? 'text', object_type: objectType }));
    },
    read(objectType, remoteData, fieldId) {
      if (objectType !== 'ticketing.ticket' || !Array.isArray(remoteData.custom_fields)) return undefined;
      const field = (remoteData.custom_fields as CuField[]).find((f) => f && f.id === fieldId);
      return field ? customFieldValue(field) : undefined;
    },
  };
}

export function createClickUpAdapter(options: ClickUpAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: clickupManifest,
    http: clickupHttpProfile,
    // `GET /v2/team` answers the workspaces the token reaches; the connection's must be among them.
    verifyCredentials: async (ctx) => void (await workspace(ctx, { ...o, cacheMs: 0 })),
    syncers: clickupSyncers(o),
    ticketing: clickupTicketOperations(o),
    customFields: taskCustomFields(o),
    webhooks: clickupWebhooks(o),
  };
}

export const clickupAdapter: ProviderAdapter = createClickUpAdapter();
