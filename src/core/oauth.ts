import { createHash, randomUUID } from 'node:crypto';
import { AppError, notFound } from './errors';
import { randomBase62, type SecretBox, type Signer } from './secrets';
import { redirectAllowed, type ConnectSettingsService } from './connect-settings';
import type { ActiveLink, ConnectService } from './connect';
import { linkStatus } from './connect';
import type { ConnectionService, ConnectionView } from './connections';
import type { OAuthAppService } from './oauth-apps';
import { accountHosts, assertOAuthHost } from './oauth-hosts';
import type { HttpTuning, TokenRefresher } from './provider-context';
import { beforeTheWrite, ProviderError, ProviderHttpClient } from '../providers/http-client';
import type { ProviderManifest } from '../providers/manifest';
import type { ProviderRegistry } from '../providers/registry';
import type { ConnectionRow, LinkedUserRow } from '../store/control-plane.repo';
import type { ConnectRepo, OAuthAppRow, OAuthFlowRow } from '../store/connect.repo';

/** HKDF purpose of the key that signs `state`. */
export const STATE_KEY_PURPOSE = 'oauth-state';
/** An access token expiring within this margin is renewed before the request. */
export const REFRESH_MARGIN_MS = 60_000;

/** The manifest's OAuth block; `clientAuth` says how the token endpoint authenticates the client (default: form body). */
type OAuthSpec = NonNullable<ProviderManifest['oauth']> & { clientAuth?: 'basic' | 'post' };

export interface OAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
  pkce: boolean;
  clientAuth: 'basic' | 'post';
  tokenRequestBody: 'form' | 'json';
  /** `scope` is sent with the token requests too. */
  tokenRequestScope: boolean;
}

/** `<flow id>.<expiry, epoch seconds>.<HMAC>`: the HMAC also covers the nonce kept in the browser's cookie. */
export function signState(signer: Signer, flowId: string, expiresAtSeconds: number, nonce: string): string {
  return `${flowId}.${expiresAtSeconds}.${signer.sign(`state.v1|${flowId}|${expiresAtSeconds}|${nonce}`)}`;
}

/** The cookie that binds a flow to the browser that started it (RFC 6749 §10.12). */
export const flowCookieName = (flowId: string) => `omniport_oauth_${flowId.replace(/-/g, '')}`;

export function parseState(state: string): { flowId: string; exp: number; signature: string } | undefined {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(state);
  return match ? { flowId: match[1]!, exp: Number(match[2]), signature: match[3]! } : undefined;
}

/** The cookie's content: the nonce, and the magic link's secret (to offer "try again" on an error page). */
export function readFlowCookie(state: string | undefined, cookies: Record<string, string>): { nonce: string; linkToken: string } | undefined {
  const parsed = state ? parseState(state) : undefined;
  const value = parsed ? cookies[flowCookieName(parsed.flowId)] : undefined;
  const match = value ? /^([A-Za-z0-9]+)\.(ml_[A-Za-z0-9]+)$/.exec(value) : null;
  return match ? { nonce: match[1]!, linkToken: match[2]! } : undefined;
}

/** Why a callback failed: the connect page shows a page per reason. */
export type FlowFailure =
  | 'state_missing'
  | 'state_invalid'
  | 'state_expired'
  | 'state_used'
  | 'link_revoked'
  | 'access_denied'
  | 'provider_error'
  | 'token_exchange_failed';

const flowError = (reason: FlowFailure, message: string, extra: Record<string, unknown> = {}) =>
  new AppError(reason === 'token_exchange_failed' ? 'provider_error' : 'bad_request', message, { reason, ...extra });

export interface StartedFlow {
  authorizeUrl: string;
  cookie: { name: string; value: string; maxAgeSeconds: number; secure: boolean };
}

export interface CompletedFlow {
  view: ConnectionView & { reauthorized: boolean };
  manifest: ProviderManifest;
  /** Where the success page may send the user back: allowed by the project now, or null. */
  redirectUrl: string | null;
  /** The magic link the flow started from (the audit log's actor). */
  inviteLinkId: string | null;
}

/** A site the tokens reach (Atlassian: a Jira site and its cloud id), as the linked user chooses it. */
export interface AccountSite {
  id: string;
  name: string;
  url: string;
}

