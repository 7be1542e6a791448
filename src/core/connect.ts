import { z } from 'zod';
import { AppError } from './errors';
import { hostReach } from './network';
import { sha256Hex, type SecretBox, type Signer } from './secrets';
import { allowedRedirect, type ConnectSettingsService } from './connect-settings';
import type { ConnectionService, ConnectionView } from './connections';
import type { ProviderManifest, Vertical } from '../providers/manifest';
import type { ProviderRegistry } from '../providers/registry';
import type { ConnectionRow, ControlPlaneRepo, LinkedUserRow } from '../store/control-plane.repo';
import type { ConnectRepo, InviteLinkRow, InviteLinkStatus } from '../store/connect.repo';

/** One field of a token-based provider's form, from its credentials schema. */

/** A magic link's secret has a known alphabet (`ml_` + base62): anything else is no link. */
export const isMagicLinkToken = (token: string) => /^ml_[A-Za-z0-9]{20,100}$/.test(token);
export interface CredentialField {
  name: string;
  label: string;
  description?: string;
  /** The input's type: secrets are `password` (never echoed back). */
  type: 'text' | 'email' | 'password' | 'url';
  required: boolean;
}

/** A provider as the connect page offers it. */
export interface ConnectableProvider {
  manifest: ProviderManifest;
  /** The project set an OAuth app for it: "Continue with …". */
  oauth: boolean;
  /** Credentials typed in a form (API token, email …). */
  form: boolean;
  /** The user gives the account's address (the provider has no default base URL). */
  needsBaseUrl: boolean;
  fields: CredentialField[];
}

/** What the success page shows. */
export interface ConnectOutcome {
  provider: string;
  redirectUrl: string | null;
  reauthorized: boolean;
}

/** A magic link opened by its secret, whatever its state. */
export type OpenedLink =
  | { status: 'unknown' }
  | { status: Exclude<InviteLinkStatus, 'active'>; link: InviteLinkRow; linkedUser: LinkedUserRow }
  | { status: 'active'; link: InviteLinkRow; linkedUser: LinkedUserRow };
export type ActiveLink = Extract<OpenedLink, { status: 'active' }>;

export function linkStatus(link: InviteLinkRow, now = new Date()): InviteLinkStatus {
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

const SECRET_FIELD = /token|secret|password|key/i;

/** The form fields of a credentials schema (JSON Schema of the zod object), in declaration order. */
export function credentialFields(manifest: ProviderManifest): CredentialField[] {
  // A built-in sandbox asks for nothing: its credentials are the sandbox's own.
  if (manifest.sandbox) return [];
  type ObjectSchema = { properties?: Record<string, { format?: string; description?: string }>; required?: string[] };
  const json = z.toJSONSchema(manifest.credentials, { io: 'input' }) as ObjectSchema & { anyOf?: ObjectSchema[] };
  // Several accepted shapes (Jira: an API token, or OAuth tokens): the form asks for the first, typed by hand.
  const schema = json.anyOf?.[0] ?? json;
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    label: name
      .split(/[_-]/)
      .filter(Boolean)
      .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
      .join(' ')
      .replace(/\bapi\b/i, 'API')
      .replace(/\burl\b/i, 'URL'),
    description: prop.description,
    type: SECRET_FIELD.test(name) ? 'password' : prop.format === 'email' ? 'email' : prop.format === 'uri' ? 'url' : 'text',
    required: schema.required?.includes(name) ?? false,
  }));
}

/**
 * The hosted connect page's logic: which providers a magic link offers, and connections made with
 * credentials typed in its form. OAuth flows are in oauth.ts.
 */
export class ConnectService {
  private readonly outcomeSigner: Signer;

  constructor(
    private readonly repo: ConnectRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly providers: ProviderRegistry,
    private readonly settings: ConnectSettingsService,
    private readonly connections: ConnectionService,
    private readonly allowPrivateUrls: boolean,
    box: SecretBox,
  ) {
    this.outcomeSigner = box.signer('connect-outcome');
  }

  /**
   * The success page's parameter: what was connected and where to go back to, signed and short-lived, so
   * the page can be reloaded (POST/redirect/GET) without trusting the query string.
   */
  signOutcome(outcome: ConnectOutcome, ttlMs = 3_600_000): string {
    const payload = Buffer.from(JSON.stringify({ ...outcome, exp: Date.now() + ttlMs })).toString('base64url');
    return `${payload}.${this.outcomeSigner.sign(payload)}`;
  }

  readOutcome(value: string | undefined): ConnectOutcome | undefined {
    const [payload, signature, extra] = (value ?? '').split('.');
    if (!payload || !signature || extra !== undefined || !this.outcomeSigner.verify(payload, signature)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConnectOutcome & { exp: number };
      if (typeof parsed.exp !== 'number' || parsed.exp < Date.now()) return undefined;
      return { provider: parsed.provider, redirectUrl: parsed.redirectUrl ?? null, reauthorized: Boolean(parsed.reauthorized) };
    } catch {
      return undefined;
    }
  }

  /** The link behind a magic-link secret; expired and revoked links are reported as such. */
  async open(token: string, now = new Date()): Promise<OpenedLink> {
    if (!isMagicLinkToken(token)) return { status: 'unknown' };
    const found = await this.repo.findInviteLinkByTokenHash(sha256Hex(token));
    if (!found) return { status: 'unknown' };
    const status = linkStatus(found.link, now);
    return { status, ...found } as OpenedLink;
  }

