import { AppError, notFound, unknownProvider } from './errors';
import { assertReachableFromInternet } from './network';
import { isUuid, type AccessContext } from './access';
import { newConnectionToken, sha256Hex, type SecretBox } from './secrets';
import type { LinkedUserService } from './linked-users';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderError } from '../providers/http-client';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo, LinkedUserRow } from '../store/control-plane.repo';
import type { ConnectRepo } from '../store/connect.repo';
import type { ProviderManifest } from '../providers/manifest';
import type { PageRequest } from '../store/pagination';
import type { LookupCache } from '../store/lookup-cache';

/** How a connection was made, recorded in its events. */
export type ConnectionOrigin = 'api' | 'connect_oauth' | 'connect_form';

export interface AuthorizedConnectionInput {
  projectId: string;
  linkedUser: LinkedUserRow;
  provider: string;
  /** Already checked: OAuth tokens, or form fields that passed the provider's credentials schema. */
  credentials: Record<string, string>;
  baseUrl: string;
  via: ConnectionOrigin;
}

export interface ConnectionInput {
  provider: string;
  linked_user_origin_id: string;
  credentials: Record<string, unknown>;
  base_url?: string;
}

/** A connection as the developer sees it: the token decrypted, the credentials never. */
export interface ConnectionView {
  row: ConnectionRow;
  connectionToken: string;
  linkedUser?: LinkedUserRow;
}

export class ConnectionService {
  constructor(
    private readonly repo: ControlPlaneRepo,
    private readonly linkedUsers: LinkedUserService,
    private readonly providers: ProviderRegistry,
    private readonly box: SecretBox,
    private readonly contexts: ProviderContexts,
    private readonly connect: ConnectRepo,
    /** Provider addresses may be private or loopback (simulators, on-premise products); off by default. */
    private readonly allowPrivateUrls: boolean,
    private readonly cache: LookupCache,
  ) {}

  /**
   * Called after a connection is created or re-authorised (the first sync is queued there, never run in
   * the request).
   */
  readonly afterCreate: ((row: ConnectionRow) => Promise<void>)[] = [];
  /** Called before a connection is deleted (its provider webhook is removed there). */
  readonly beforeDelete: ((row: ConnectionRow) => Promise<void>)[] = [];

  async create(ctx: AccessContext, input: ConnectionInput): Promise<ConnectionView> {
    const { manifest, credentials, baseUrl } = this.checkInput(input);
    await this.verify(ctx.projectId, input.provider, baseUrl, credentials);
    const linkedUser = await this.linkedUsers.ensure(ctx, { linked_user_origin_id: input.linked_user_origin_id });
    const row = await this.insert(ctx.projectId, linkedUser, manifest, credentials, baseUrl, 'api');
    for (const hook of this.afterCreate) await hook(row);
    return { row, connectionToken: this.box.decrypt(row.tokenEncrypted), linkedUser };
  }

