/**
 * A ticketing provider without HTTP whose sync yields `tickets` generated tickets in pages of `pageSize`: what is
 * measured or tested with it is Omniport's own saving (bench/responsiveness.ts, test/jobs/sync-yields).
 */
import { z } from 'zod';
import type { ProviderAdapter, UnifiedRecord } from '../../src/providers/types';

export function generatedTicket(i: number): UnifiedRecord {
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(i),
    data: {
      name: `Ticket ${i}: the printer on floor ${i % 7} is on fire again`,
      status: 'OPEN',
      description: [`A description of ticket ${i} long enough to look like one a customer wrote. `.repeat(3)],
      due_date: null,
      type: 'incident',
      parent_ticket: null,
      project_id: null,
      tags: ['billing', `t${i % 13}`],
      completed_at: null,
      priority: 'HIGH',
      assigned_to: [],
      account_id: null,
      contact_id: null,
    },
    remoteData: { id: i, subject: `Ticket ${i}`, custom_fields: [{ id: 1, value: i % 3 === 0 }] },
    remoteCreatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    remoteUpdatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
  };
}

export function inMemoryTicketsProvider(o: { name: string; tickets: number; pageSize: number }): ProviderAdapter {
  return {
    manifest: {
      name: o.name,
      displayName: o.name,
      vertical: 'ticketing',
      authKind: 'api_token',
      credentials: z.strictObject({ api_token: z.string().min(1) }),
      capabilities: { 'ticketing.ticket': ['list', 'get', 'sync'] },
    },
    http: { authHeaders: () => ({}), errorMessage: () => undefined },
    verifyCredentials: async () => {},
    syncers: [
      {
        key: 'ticketing.ticket',
        objectTypes: ['ticketing.ticket'],
        incremental: false,
        reportsDeletions: false,
        async *run() {
          for (let start = 0; start < o.tickets; start += o.pageSize) {
            const records = Array.from({ length: Math.min(o.pageSize, o.tickets - start) }, (_, j) => generatedTicket(start + j + 1));
            yield { records, resume: start + o.pageSize < o.tickets ? String(start + o.pageSize) : null };
          }
        },
      },
    ],
  };
}