/**
 * The code was exchanged but its tokens reach several sites: the connect page asks which one, and posts the
 * choice back with the same state (its cookie is still there). `error` says why a choice was refused.
 */
export interface SiteChoice {
  state: string;
  manifest: ProviderManifest;
  sites: AccountSite[];
  error?: string;
}

/** What a flow waiting for a site choice keeps (encrypted) on its row. */
interface PendingTokens {
  tokens: TokenResponse;
  sites: AccountSite[];
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  [extra: string]: unknown;
}

/** The provider refused the grant (400/401 from its token endpoint, or an `error` body): definitive. */
class OAuthRefused extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly status: number,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}

/**
 * OAuth 2.0 authorization-code flows of the hosted connect page (PKCE where the provider supports it;
 * a signed, expiring, single-use `state` bound to the browser), and the renewal of access tokens.
 */
export class OAuthService implements TokenRefresher {
  private readonly stateSigner: Signer;
  /** Refreshes in progress in this process, per connection: callers share one. */
  private readonly inflight = new Map<string, Promise<Record<string, string>>>();

  constructor(
    private readonly repo: ConnectRepo,
    private readonly apps: OAuthAppService,
    private readonly connect: ConnectService,
    private readonly connections: ConnectionService,
    private readonly settings: ConnectSettingsService,
    private readonly providers: ProviderRegistry,
    private readonly box: SecretBox,
    private readonly opts: { flowTtlMinutes: number; tuning?: HttpTuning; allowPrivateUrls: boolean },
  ) {
    this.stateSigner = box.signer(STATE_KEY_PURPOSE);
  }