  /** The provider, its credentials checked against its schema, and the base URL (trailing slashes removed). */
  checkInput(input: { provider: string; credentials: Record<string, unknown>; base_url?: string }): {
    manifest: ProviderManifest;
    credentials: Record<string, string>;
    baseUrl: string;
  } {
    const manifest = this.providers.get(input.provider);
    if (!manifest) {
      throw unknownProvider(input.provider, 'provider', this.providers.names());
    }
    if (manifest.sandbox) {
      for (const field of ['base_url', 'credentials'] as const) {
        const value = input[field];
        if (value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0)) {
          throw new AppError('validation_failed', `${manifest.name} is a built-in sandbox: it takes no ${field}`, { field });
        }
      }
      return { manifest, credentials: manifest.sandbox.credentials(), baseUrl: manifest.defaultBaseUrl! };
    }
    const credentials = manifest.credentials.safeParse(input.credentials);
    if (!credentials.success) {
      throw new AppError('validation_failed', `credentials do not match what ${manifest.name} needs`, {
        field: 'credentials',
        issues: credentials.error.issues.map((i) => ({ path: ['credentials', ...i.path].join('.'), message: i.message })),
      });
    }
    const baseUrl = input.base_url ?? manifest.defaultBaseUrl;
    if (!baseUrl) {
      throw new AppError('validation_failed', `${manifest.name} needs base_url (the address of the account)`, { field: 'base_url' });
    }
    return { manifest, credentials: credentials.data, baseUrl: baseUrl.replace(/\/+$/, '') };
  }

  /**
   * A connection made on the hosted connect page (OAuth tokens, or credentials typed in the form), for the
   * magic link's linked user. The credentials are checked against the provider first. A linked user who
   * connects the same provider and account address again re-authorises the connection they have (same
   * id and token, status back to valid) instead of getting a second one.
   */
  async connectAuthorized(input: AuthorizedConnectionInput): Promise<ConnectionView & { reauthorized: boolean }> {
    const manifest = this.providers.get(input.provider);
    if (!manifest) throw new AppError('unprocessable', `provider ${input.provider} is no longer available`);
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    await this.verify(input.projectId, input.provider, baseUrl, input.credentials);
    const existing = await this.connect.findConnectionOf(input.projectId, input.linkedUser.id, manifest.name, baseUrl);
    let row: ConnectionRow;
    if (existing) {
      row = await this.connect.transaction(async (tx) => {
        const updated = (await tx.updateConnection(existing.id, { credentialsEncrypted: this.box.encryptJson(input.credentials), status: 'valid' }))!;
        await tx.insertEvent(updated.projectId, {
          type: 'connection.reauthorized',
          payload: this.eventPayload(updated, this.box.decrypt(updated.tokenEncrypted), input.linkedUser, input.via),
        });
        return updated;
      });
    } else {
      row = await this.insert(input.projectId, input.linkedUser, manifest, input.credentials, baseUrl, input.via);
    }
    // Queues the first sync (or a new one after re-authorisation) in the background.
    for (const hook of this.afterCreate) await hook(row);
    return { row, connectionToken: this.box.decrypt(row.tokenEncrypted), linkedUser: input.linkedUser, reauthorized: Boolean(existing) };
  }

  /** Inserts the connection and its `connection.created` event together. */
  private insert(
    projectId: string,
    linkedUser: LinkedUserRow,
    manifest: ProviderManifest,
    credentials: Record<string, string>,
    baseUrl: string,
    via: ConnectionOrigin,
  ): Promise<ConnectionRow> {
    const token = newConnectionToken();
    return this.connect.insertConnectionWithEvent(
      {
        projectId,
        linkedUserId: linkedUser.id,
        provider: manifest.name,
        vertical: manifest.vertical,
        tokenHash: sha256Hex(token),
        tokenEncrypted: this.box.encrypt(token),
        credentialsEncrypted: this.box.encryptJson(credentials),
        baseUrl,
      },
      (row) => ({ type: 'connection.created', payload: this.eventPayload(row, token, linkedUser, via) }),
    );
  }

  /**
   * What webhooks will carry: the connection token, never the provider's credentials. The token is stored
   * encrypted like every other secret (the delivery decrypts it with the box), never in clear.
   */
  private eventPayload(row: ConnectionRow, connectionToken: string, linkedUser: LinkedUserRow, via: ConnectionOrigin): Record<string, unknown> {
    return {
      id_connection: row.id,
      connection_token_encrypted: this.box.encrypt(connectionToken),
      provider: row.provider,
      vertical: row.vertical,
      status: row.status,
      id_linked_user: linkedUser.id,
      linked_user_origin_id: linkedUser.originId,
      base_url: row.baseUrl,
      created_at: row.createdAt.toISOString(),
      via,
    };
  }

  /** One cheap call with the credentials; refused credentials are a 422, a failing provider keeps its 5xx. */
  private async verify(projectId: string, provider: string, baseUrl: string, credentials: Record<string, string>): Promise<void> {
    const adapter = this.providers.adapter(provider)!;
    if (!this.allowPrivateUrls && baseUrl !== adapter.manifest.defaultBaseUrl) await assertReachableFromInternet(baseUrl, 'base_url');
    // A sandbox: the project's own account, started now if this is its first connection.
    const address = adapter.manifest.sandbox ? await adapter.manifest.sandbox.prepare(projectId) : baseUrl;
    try {
      await adapter.verifyCredentials(this.contexts.build(adapter, `verify:${provider}`, address, credentials));
    } catch (err) {
      if (err instanceof ProviderError && err.providerStatus >= 400 && err.providerStatus < 500) {
        throw new AppError('unprocessable', `${provider} refused these credentials`, {
          field: 'credentials',
          provider_status: err.providerStatus,
          provider_message: err.providerMessage,
        });
      }
      throw err;
    }
  }

  async get(ctx: AccessContext, id: string): Promise<ConnectionView> {
    const row = isUuid(id) ? await this.repo.findConnection(ctx.projectId, id) : undefined;
    if (!row) throw notFound('connection');
    return this.view(row);
  }

  /** A connection of the caller's project by id (an MCP session opened with a connection id); else 401 like a token. */
  async resolveId(ctx: AccessContext, id: string): Promise<ConnectionRow> {
    const row = isUuid(id) ? await this.cache.connection(id, () => this.repo.findConnection(ctx.projectId, id)) : undefined;
    // Cached rows are shared by every project: another project's connection is unknown here.
    if (!row || row.projectId !== ctx.projectId) throw new AppError('invalid_connection_token', 'unknown connection');
    return row;
  }

  /** The connection selected by an `x-connection-token`; another project's token is unknown (401). */
  async resolveToken(ctx: AccessContext, token: string | undefined): Promise<ConnectionRow> {
    if (!token) throw new AppError('invalid_connection_token', 'x-connection-token header is required');
    const tokenHash = sha256Hex(token);
    const row = await this.cache.connectionByToken(tokenHash, () => this.repo.findConnectionByTokenHash(ctx.projectId, tokenHash));
    // Cached rows are shared by every project: another project's connection is unknown here.
    if (!row || row.projectId !== ctx.projectId) throw new AppError('invalid_connection_token', 'unknown connection token');
    return row;
  }

  async list(ctx: AccessContext, page: PageRequest, filter: { linkedUserId?: string; provider?: string }) {
    const result = await this.repo.listConnections(ctx.projectId, page, filter);
    return { ...result, items: result.items.map((row) => this.view(row)) };
  }

  async delete(ctx: AccessContext, id: string): Promise<void> {
    const row = isUuid(id) ? await this.repo.findConnection(ctx.projectId, id) : undefined;
    if (!row) throw notFound('connection');
    for (const hook of this.beforeDelete) await hook(row);
    if (!(await this.repo.deleteConnection(ctx.projectId, id))) throw notFound('connection');
    this.cache.forget({ connectionId: id });
  }

  /** Deletes a linked user: each of its connections first, as `delete` does (one connection.deleted event each). */
  async deleteLinkedUser(ctx: AccessContext, linkedUserId: string): Promise<number> {
    if (!isUuid(linkedUserId) || !(await this.repo.findLinkedUser(ctx.projectId, linkedUserId))) throw notFound('linked user');
    let deleted = 0;
    for (;;) {
      const page = await this.repo.listConnections(ctx.projectId, { limit: 100 }, { linkedUserId });
      for (const row of page.items) {
        if (await this.repo.deleteConnection(ctx.projectId, row.id)) deleted++;
        this.cache.forget({ connectionId: row.id });
      }
      if (page.items.length === 0) break;
    }
    await this.repo.deleteLinkedUser(ctx.projectId, linkedUserId);
    return deleted;
  }

  /** Provider credentials in clear, for the provider client only. */
  credentialsOf(row: ConnectionRow): Record<string, string> {
    return this.box.decryptJson<Record<string, string>>(row.credentialsEncrypted);
  }

  private view(row: ConnectionRow): ConnectionView {
    return { row, connectionToken: this.box.decrypt(row.tokenEncrypted) };
  }
}
