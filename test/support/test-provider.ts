import { z } from 'zod';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderManifest } from '../../src/providers/manifest';

/** A manifest that exists only in tests, for control-plane tests that need some provider name. */
export const testTokenProvider: ProviderManifest = {
  name: 'acme-desk',
  displayName: 'Acme Desk (test only)',
  vertical: 'ticketing',
  authKind: 'api_token',
  credentials: z.strictObject({ email: z.email(), api_token: z.string().min(1) }),
  defaultBaseUrl: 'https://acme.invalid',
};

export const testRegistry = () => new ProviderRegistry([testTokenProvider]);