  /**
   * Providers the project offers, narrowed by a link's own filters: enabled for the project (all when it
   * set no list), and connectable (an OAuth app configured, or a credentials form).
   */
  async catalog(projectId: string, filter: { providers?: string[] | null; verticals?: string[] | null } = {}): Promise<ConnectableProvider[]> {
    const settings = await this.settings.get(projectId);
    const apps = new Set((await this.repo.listOAuthApps(projectId)).map((a) => a.provider));
    return this.providers
      .list()
      .filter((m) => settings.enabledProviders === null || settings.enabledProviders.includes(m.name))
      .filter((m) => !filter.providers || filter.providers.includes(m.name))
      .filter((m) => !filter.verticals || filter.verticals.includes(m.vertical))
      .map((manifest) => ({
        manifest,
        oauth: Boolean(manifest.oauth) && manifest.oauth?.connectPage !== false && apps.has(manifest.name),
        form: manifest.authKind !== 'oauth2',
        // A provider with login hosts to choose from (Salesforce) learns the account's address from its token answer.
        needsBaseUrl: !manifest.defaultBaseUrl && !manifest.oauth?.loginUrls?.length,
        fields: manifest.authKind !== 'oauth2' ? credentialFields(manifest) : [],
      }))
      .filter((p) => p.oauth || p.form)
      .sort((a, b) => a.manifest.displayName.localeCompare(b.manifest.displayName));
  }

  /** The providers of an opened link. */
  linkCatalog(link: InviteLinkRow): Promise<ConnectableProvider[]> {
    return this.catalog(link.projectId, { providers: link.providers, verticals: link.verticals });
  }

  /** One provider of the link, or 404 when the link does not offer it. */
  async linkProvider(link: InviteLinkRow, provider: string): Promise<ConnectableProvider> {
    const found = (await this.linkCatalog(link)).find((p) => p.manifest.name === provider);
    if (!found) throw new AppError('not_found', 'this link does not offer that provider');
    return found;
  }

  /** The linked user's connections, to show which providers are already connected. */
  async connectionsOf(link: InviteLinkRow): Promise<ConnectionRow[]> {
    const page = await this.controlPlane.listConnections(link.projectId, { limit: 1000 }, { linkedUserId: link.linkedUserId });
    return page.items;
  }

  /**
   * A connection from the credentials form: the fields of the provider's schema and, where needed, the
   * account's address; checked against the provider before anything is stored.
   */
  async submitCredentials(opened: ActiveLink, provider: string, form: Record<string, string>): Promise<ConnectionView & { reauthorized: boolean }> {
    const offered = await this.linkProvider(opened.link, provider);
    if (!offered.form) throw new AppError('not_found', 'this provider is connected with OAuth, not a form');
    const credentials: Record<string, unknown> = {};
    for (const field of offered.fields) {
      const value = form[field.name]?.trim();
      if (value) credentials[field.name] = value;
    }
    const baseUrl = await this.accountUrl(offered, form.base_url);
    const checked = this.connections.checkInput({ provider, credentials, base_url: baseUrl });
    return this.connections.connectAuthorized({
      projectId: opened.link.projectId,
      linkedUser: opened.linkedUser,
      provider,
      credentials: checked.credentials,
      baseUrl: checked.baseUrl,
      via: 'connect_form',
    });
  }

  /**
   * The account address typed on the page (or the provider's default). It is called by this server, so
   * private and loopback addresses are refused unless OMNIPORT_ALLOW_PRIVATE_URLS is set.
   */
  async accountUrl(offered: ConnectableProvider, typed: string | undefined): Promise<string | undefined> {
    const value = typed?.trim();
    if (!value) {
      if (offered.needsBaseUrl) throw new AppError('validation_failed', `enter the address of your ${offered.manifest.displayName} account`, { field: 'base_url' });
      return undefined;
    }
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    } catch {
      throw new AppError('validation_failed', 'the address is not a valid URL', { field: 'base_url' });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('validation_failed', 'the address must start with https://', { field: 'base_url' });
    if (url.username || url.password) throw new AppError('validation_failed', 'the address must not contain a user name or password', { field: 'base_url' });
    const reach = this.allowPrivateUrls ? 'public' : await hostReach(url.hostname);
    if (reach === 'unresolved') throw new AppError('validation_failed', `${url.hostname} was not found: check the address`, { field: 'base_url' });
    if (reach === 'private') {
      throw new AppError('validation_failed', 'this address is not reachable from the internet (private and loopback addresses are refused)', {
        field: 'base_url',
      });
    }
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  }

  /** The link's return URL if the project still allows it, else null. */
  async returnUrl(link: InviteLinkRow): Promise<string | null> {
    if (!link.redirectUrl) return null;
    const { allowedRedirectUrls } = await this.settings.get(link.projectId);
    return allowedRedirect(allowedRedirectUrls, link.redirectUrl);
  }

  verticalsOf(catalog: ConnectableProvider[]): Vertical[] {
    return [...new Set(catalog.map((p) => p.manifest.vertical))];
  }
}

/** `public` when every address the name resolves to is a public unicast address. */
