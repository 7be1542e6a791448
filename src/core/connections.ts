import { AppError, notFound } from './errors';
import { isUuid, type AccessContext } from './access';
import { newConnectionToken, sha256Hex, type SecretBox } from './secrets';
import type { LinkedUserService } from './linked-users';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderError } from '../providers/http-client';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo, LinkedUserRow } from '../store/control-plane.repo';
import type { PageRequest } from '../store/pagination';

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
  ) {}

  /** Called after a connection is created (the first sync is queued there, never run in the request). */
  readonly afterCreate: ((row: ConnectionRow) => Promise<void>)[] = [];

  async create(ctx: AccessContext, input: ConnectionInput): Promise<ConnectionView> {
    const manifest = this.providers.get(input.provider);
    if (!manifest) {
      const known = this.providers.names();
      throw new AppError('validation_failed', `unknown provider ${JSON.stringify(input.provider)}`, {
        field: 'provider',
        allowed: known,
      });
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
    await this.verify(input.provider, baseUrl.replace(/\/+$/, ''), credentials.data);
    const linkedUser = await this.linkedUsers.ensure(ctx, { linked_user_origin_id: input.linked_user_origin_id });
    const token = newConnectionToken();
    const row = await this.repo.insertConnection({
      projectId: ctx.projectId,
      linkedUserId: linkedUser.id,
      provider: manifest.name,
      vertical: manifest.vertical,
      tokenHash: sha256Hex(token),
      tokenEncrypted: this.box.encrypt(token),
      credentialsEncrypted: this.box.encryptJson(credentials.data),
      baseUrl: baseUrl.replace(/\/+$/, ''),
    });
    for (const hook of this.afterCreate) await hook(row);
    return { row, connectionToken: token, linkedUser };
  }

  /** One cheap call with the credentials; refused credentials are a 422, a failing provider keeps its 5xx. */
  private async verify(provider: string, baseUrl: string, credentials: Record<string, string>): Promise<void> {
    const adapter = this.providers.adapter(provider)!;
    try {
      await adapter.verifyCredentials(this.contexts.build(adapter, `verify:${provider}`, baseUrl, credentials));
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

  /** The connection selected by an `x-connection-token`; another project's token is unknown (401). */
  async resolveToken(ctx: AccessContext, token: string | undefined): Promise<ConnectionRow> {
    if (!token) throw new AppError('invalid_connection_token', 'x-connection-token header is required');
    const row = await this.repo.findConnectionByTokenHash(ctx.projectId, sha256Hex(token));
    if (!row) throw new AppError('invalid_connection_token', 'unknown connection token');
    return row;
  }

  async list(ctx: AccessContext, page: PageRequest, filter: { linkedUserId?: string; provider?: string }) {
    const result = await this.repo.listConnections(ctx.projectId, page, filter);
    return { ...result, items: result.items.map((row) => this.view(row)) };
  }

  async delete(ctx: AccessContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.deleteConnection(ctx.projectId, id))) throw notFound('connection');
  }

  /** Provider credentials in clear, for the provider client only. */
  credentialsOf(row: ConnectionRow): Record<string, string> {
    return this.box.decryptJson<Record<string, string>>(row.credentialsEncrypted);
  }

  private view(row: ConnectionRow): ConnectionView {
    return { row, connectionToken: this.box.decrypt(row.tokenEncrypted) };
  }
}
