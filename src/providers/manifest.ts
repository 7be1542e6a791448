import type { z } from 'zod';

export type Vertical = 'ticketing' | 'crm';
export type AuthKind = 'oauth2' | 'api_token' | 'basic';
export type Verb = 'create' | 'batch_create' | 'update' | 'list' | 'get' | 'sync' | 'incremental_sync';

/** An object type the provider writes (one by one or in batches) and syncs incrementally. */
export const WRITE_AND_SYNC: readonly Verb[] = ['create', 'batch_create', 'update', 'list', 'get', 'sync', 'incremental_sync'];
/** A read-only object type read whole on every sync (users, pipeline stages). */
export const READ_ONLY_SYNC: readonly Verb[] = ['list', 'get', 'sync'];

/** A CRM that writes and syncs incrementally every object type of the interface; stages and users are read whole. */
export function fullCrmCapabilities(): Record<string, Verb[]> {
  const writes = ['crm.contact', 'crm.company', 'crm.deal', 'crm.note', 'crm.task', 'crm.engagement'].map((t) => [t, [...WRITE_AND_SYNC]]);
  return Object.fromEntries([...writes, ['crm.stage', [...READ_ONLY_SYNC]], ['crm.user', [...READ_ONLY_SYNC]]]);
}

/**
 * A limit the provider documents: at most `requests` every `perSeconds` (for requests matching `path` and
 * `methods`), counted per `scope`. Calls are paced to it by one limiter shared by every process on the
 * database (see providers/budgets.ts).
 */
export interface RequestBudget {
  /** How errors and docs name it ("incremental export"). */
  name: string;
  requests: number;
  perSeconds: number;
  /** The endpoint family it applies to (all requests when absent). */
  path?: RegExp;
  /** The methods it applies to (all when absent): GitHub counts content creation apart. */
  methods?: string[];
  /** Calls left out although `path` and `methods` match (Attio's reads: every call but the writes). */
  except?: { path?: RegExp; methods?: string[] };
  /**
   * Who the provider counts it for: `account` when the connection's base URL names the account (a Zendesk
   * subdomain, a Gorgias domain), so connections to one account share it; `connection` when one API host
   * serves every account (HubSpot, GitHub: the token or the portal, which the URL does not tell).
   */
  scope: 'account' | 'connection';
  /**
   * How calls are spread (default `even`: spaced `perSeconds / requests` apart, for second-to-hour windows).
   * `daily`: a count per UTC day, spent as calls come (spacing a day's budget over the day would slow every
   * sync); once spent, calls wait for the next UTC day, which a sync job spends as `waiting_for_rate_limit`.
   * `bucket`: for a leaky bucket charged by cost (Linear's complexity): at most a tenth of the budget in each
   * tenth of the period, so the bucket is never drawn faster than it refills, with bursts inside a tenth.
   */
  pacing?: 'even' | 'daily' | 'bucket';
  /** What one call costs in the budget's unit, for budgets counted in tokens or points (`daily`, `bucket`). */
  cost?: BudgetCost;
}

/** The cost of a call: by endpoint (first match), or read from the provider's answer. Default 1. */
export interface BudgetCost {
  byEndpoint?: { path?: RegExp; methods?: string[]; cost: number }[];
  default?: number;
  /**
   * The answer's header that tells the call's actual cost (Linear's `x-complexity`): `estimate` (or the last
   * cost seen on the connection) is reserved before the call, and the difference settled after it.
   */
  header?: string;
  estimate?: number;
}

