import { AppError } from './errors';
import { idFactory } from './unified/ids';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { ProviderRegistry } from '../providers/registry';
import type { AdapterContext, ProviderAdapter } from '../providers/types';
import { ProviderHttpClient, type HttpClientOptions, type ProviderResponse, type RequestOptions } from '../providers/http-client';
import type { Dispatcher } from 'undici';
import type { SecretBox } from './secrets';
import type { ProviderBudgets } from '../providers/budgets';
import type { ProviderManifest } from '../providers/manifest';

export interface HttpTuning {
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  maxRetryAfterMs?: number;
  /** OMNIPORT_ALLOW_PRIVATE_URLS: calls may dial private and loopback addresses. */
  allowPrivateAddresses?: boolean;
  /** OMNIPORT_PACE_PROVIDER_BUDGETS: calls paced to the budgets the providers document (manifest `budgets`). */
  paceBudgets?: boolean;
  /** Told of every call's attempts (the dashboard's provider call log). */
  onCall?: HttpClientOptions['onCall'];
  /** Where the budgets are counted: PostgreSQL shares them between processes (see providers/budgets.ts). */
  budgets?: ProviderBudgets;
  /** OMNIPORT_PROVIDER_BUDGETS: the customers' plan limits, by `<provider>.<budget>`, over the manifests' defaults. */
  budgetOverrides?: Record<string, { requests: number; perSeconds: number }>;
}

/** Renews OAuth access tokens (src/core/oauth.ts); set on ProviderContexts when the services are wired. */
export interface TokenRefresher {
  /** The credentials can be renewed (an OAuth access token with a refresh token). */
  refreshable(credentials: Record<string, string>): boolean;
  /** The access token expires within the refresh margin. */
  expiring(credentials: Record<string, string>): boolean;
  /**
   * Fresh credentials for the connection, after `stale` was found expiring or refused (401): one refresh
   * per connection at a time, across processes. Throws `needs_reauth` when the provider refuses the refresh.
   */
  refresh(connection: ConnectionRow, stale: Record<string, string>, reason: 'expiring' | 'unauthorized'): Promise<Record<string, string>>;
}

/** A client that renews the connection's access token before a request when it is about to expire. */
class RefreshingHttpClient extends ProviderHttpClient {
  constructor(
    opts: HttpClientOptions,
    private readonly ensureFresh: () => Promise<void>,
  ) {
    super(opts);
  }

  override async request<T>(method: Dispatcher.HttpMethod, path: string, o: RequestOptions = {}): Promise<ProviderResponse<T>> {
    // Before the request, not inside authHeaders: the client treats a failure there as a network error.
    await this.ensureFresh();
    return super.request<T>(method, path, o);
  }
}

/** Builds what an adapter needs to act on one connection: its adapter, credentials and HTTP client. */
export class ProviderContexts {
  /** Renews OAuth tokens before expiry and on a 401; without it tokens are used until refused. */
  refresher: TokenRefresher | undefined;

  constructor(
    private readonly providers: ProviderRegistry,
    private readonly box: SecretBox,
    private readonly tuning: HttpTuning = {},
  ) {}

  /** Every provider's adapter. */
  adapters(): ProviderAdapter[] {
    return this.providers.names().map((name) => this.providers.adapter(name)!);
  }

  adapterOf(connection: ConnectionRow): ProviderAdapter {
    const adapter = this.providers.adapter(connection.provider);
    if (!adapter) throw new AppError('unprocessable', `provider ${connection.provider} is no longer available`);
    return adapter;
  }

