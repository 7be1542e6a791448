import { AppError, notFound, unknownProvider } from './errors';
import { assertReachableFromInternet } from './network';
import type { SecretBox } from './secrets';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderManifest } from '../providers/manifest';
import type { ConnectRepo, OAuthAppRow } from '../store/connect.repo';

export interface OAuthAppInput {
  client_id: string;
  /** Required when the app is first set; omitted on a later change, the stored secret is kept. */
  client_secret?: string;
  /** Replaces the manifest's default scopes. */
  scopes?: string[] | null;
  /** Absolute URLs replacing the manifest's endpoints (self-hosted products, a local simulator). */
  authorize_url?: string | null;
  token_url?: string | null;
}

/** What the API shows of an OAuth app: never the secret. */
export interface OAuthAppView {
  row: OAuthAppRow;
  manifest: ProviderManifest;
}

/** A project's OAuth 2.0 client per provider; the client secret is stored encrypted and never shown again. */
export class OAuthAppService {
  constructor(
    private readonly repo: ConnectRepo,
    private readonly providers: ProviderRegistry,
    private readonly box: SecretBox,
    private readonly allowPrivateUrls: boolean,
  ) {}

  /** The provider, which must use OAuth 2.0. */
  oauthProvider(name: string): ProviderManifest {
    const manifest = this.providers.get(name);
    if (!manifest) {
      throw unknownProvider(name, 'provider', this.providers.names());
    }
    if (!manifest.oauth) {
      const oauth = this.providers.list().filter((m) => m.oauth).map((m) => m.name);
      throw new AppError('unsupported_by_provider', `${name} does not connect with OAuth 2.0`, { field: 'provider', allowed: oauth });
    }
    return manifest;
  }

  async set(projectId: string, provider: string, input: OAuthAppInput): Promise<OAuthAppView> {
    const manifest = this.oauthProvider(provider);
    const existing = await this.repo.findOAuthApp(projectId, provider);
    if (!input.client_secret && !existing) {
      throw new AppError('validation_failed', 'client_secret is required when the OAuth app is first set', { field: 'client_secret' });
    }
    for (const field of ['authorize_url', 'token_url'] as const) {
      const value = input[field];
      if (value && !/^https?:\/\//.test(value)) throw new AppError('validation_failed', `${field} must be an absolute http(s) URL`, { field });
      // Omniport posts the client secret to token_url and sends browsers to authorize_url: never into its own network.
      if (value && !this.allowPrivateUrls) await assertReachableFromInternet(value, field);
    }
    const row = await this.repo.upsertOAuthApp({
      projectId,
      provider: manifest.name,
      clientId: input.client_id,
      clientSecretEncrypted: input.client_secret ? this.box.encrypt(input.client_secret) : existing!.clientSecretEncrypted,
      scopes: input.scopes === undefined ? (existing?.scopes ?? null) : input.scopes,
      authorizeUrl: input.authorize_url === undefined ? (existing?.authorizeUrl ?? null) : input.authorize_url,
      tokenUrl: input.token_url === undefined ? (existing?.tokenUrl ?? null) : input.token_url,
    });
    return { row, manifest };
  }

  async list(projectId: string): Promise<OAuthAppView[]> {
    const rows = await this.repo.listOAuthApps(projectId);
    return rows.flatMap((row) => {
      const manifest = this.providers.get(row.provider);
      return manifest ? [{ row, manifest }] : [];
    });
  }

  async get(projectId: string, provider: string): Promise<OAuthAppView> {
    const manifest = this.providers.get(provider);
    const row = manifest ? await this.repo.findOAuthApp(projectId, provider) : undefined;
    if (!row || !manifest) throw notFound('OAuth app');
    return { row, manifest };
  }

  async delete(projectId: string, provider: string): Promise<void> {
    if (!(await this.repo.deleteOAuthApp(projectId, provider))) throw notFound('OAuth app');
  }

  /** The client secret in clear, for the token endpoint only. */
  secretOf(row: OAuthAppRow): string {
    return this.box.decrypt(row.clientSecretEncrypted);
  }
}
