import type { z } from 'zod';

export type Vertical = 'ticketing' | 'crm';
export type AuthKind = 'oauth2' | 'api_token' | 'basic';

/** What a provider is, as data: everything the control plane needs without calling it. */
export interface ProviderManifest {
  name: string;
  displayName: string;
  vertical: Vertical;
  authKind: AuthKind;
  /** Schema of the `credentials` object accepted by POST /connections. */
  credentials: z.ZodType<Record<string, string>>;
  /** Used when a connection gives no base_url; absent where the account's URL is required (e.g. Zendesk subdomain). */
  defaultBaseUrl?: string;
}
