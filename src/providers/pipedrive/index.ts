/**
 * Pipedrive adapter (API v2, and v1 for users and notes): manifest, HTTP profile, syncers, CRM writes and
 * custom fields. Mapping tables and behaviour: docs/providers/pipedrive.md.
 */
import type { AdapterContext, ProviderAdapter } from '../types';
import { FieldDefinitions, v1, dataOf, resolveOptions, type PipedriveAdapterOptions } from './api';
import { pipedriveCrmOperations } from './crm';
import { customFieldSupport } from './custom-fields';
import { pipedriveHttpProfile } from './http';
import { pipedriveManifest } from './manifest';
import { pipedriveSyncers } from './sync';
import type { PdEnvelope, PdUser } from './types';
import { pipedriveWebhooks } from './webhooks';

export { pipedriveManifest } from './manifest';
export { pipedriveHttpProfile, pipedriveAuthHeaders, pipedriveErrorMessage } from './http';
export type { PipedriveAdapterOptions } from './api';

/** One cheap call: the user the token acts as. */
async function verifyCredentials(ctx: AdapterContext): Promise<void> {
  dataOf(await ctx.http.get<PdEnvelope<PdUser>>(`${v1(ctx)}/users/me`), 'user');
}

/** An adapter with its own page sizes and cache time (tests and benchmarks); `pipedriveAdapter` uses the defaults. */
export function createPipedriveAdapter(options: PipedriveAdapterOptions = {}): ProviderAdapter {
  const o = resolveOptions(options);
  const defs = new FieldDefinitions(o);
  return {
    manifest: pipedriveManifest,
    http: pipedriveHttpProfile,
    verifyCredentials,
    syncers: pipedriveSyncers(o, defs),
    crm: pipedriveCrmOperations(defs),
    customFields: customFieldSupport(defs),
    webhooks: pipedriveWebhooks,
  };
}

export const pipedriveAdapter: ProviderAdapter = createPipedriveAdapter();