  /**
   * The app's endpoints: its absolute overrides, else the manifest's, relative ones resolved against the account's
   * URL, which must then be one of the provider's hosts (the token request carries the client secret).
   */
  endpoints(manifest: ProviderManifest, app: OAuthAppRow, baseUrl: string | undefined): OAuthEndpoints {
    const spec = manifest.oauth as OAuthSpec | undefined;
    if (!spec) throw new AppError('unsupported_by_provider', `${manifest.name} does not connect with OAuth 2.0`);
    const resolve = (override: string | null, path: string) => {
      if (override) return override;
      if (/^https?:\/\//.test(path)) return path;
      if (!baseUrl) throw new AppError('validation_failed', `${manifest.displayName} needs the address of the account`, { field: 'base_url' });
      assertOAuthHost(manifest, baseUrl, spec.hosts, this.opts.allowPrivateUrls);
      return new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
    };
    return {
      authorizeUrl: resolve(app.authorizeUrl, spec.authorizeUrl),
      tokenUrl: resolve(app.tokenUrl, spec.tokenUrl),
      scopes: (app.scopes ?? spec.scopes).map((scope) => {
        // A scope naming the account's own address (Dynamics: `{base_url}/.default`, the environment as resource).
        if (!scope.includes('{base_url}')) return scope;
        if (!baseUrl) throw new AppError('validation_failed', `${manifest.displayName} needs the address of the account`, { field: 'base_url' });
        return scope.replaceAll('{base_url}', new URL(baseUrl).origin);
      }),
      pkce: spec.pkce,
      clientAuth: spec.clientAuth ?? 'post',
      tokenRequestBody: spec.tokenRequestBody ?? 'form',
      tokenRequestScope: spec.tokenRequestScope === true,
    };
  }

  /** Starts a flow for a provider of an active link: records it, and returns where to send the browser. */
  async start(opened: ActiveLink, linkToken: string, provider: string, typedBaseUrl: string | undefined, callbackUrl: string): Promise<StartedFlow> {
    const offered = await this.connect.linkProvider(opened.link, provider);
    if (!offered.oauth) throw new AppError('not_found', 'this provider is not connected with OAuth here');
    // Where the tokens reach is learnt after the exchange (Jira's sites), not typed.
    const baseUrl = offered.manifest.oauth?.sites
      ? undefined
      : ((await this.connect.accountUrl(offered, typedBaseUrl)) ?? offered.manifest.oauth?.loginUrls?.[0]?.url ?? offered.manifest.defaultBaseUrl);
    const app = await this.repo.findOAuthApp(opened.link.projectId, provider);
    if (!app) throw new AppError('not_found', 'this provider is not connected with OAuth here');
    // The account must be one the app may be used for, before the browser is sent anywhere.
    if (baseUrl) assertOAuthHost(offered.manifest, baseUrl, accountHosts(offered.manifest, app), this.opts.allowPrivateUrls);
    const endpoints = this.endpoints(offered.manifest, app, baseUrl);

    const now = Date.now();
    await this.repo.deleteStaleFlows(new Date(now - 24 * 3_600_000));
    await this.repo.dropStalePending(new Date(now - this.opts.flowTtlMinutes * 60_000));
    const flowId = randomUUID();
    const expiresAt = new Date(now + this.opts.flowTtlMinutes * 60_000);
    const verifier = endpoints.pkce ? randomBase62(48) : undefined;
    await this.repo.insertFlow({
      id: flowId,
      projectId: opened.link.projectId,
      inviteLinkId: opened.link.id,
      provider,
      codeVerifierEncrypted: verifier ? this.box.encrypt(verifier) : null,
      redirectUrl: opened.link.redirectUrl,
      baseUrl: baseUrl ?? null,
      expiresAt,
    });
    const nonce = randomBase62(24);
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const url = new URL(endpoints.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('redirect_uri', callbackUrl);
    const spec = offered.manifest.oauth;
    if (endpoints.scopes.length > 0) url.searchParams.set('scope', endpoints.scopes.join(spec?.scopeSeparator ?? ' '));
    for (const [k, v] of Object.entries(spec?.authorizeParams ?? {})) url.searchParams.set(k, v);
    url.searchParams.set('state', signState(this.stateSigner, flowId, exp, nonce));
    if (verifier) {
      url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
      url.searchParams.set('code_challenge_method', 'S256');
    }
    return {
      authorizeUrl: url.href,
      cookie: {
        name: flowCookieName(flowId),
        value: `${nonce}.${linkToken}`,
        maxAgeSeconds: this.opts.flowTtlMinutes * 60,
        secure: callbackUrl.startsWith('https:'),
      },
    };
  }

  /**
   * The flow of a state this browser started: the signature covers the nonce kept in the browser's cookie.
   */
  private verifiedState(state: string | undefined, cookies: Record<string, string>) {
    if (!state) throw flowError('state_missing', 'the provider sent no state');
    const parsed = parseState(state);
    const cookie = readFlowCookie(state, cookies);
    if (!parsed || !cookie) throw flowError('state_invalid', 'the state is not one this browser started');
    if (!this.stateSigner.verify(`state.v1|${parsed.flowId}|${parsed.exp}|${cookie.nonce}`, parsed.signature)) {
      throw flowError('state_invalid', 'the state is not one this browser started');
    }
    return parsed;
  }

  /** The flow's magic link and linked user, unless the link is gone or revoked. */
  private async flowLink(flow: OAuthFlowRow, now: Date) {
    const found = flow.inviteLinkId ? await this.repo.findInviteLinkById(flow.inviteLinkId) : undefined;
    if (!found) throw flowError('state_invalid', 'the magic link of this authorisation no longer exists');
    if (linkStatus(found.link, now) === 'revoked') throw flowError('link_revoked', 'the magic link was revoked');
    return found;
  }

  /**
   * The provider sent the browser back: checks the state (signature with the browser's nonce, expiry,
   * single use), exchanges the code, and creates (or re-authorises) the connection; or, when the tokens
   * reach several sites, keeps them and asks which site.
   */
  async complete(
    query: { state?: string; code?: string; error?: string; error_description?: string },
    cookies: Record<string, string>,
    callbackUrl: string,
  ): Promise<CompletedFlow | SiteChoice> {
    const parsed = this.verifiedState(query.state, cookies);
    const now = new Date();
    if (parsed.exp * 1000 <= now.getTime()) throw flowError('state_expired', 'the authorisation took too long');
    const flow = await this.repo.consumeFlow(parsed.flowId, now);
    if (!flow) {
      const known = await this.repo.findFlow(parsed.flowId);
      if (known?.usedAt) throw flowError('state_used', 'this authorisation was already used');
      if (known) throw flowError('state_expired', 'the authorisation took too long');
      throw flowError('state_invalid', 'the state is not one this browser started');
    }
    const found = await this.flowLink(flow, now);

    if (query.error) {
      if (query.error === 'access_denied') throw flowError('access_denied', 'access was not granted');
      throw flowError('provider_error', `the provider reported ${query.error}`, { provider_error: query.error, provider_message: query.error_description });
    }
    if (!query.code) throw flowError('provider_error', 'the provider sent no authorisation code');

    const manifest = this.providers.get(flow.provider);
    const app = await this.repo.findOAuthApp(flow.projectId, flow.provider);
    if (!manifest || !app) throw flowError('provider_error', `${flow.provider} is no longer set up for OAuth in this project`);
    const baseUrl = flow.baseUrl ?? manifest.defaultBaseUrl;
    const endpoints = this.endpoints(manifest, app, baseUrl);
    let tokens: TokenResponse;
    try {
      tokens = await this.tokenRequest(`oauth:${flow.projectId}:${flow.provider}`, manifest, endpoints, app, {
        grant_type: 'authorization_code',
        code: query.code,
        redirect_uri: callbackUrl,
        ...(flow.codeVerifierEncrypted ? { code_verifier: this.box.decrypt(flow.codeVerifierEncrypted) } : {}),
        ...scopeParam(endpoints),
      });
    } catch (err) {
      if (err instanceof OAuthRefused) {
        throw flowError('token_exchange_failed', `${manifest.displayName} refused the authorisation code`, {
          provider: manifest.name,
          provider_status: err.status,
          provider_error: err.error,
          provider_message: err.description,
        });
      }
      throw err;
    }
    if (manifest.oauth?.sites) {
      const sites = await this.sitesOf(flow.projectId, manifest, tokens.access_token);
      if (sites.length === 1) return this.finish(flow, found.linkedUser, manifest, tokens, siteBaseUrl(manifest, sites[0]!), now);
      // Several: nothing is chosen for the user; the tokens wait (encrypted, on the used flow) for the choice.
      const pending: PendingTokens = { tokens, sites };
      await this.repo.holdPending(flow.id, this.box.encrypt(JSON.stringify(pending)));
      return { state: query.state!, manifest, sites };
    }
    // Where the account's API lives: the token answer says so for some providers (Salesforce instance_url).
    const accountUrl = manifest.oauth?.accountUrlFromToken ? this.accountUrlOf(manifest, app, tokens) : baseUrl;
    if (!accountUrl) throw flowError('provider_error', `${manifest.displayName} needs the address of the account`);
    return this.finish(flow, found.linkedUser, manifest, tokens, accountUrl, now, baseUrl);
  }

  /**
   * The site the linked user chose among those the flow's tokens reach: only one of them is accepted (a site
   * outside the list is refused and the choice asked again), once, within the flow's lifetime after the callback.
   */
  async chooseSite(state: string | undefined, siteId: string | undefined, cookies: Record<string, string>): Promise<CompletedFlow | SiteChoice> {
    const parsed = this.verifiedState(state, cookies);
    const now = new Date();
    const flow = await this.repo.findFlow(parsed.flowId);
    if (!flow?.usedAt) throw flowError('state_invalid', 'the state is not one this browser started');
    if (!flow.pendingEncrypted) throw flowError('state_used', 'this authorisation was already used');
    if (flow.usedAt.getTime() + this.opts.flowTtlMinutes * 60_000 <= now.getTime()) throw flowError('state_expired', 'the authorisation took too long');
    const found = await this.flowLink(flow, now);
    const manifest = this.providers.get(flow.provider);
    if (!manifest?.oauth?.sites) throw flowError('provider_error', `${flow.provider} is no longer set up for OAuth in this project`);
    const pending = JSON.parse(this.box.decrypt(flow.pendingEncrypted)) as PendingTokens;
    const site = pending.sites.find((s) => s.id === siteId);
    if (!site) {
      const why = siteId ? 'the site sent is not one of them' : 'no site was chosen';
      return { state: state!, manifest, sites: pending.sites, error: `Choose one of the ${manifest.displayName} sites your account gave access to (${why}); nothing was connected.` };
    }
    if (!(await this.repo.takePending(flow.id, flow.pendingEncrypted))) throw flowError('state_used', 'this authorisation was already used');
    return this.finish(flow, found.linkedUser, manifest, pending.tokens, siteBaseUrl(manifest, site), now);
  }

  /** Creates (or re-authorises) the connection of a finished flow. */
  private async finish(
    flow: OAuthFlowRow,
    linkedUser: LinkedUserRow,
    manifest: ProviderManifest,
    tokens: TokenResponse,
    accountUrl: string,
    now: Date,
    loginUrl?: string,
  ): Promise<CompletedFlow> {
    const view = await this.connections.connectAuthorized({
      projectId: flow.projectId,
      linkedUser,
      provider: manifest.name,
      // The login host (Zoho: the data centre's accounts server) where renewals must go, when the API lives elsewhere.
      credentials: credentialsFrom(manifest.oauth?.loginUrlCredential && loginUrl ? { [manifest.oauth.loginUrlCredential]: loginUrl } : {}, tokens, now),
      baseUrl: accountUrl,
      via: 'connect_oauth',
    });
    const { allowedRedirectUrls } = await this.settings.get(flow.projectId);
    const redirectUrl = flow.redirectUrl && redirectAllowed(allowedRedirectUrls, flow.redirectUrl) ? flow.redirectUrl : null;
    return { view, manifest, redirectUrl, inviteLinkId: flow.inviteLinkId };
  }

  /**
   * The sites an access token reaches (Atlassian's accessible-resources), those of this product only (a
   * site's scopes name it), with a cloud id fit for a URL path. None is an error the linked user is told.
   */
  private async sitesOf(projectId: string, manifest: ProviderManifest, accessToken: string): Promise<AccountSite[]> {
    const spec = manifest.oauth!.sites!;
    const url = new URL(spec.resourcesUrl);
    const client = new ProviderHttpClient({
      manifest,
      connectionId: `oauth:${projectId}:${manifest.name}`,
      baseUrl: url.origin,
      authHeaders: () => ({ authorization: `Bearer ${accessToken}` }),
      // Atlassian's gateway answers `{ "code": 401, "message": "Unauthorized" }`.
      errorMessage: (body) => (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message.slice(0, 300) : undefined),
      ...this.opts.tuning,
    });
    let data: unknown;
    try {
      data = (await client.get<unknown>(url.href)).data;
    } catch (err) {
      if (err instanceof ProviderError) {
        throw flowError('provider_error', `${manifest.displayName} did not list the sites of the authorisation`, { provider_status: err.providerStatus, provider_message: err.providerMessage });
      }
      throw err;
    }
    const sites: AccountSite[] = [];
    for (const item of Array.isArray(data) ? (data as Record<string, unknown>[]) : []) {
      const { id, name, url: siteUrl, scopes } = item ?? {};
      if (typeof id !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(id) || typeof siteUrl !== 'string') continue;
      if (spec.scopeMarker && Array.isArray(scopes) && !scopes.some((s) => typeof s === 'string' && s.includes(spec.scopeMarker!))) continue;
      if (sites.some((s) => s.id === id)) continue;
      sites.push({ id, name: typeof name === 'string' && name ? name : siteUrl, url: siteUrl });
    }
    if (sites.length === 0) {
      throw flowError('provider_error', `your account gave access to no ${manifest.displayName} site`, {
        provider_message: `the authorisation reaches no ${manifest.displayName} site: sign in with an account that has one, and allow access to it`,
      });
    }
    return sites;
  }

  // ---- TokenRefresher

  /** OAuth credentials that can be renewed, or at least known to expire. */
  refreshable(credentials: Record<string, string>): boolean {
    return Boolean(credentials.access_token && (credentials.refresh_token || credentials.expires_at));
  }

  expiring(credentials: Record<string, string>): boolean {
    const at = credentials.expires_at ? Date.parse(credentials.expires_at) : NaN;
    return Number.isFinite(at) && at - Date.now() < REFRESH_MARGIN_MS;
  }

  refresh(connection: ConnectionRow, stale: Record<string, string>, reason: 'expiring' | 'unauthorized'): Promise<Record<string, string>> {
    const running = this.inflight.get(connection.id);
    if (running) return running;
    const promise = this.refreshLocked(connection, stale, reason).finally(() => this.inflight.delete(connection.id));
    this.inflight.set(connection.id, promise);
    return promise;
  }

  /**
   * Under the connection's row lock (held across processes until commit): re-reads the credentials, uses
   * them if another process renewed them meanwhile, else calls the token endpoint once and saves the new
   * tokens (a rotated refresh token included) in the same transaction. A refused refresh marks the
   * connection `needs_reauth`; a provider that is down leaves it as it is (503, retried later).
   */
  private async refreshLocked(connection: ConnectionRow, stale: Record<string, string>, reason: 'expiring' | 'unauthorized'): Promise<Record<string, string>> {
    const manifest = this.providers.get(connection.provider);
    // Read before the transaction: on the embedded database a transaction holds the only connection.
    const app = await this.repo.findOAuthApp(connection.projectId, connection.provider);
    const outcome = await this.repo.transaction(async (tx): Promise<{ credentials: Record<string, string> } | { refused: string }> => {
      const row = await tx.lockConnection(connection.id);
      if (!row) throw notFound('connection');
      if (row.status === 'needs_reauth') return { refused: 'the provider refused an earlier refresh' };
      const current = this.box.decryptJson<Record<string, string>>(row.credentialsEncrypted);
      const renewedElsewhere = current.access_token !== stale.access_token;
      if ((renewedElsewhere || reason === 'expiring') && !this.expiring(current)) return { credentials: current };

      const refuse = async (why: string) => {
        await tx.updateConnection(row.id, { status: 'needs_reauth' });
        await tx.insertEvent(row.projectId, {
          type: 'connection.needs_reauth',
          payload: { id_connection: row.id, provider: row.provider, id_linked_user: row.linkedUserId, reason: why },
        });
        return { refused: why };
      };
      if (!current.refresh_token) return refuse('the access token expired and the provider gave no refresh token');
      if (!manifest?.oauth || !app) return refuse(`the project has no OAuth app for ${connection.provider} any more`);
      const loginUrl = manifest.oauth.loginUrlCredential ? current[manifest.oauth.loginUrlCredential] : undefined;
      let endpoints: OAuthEndpoints;
      try {
        endpoints = this.endpoints(manifest, app, loginUrl || (row.baseUrl ?? manifest.defaultBaseUrl));
      } catch (err) {
        // A connection made with a token on a host of its own (POST /connections): the project's app is not for it.
        if (err instanceof AppError && err.code === 'validation_failed') return refuse(`the project's OAuth app does not renew tokens for this address (${err.message})`);
        throw err;
      }
      let tokens: TokenResponse;
      try {
        tokens = await this.tokenRequest(`oauth:${row.id}`, manifest, endpoints, app, { grant_type: 'refresh_token', refresh_token: current.refresh_token, ...scopeParam(endpoints) });
      } catch (err) {
        if (err instanceof OAuthRefused) return refuse(`the provider refused the refresh token (${err.error})`);
        throw err;
      }
      const next = credentialsFrom(current, tokens, new Date());
      // A refresh answer may move the account (Salesforce: an org migrated to another instance).
      const moved = manifest.oauth.accountUrlFromToken && tokens[manifest.oauth.accountUrlFromToken] !== undefined ? this.accountUrlOf(manifest, app, tokens) : undefined;
      await tx.updateConnection(row.id, { credentialsEncrypted: this.box.encryptJson(next), ...(moved && moved !== row.baseUrl ? { baseUrl: moved } : {}) });
      return { credentials: next };
    });
    if ('refused' in outcome) {
      throw new AppError('needs_reauth', `the ${connection.provider} connection needs to be authorised again (${outcome.refused}); send the linked user a new magic link`);
    }
    return outcome.credentials;
  }

  /**
   * The account's API address from a token answer (the manifest's `accountUrlFromToken` field): one of the
   * provider's hosts (or the app's own), as every address the app's tokens are used with.
   */
  private accountUrlOf(manifest: ProviderManifest, app: OAuthAppRow, tokens: TokenResponse): string {
    const field = manifest.oauth!.accountUrlFromToken!;
    const value = tokens[field];
    const hosts = [...new Set([...manifest.oauth!.hosts, ...accountHosts(manifest, app)])];
    try {
      if (typeof value !== 'string') throw new Error('not a string');
      assertOAuthHost(manifest, value, hosts, this.opts.allowPrivateUrls, field);
    } catch {
      throw new AppError('provider_error', `${manifest.displayName}'s token answer has no usable ${field}`, { provider: manifest.name, reason: 'token_exchange_failed' });
    }
    const url = new URL(value);
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  }

  /** POSTs a grant to the token endpoint (form-encoded, or JSON where the manifest says so) through the provider HTTP client. */
  private async tokenRequest(
    limiterKey: string,
    manifest: ProviderManifest,
    endpoints: OAuthEndpoints,
    app: OAuthAppRow,
    grant: Record<string, string>,
  ): Promise<TokenResponse> {
    const url = new URL(endpoints.tokenUrl);
    const secret = this.apps.secretOf(app);
    const form = new URLSearchParams(grant);
    const json = endpoints.tokenRequestBody === 'json';
    const headers: Record<string, string> = { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' };
    if (endpoints.clientAuth === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    } else {
      form.set('client_id', app.clientId);
      form.set('client_secret', secret);
    }
    const client = new ProviderHttpClient({
      manifest,
      connectionId: limiterKey,
      baseUrl: url.origin,
      authHeaders: () => ({}),
      errorMessage: (body) => oauthError(body)?.description ?? oauthError(body)?.error,
      ...this.opts.tuning,
    });
    let data: unknown;
    try {
      // A failed token call is not the caller's write: whatever it was for was not sent.
      const body = json ? JSON.stringify(Object.fromEntries(form)) : form.toString();
      data = (await beforeTheWrite(client.post<unknown>(url.href, { body, headers }), `${manifest.name}'s token endpoint`)).data;
    } catch (err) {
      if (err instanceof ProviderError && (err.providerStatus === 400 || err.providerStatus === 401)) {
        const e = oauthError(err.providerBody);
        throw new OAuthRefused(e?.error ?? 'invalid_request', e?.description, err.providerStatus);
      }
      throw err;
    }
    // Some providers answer form-encoded, or 200 with an error body.
    const body = typeof data === 'string' ? Object.fromEntries(new URLSearchParams(data)) : data;
    const e = oauthError(body);
    if (e) throw new OAuthRefused(e.error, e.description, 200);
    const tokens = body as Partial<TokenResponse> | undefined;
    if (!tokens || typeof tokens.access_token !== 'string' || !tokens.access_token) {
      throw new AppError('provider_error', `${manifest.name}'s token endpoint answered without an access token`, { provider: manifest.name });
    }
    return tokens as TokenResponse;
  }
}

/** The API address of a chosen site (Jira: the gateway with the site's cloud id). */
const siteBaseUrl = (manifest: ProviderManifest, site: AccountSite) => manifest.oauth!.sites!.apiBaseUrl.replace('{id}', encodeURIComponent(site.id));

/** The `scope` of a token request, for providers that take it there too. */
const scopeParam = (e: OAuthEndpoints): Record<string, string> => (e.tokenRequestScope && e.scopes.length > 0 ? { scope: e.scopes.join(' ') } : {});

function oauthError(body: unknown): { error: string; description?: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.error !== 'string' || !b.error) return undefined;
  return { error: b.error, description: typeof b.error_description === 'string' ? b.error_description.slice(0, 500) : undefined };
}

/**
 * Stored credentials from a token response: the access token, the refresh token (the previous one when
 * the provider does not rotate it), `expires_at` (ISO) from `expires_in`, and the other string fields the
 * provider returns (e.g. the account's API domain).
 */
function credentialsFrom(previous: Record<string, string>, tokens: TokenResponse, now: Date): Record<string, string> {
  const next: Record<string, string> = { ...previous };
  delete next.expires_at;
  for (const [key, value] of Object.entries(tokens)) {
    if (key === 'expires_in' || key === 'id_token') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') next[key] = String(value);
  }
  const expiresIn = Number(tokens.expires_in);
  if (tokens.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0) {
    next.expires_at = new Date(now.getTime() + expiresIn * 1000).toISOString();
  }
  return next;
}
