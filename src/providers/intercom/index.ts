/**
 * Intercom REST API (2.14) adapter: tickets, ticket parts as comments, admins, teams, contacts,
 * companies, tags, ticket type attributes for field mapping, and the app's webhooks. Behaviour: docs/providers/intercom.md.
 */
import type { AdapterContext, CustomFieldSupport, ProviderAdapter, RemoteField } from '../types';
import { me, resolveOptions, ticketTypes, type IntercomAdapterOptions, type ResolvedOptions } from './api';
import { intercomHttpProfile } from './http';
import { intercomManifest } from './manifest';
import { intercomSyncers } from './sync';
import { intercomTicketOperations } from './tickets';
import { intercomAppWebhooks } from './webhooks';

export { intercomManifest } from './manifest';
export { intercomHttpProfile, intercomErrorMessage, INTERCOM_VERSION } from './http';
export type { IntercomAdapterOptions } from './api';

/** Ticket type attributes (not the default title and description), by name: the keys of `ticket_attributes`. */
function customFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: ['ticketing.ticket'],
    async list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
      if (objectType !== 'ticketing.ticket') return [];
      const seen = new Map<string, RemoteField>();
      for (const t of await ticketTypes(ctx, { ...o, cacheMs: 0 })) {
        for (const a of t.ticket_type_attributes?.ticket_type_attributes ?? []) {
          if (!a.default && !a.archived && !seen.has(a.name)) seen.set(a.name, { id: a.name, label: a.name, type: a.data_type ?? 'string', object_type: objectType });
        }
      }
      return [...seen.values()];
    },
    read(objectType, remoteData, fieldId) {
      if (objectType !== 'ticketing.ticket') return undefined;
      const attrs = remoteData.ticket_attributes;
      return attrs && typeof attrs === 'object' ? (attrs as Record<string, unknown>)[fieldId] : undefined;
    },
  };
}

export function createIntercomAdapter(options: IntercomAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: intercomManifest,
    http: intercomHttpProfile,
    // `GET /me` names the admin the token acts for; a refused token answers 401.
    verifyCredentials: async (ctx) => void (await me(ctx, { ...o, cacheMs: 0 })),
    syncers: intercomSyncers(o),
    ticketing: intercomTicketOperations(o),
    customFields: customFields(o),
    // Real-time updates: the app's webhooks, routed by workspace (docs/providers/intercom.md).
    appWebhooks: intercomAppWebhooks(o),
  };
}

export const intercomAdapter: ProviderAdapter = createIntercomAdapter();