  /**
   * The adapter and its context; a connection that needs re-authorisation is refused before any call.
   * `background` (sync jobs) may wait longer on a provider's rate limit than a client's request, which
   * answers 503 with Retry-After rather than hang.
   */
  forConnection(connection: ConnectionRow, o: { background?: boolean } = {}): { adapter: ProviderAdapter; ctx: AdapterContext } {
    if (connection.status === 'needs_reauth') {
      throw new AppError('needs_reauth', `the ${connection.provider} connection needs to be authorised again (its credentials were refused)`);
    }
    const adapter = this.adapterOf(connection);
    const credentials = this.box.decryptJson<Record<string, string>>(connection.credentialsEncrypted);
    const baseUrl = adapter.manifest.sandbox?.baseUrl(connection.projectId) ?? connection.baseUrl ?? adapter.manifest.defaultBaseUrl ?? '';
    const refresher = this.refresher;
    const background = o.background === true;
    if (!refresher?.refreshable(credentials)) return { adapter, ctx: this.build(adapter, connection.id, baseUrl, credentials, background) };

    // One credentials object, updated in place: the auth headers of the next attempt and adapters reading
    // ctx.credentials see the renewed token.
    const renew = async (reason: 'expiring' | 'unauthorized') => {
      const fresh = await refresher.refresh(connection, { ...credentials }, reason);
      for (const key of Object.keys(credentials)) delete credentials[key];
      Object.assign(credentials, fresh);
    };
    const http = new RefreshingHttpClient(
      {
        ...this.clientOptions(adapter, connection.id, baseUrl, credentials, background),
        // A refused token without a refresh token is a provider error (502), not a reason to give up on the connection.
        onUnauthorized: async () => {
          if (!credentials.refresh_token) return false;
          await renew('unauthorized');
          return true;
        },
      },
      async () => {
        if (refresher.expiring(credentials)) await renew('expiring');
      },
    );
    return { adapter, ctx: { connectionId: connection.id, baseUrl, credentials, http, ids: idFactory(connection.id) } };
  }

  /** A context for credentials not yet stored (checking them before creating the connection); a sandbox's `baseUrl` is its account's address. */
  build(adapter: ProviderAdapter, connectionId: string, baseUrl: string, credentials: Record<string, string>, background = false): AdapterContext {
    const http = new ProviderHttpClient(this.clientOptions(adapter, connectionId, baseUrl, credentials, background));
    return { connectionId, baseUrl, credentials, http, ids: idFactory(connectionId) };
  }

  /** Longest Retry-After a call waits out: a request's caller is answered 503 sooner; a sync job waits longer. */
  private maxWaitMs(background: boolean): number {
    return this.tuning.maxRetryAfterMs ?? (background ? 60_000 : 10_000);
  }

  private readonly overridden = new Map<ProviderManifest, ProviderManifest>();

  /** The manifest with the operator's budgets (their customers' plans) in place of the documented defaults. */
  private withBudgetOverrides(manifest: ProviderManifest): ProviderManifest {
    const overrides = this.tuning.budgetOverrides ?? {};
    if (!manifest.budgets?.some((b) => overrides[`${manifest.name}.${b.name}`])) return manifest;
    let copy = this.overridden.get(manifest);
    if (!copy) {
      copy = { ...manifest, budgets: manifest.budgets.map((b) => ({ ...b, ...overrides[`${manifest.name}.${b.name}`] })) };
      this.overridden.set(manifest, copy);
    }
    return copy;
  }

  /** `background` (sync jobs, webhook processing): a longer wait on rate limits, and its own concurrency lane. */
  private clientOptions(adapter: ProviderAdapter, connectionId: string, baseUrl: string, credentials: Record<string, string>, background: boolean): HttpClientOptions {
    return {
      manifest: this.withBudgetOverrides(adapter.manifest),
      connectionId,
      baseUrl,
      authHeaders: () => adapter.http.authHeaders(credentials),
      errorMessage: (body) => adapter.http.errorMessage(body),
      isRateLimited: adapter.http.isRateLimited?.bind(adapter.http),
      ...this.tuning,
      maxRetryAfterMs: this.maxWaitMs(background),
      background,
      // The sandbox listens on loopback; its address is Omniport's own, never a tenant's.
      ...(adapter.manifest.sandbox ? { allowPrivateAddresses: true } : {}),
    };
  }
}