/** A provider's OAuth 2.0 authorization-code endpoints and what its token answer carries. */
export interface OAuthSpec {
  authorizeUrl: string;
  tokenUrl: string;
  /**
   * Where an account reached through the project's OAuth app may live (docs/providers/<name>.md says why):
   * host patterns, `*.zendesk.com` for any name under zendesk.com, `login.salesforce.com` for that host. Every
   * address an OAuth flow or a renewal uses — the typed account or login address that relative endpoints resolve
   * against, the account URL a token answer names — must match one (https, default port), so the client secret
   * never goes to a host a linked user typed (src/core/oauth-hosts.ts). Connections made with the customer's own
   * token are not bound by it.
   */
  hosts: string[];
  /** `{base_url}` in a scope is the origin of the connection's base URL (Dynamics: the environment as resource). */
  scopes: string[];
  pkce: boolean;
  /**
   * Login hosts the linked user chooses between on the connect page (Salesforce: production or sandbox);
   * the first is the default. Relative endpoints resolve against the one chosen.
   */
  loginUrls?: { label: string; url: string }[];
  /**
   * Beside `loginUrls`, a login address the linked user may type (Salesforce My Domain); it must match `hosts`.
   */
  typedLoginHost?: { label: string; example: string };
  /**
   * The token answer's field that holds the account's API address (Salesforce `instance_url`): it becomes
   * the connection's base URL, in place of the login host the flow started on.
   */
  accountUrlFromToken?: string;
  /** How the token endpoint takes its parameters: form-encoded (RFC 6749, the default) or a JSON body (ClickUp). */
  tokenRequestBody?: 'form' | 'json';
  /**
   * False: the hosted connect page does not offer this provider's OAuth flow. The project's OAuth app still
   * renews the tokens of connections made with POST /connections, and signs what the provider signs with it.
   */
  connectPage?: boolean;
  /**
   * The token reaches sites the provider lists after the code exchange (Atlassian's accessible-resources,
   * answering `[{ id, name, url, scopes }]`): the connection's base URL is `apiBaseUrl` with the chosen site's
   * `{id}`. One site is taken as it is; among several the linked user chooses on the connect page. Sites
   * whose scopes name none containing `scopeMarker` (another product's, e.g. Confluence) are left out.
   */
  sites?: { resourcesUrl: string; apiBaseUrl: string; scopeMarker?: string };
  /**
   * The token requests repeat the scopes (`scope`), as the Microsoft identity platform expects of a refresh
   * (a token is for one resource; the refresh names it again).
   */
  tokenRequestScope?: boolean;
  /** How the token endpoint authenticates the client: form parameters (default) or HTTP basic (Zendesk Sell). */
  clientAuth?: 'basic' | 'post';
  /** How scopes are joined in the authorization request (RFC 6749: a space; Zoho: a comma). */
  scopeSeparator?: string;
  /** Fixed parameters of the authorization request beyond RFC 6749's (Zoho: `access_type=offline`, `prompt=consent`). */
  authorizeParams?: Record<string, string>;
  /**
   * With `accountUrlFromToken`, for providers whose token endpoint stays on the login host chosen while the
   * API moves to the token answer's address (Zoho: the data centre's accounts server, and `api_domain`): the
   * login host is kept in the credentials under this key, and renewals resolve relative endpoints against it.
   */
  loginUrlCredential?: string;
}

export interface RateLimitHeaders {
  remaining: string;
  reset?: string;
  resetKind?: 'seconds' | 'epoch' | 'epoch-ms';
  /**
   * For a header that tells use against a limit rather than what is left (Salesforce `Sforce-Limit-Info:
   * api-usage=used/max`, Gorgias `X-Gorgias-Account-Api-Call-Limit: used/limit`): `pattern` captures used and
   * max; what is left is max − used, and once used reaches max the connection's calls are held `holdMs` (the
   * provider names no reset: its window rolls or its bucket leaks).
   */
  usage?: { pattern: RegExp; holdMs: number };
}

/** Use and limit from a `usage` header (`undefined` when the header is not one, absent or unreadable). */
export function rateLimitUsage(rl: RateLimitHeaders, headers: Record<string, string> | undefined): { used: number; limit: number; remaining: number } | undefined {
  const m = rl.usage ? rl.usage.pattern.exec(headers?.[rl.remaining] ?? '') : null;
  if (!m) return undefined;
  const used = Number(m[1]);
  const limit = Number(m[2]);
  return { used, limit, remaining: Math.max(0, limit - used) };
}

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
  /** How the account's address looks, as the connect page's example (Dynamics: `https://your-org.crm.dynamics.com`). */
  accountUrlExample?: string;
  /** OAuth 2.0 authorization-code endpoints, relative to the base URL or absolute. */
  oauth?: OAuthSpec;
  /**
   * Response headers that tell how much of the rate limit is left and when it resets; several pairs where
   * the provider counts several budgets (Linear: requests and complexity). A budget at 0 is waited out
   * until its reset: seconds from now, or an epoch in seconds or milliseconds.
   */
  rateLimitHeaders?: RateLimitHeaders | RateLimitHeaders[];
  /**
   * The shortest wait after a rate-limit answer that says neither how long (no Retry-After, no reset):
   * GitHub asks for at least a minute after a secondary limit, or it may ban the integration.
   */
  rateLimitMinWaitMs?: number;
  /** The provider's documented budgets: calls are paced to stay under them (see providers/budgets.ts). */
  budgets?: RequestBudget[];
  /** Unified object type → what can be done with it. */
  capabilities: Record<string, Verb[]>;
  /** Capabilities that exist for the object but not for every field, said plainly (e.g. "no attachments"). */
  limitations?: string[];
  /**
   * A built-in sandbox product (src/sandbox): its live address and credentials come from the sandbox
   * running in this process, never from the tenant.
   */
  sandbox?: SandboxBinding;
}

export interface SandboxBinding {
  /** The address the project's sandbox account listens on now (it changes with every start); throws while it starts. */
  baseUrl(projectId: string): string;
  /** Starts the project's account if it is not running, and answers its address. */
  prepare(projectId: string): Promise<string>;
  credentials(): Record<string, string>;
  /**
   * Where this process receives the sandbox's webhooks (its own address; undefined while it is not listening):
   * the sandbox's simulators deliver to it and to nothing else (src/sandbox/deliver.ts).
   */
  webhookBase(): string | undefined;
}
