import { z } from 'zod';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';

/** An adapter that exists only in tests, for control-plane tests that need some provider name. */
export const testTokenProvider: ProviderAdapter = {
  manifest: {
    name: 'acme-desk',
    displayName: 'Acme Desk (test only)',
    vertical: 'ticketing',
    authKind: 'api_token',
    credentials: z.strictObject({ email: z.email(), api_token: z.string().min(1) }),
    defaultBaseUrl: 'https://acme.invalid',
    capabilities: {},
  },
  http: { authHeaders: () => ({}), errorMessage: () => undefined },
  verifyCredentials: async () => {},
  syncers: [],
};

export const testRegistry = () => new ProviderRegistry([testTokenProvider]);
