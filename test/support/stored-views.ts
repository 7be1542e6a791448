import { expect } from 'vitest';
import type { TestServer } from './harness';

export const TICKETING_READ_PATHS = [
  '/ticketing/tickets',
  '/ticketing/comments',
  '/ticketing/users',
  '/ticketing/contacts',
  '/ticketing/accounts',
  '/ticketing/tags',
  '/ticketing/teams',
  '/ticketing/collections',
  '/ticketing/attachments',
];
export const CRM_READ_PATHS = ['/crm/contacts', '/crm/companies', '/crm/deals', '/crm/notes', '/crm/tasks', '/crm/engagements', '/crm/stages', '/crm/users'];

/** A view without its `remote_data`, nor that of the objects it embeds (a comment's attachments). */
function withoutRemoteData(view: Record<string, unknown>): Record<string, unknown> {
  const { remote_data: _, ...rest } = view;
  for (const [key, value] of Object.entries(rest)) {
    if (Array.isArray(value)) rest[key] = value.map((v) => (v && typeof v === 'object' && 'remote_id' in v ? withoutRemoteData(v as Record<string, unknown>) : v));
  }
  return rest;
}

/**
 * Plain lists and gets answer views the database writes as JSON text; `remote_data=true` builds them in
 * JavaScript through the route's response schema. Both must answer the same objects, field for field.
 */
export async function expectStoredViewsAsBuilt(server: TestServer, headers: Record<string, string>, paths: string[]) {
  let compared = 0;
  for (const path of paths) {
    const stored = await server.call('GET', `${path}?limit=100&include_deleted=true`, { headers });
    const built = await server.call('GET', `${path}?limit=100&include_deleted=true&remote_data=true`, { headers });
    expect(stored.status, `${path}: ${JSON.stringify(stored.body)}`).toBe(200);
    expect(built.status).toBe(200);
    const { data: storedViews, ...storedEnvelope } = stored.body as { data: Record<string, unknown>[] };
    const { data: builtViews, ...builtEnvelope } = built.body as { data: Record<string, unknown>[] };
    expect(storedEnvelope, path).toEqual(builtEnvelope);
    expect(storedViews, path).toEqual(builtViews.map(withoutRemoteData));
    const first = storedViews[0];
    if (!first) continue;
    compared += storedViews.length;
    const one = await server.call('GET', `${path}/${first.id as string}`, { headers });
    const oneBuilt = await server.call('GET', `${path}/${first.id as string}?remote_data=true`, { headers });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...oneBuilt.body, data: withoutRemoteData(oneBuilt.body.data) });
  }
  expect(compared, 'some objects were compared').toBeGreaterThan(0);
}
