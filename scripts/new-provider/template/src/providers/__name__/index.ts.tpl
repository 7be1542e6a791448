/**
 * __Display__ adapter: manifest, HTTP profile, sync streams and ticketing writes. Mapping tables and
 * behaviour: docs/providers/__name__.md. Registered by `npm run providers:generate` (this folder's `__camel__Adapter`).
 */
import type { ProviderAdapter } from '../types';
import { resolveOptions, type __Pascal__AdapterOptions } from './api';
import { __camel__HttpProfile } from './http';
import { __camel__Manifest } from './manifest';
import { __camel__Syncers } from './sync';
import { __camel__TicketOperations } from './tickets';

export { __camel__Manifest } from './manifest';
export type { __Pascal__AdapterOptions } from './api';

/** An adapter with its own page size (tests); `__camel__Adapter` uses the defaults. */
export function create__Pascal__Adapter(options: __Pascal__AdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  return {
    manifest: __camel__Manifest,
    http: __camel__HttpProfile,
    // The token's own user: one cheap call, refused with 401 for a bad token.
    verifyCredentials: async (ctx) => void (await ctx.http.get('/api/v1/me')),
    syncers: __camel__Syncers(o),
    ticketing: __camel__TicketOperations(),
  };
}

export const __camel__Adapter: ProviderAdapter = create__Pascal__Adapter();
