import { AppError, notFound } from './errors';
import { API_KEY_PATTERN, newApiKey, sha256Hex } from './secrets';
import { isUuid, type AccessContext, type McpKeyScope } from './access';
import type { ApiKeyRow, ControlPlaneRepo } from '../store/control-plane.repo';
import { LookupCache } from '../store/lookup-cache';
import type { PageRequest } from '../store/pagination';

export interface IssuedApiKey {
  row: ApiKeyRow;
  /** The secret: returned once, never stored. */
  apiKey: string;
}

export class ApiKeyService {
  constructor(
    private readonly repo: ControlPlaneRepo,
    private readonly keyEnv: string,
    private readonly cache = new LookupCache(),
  ) {}

  /** The same service working inside a transaction. */
  withRepo(repo: ControlPlaneRepo): ApiKeyService {
    return new ApiKeyService(repo, this.keyEnv, this.cache);
  }

  /** The access context of a presented key, or undefined for an unknown, malformed or revoked key. */
  async authenticate(presented: string): Promise<AccessContext | undefined> {
    if (!API_KEY_PATTERN.test(presented)) return undefined;
    const keyHash = sha256Hex(presented);
    const row = await this.cache.apiKey(keyHash, () => this.repo.findActiveApiKeyByHash(keyHash));
    if (!row) return undefined;
    // Best effort and at most once a minute, so a warm authentication reads nothing at all.
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
      row.lastUsedAt = new Date();
      this.repo.touchApiKey(row.id, row.lastUsedAt).catch(() => {});
    }
    return { projectId: row.projectId, userId: row.userId, apiKeyId: row.id, mcp: { readOnly: row.mcpReadOnly, tools: row.mcpTools ?? null } };
  }

  /** Issues a key for a user of the caller's project. Another project's ids are answered as unknown. */
  async generate(ctx: AccessContext, input: { projectId: string; userId: string; keyName: string; mcp?: Partial<McpKeyScope> }): Promise<IssuedApiKey> {
    if (input.projectId !== ctx.projectId) throw notFound('project', 'projectId');
    if (!isUuid(input.userId) || !(await this.repo.findUser(ctx.projectId, input.userId))) throw notFound('user', 'userId');
    return this.issue(ctx.projectId, input.userId, input.keyName, undefined, input.mcp);
  }

  /** Issues a key without a caller (CLI and bootstrap). `presetKey` installs a given key instead of a random one. */
  async issue(projectId: string, userId: string, name: string, presetKey?: string, mcp?: Partial<McpKeyScope>): Promise<IssuedApiKey> {
    const apiKey = presetKey ?? newApiKey(this.keyEnv);
    if (!API_KEY_PATTERN.test(apiKey)) {
      throw new AppError('validation_failed', 'an API key must look like sk_<env>_<at least 32 base62 characters>');
    }
    const row = await this.repo.insertApiKey({
      projectId,
      userId,
      name,
      keyHash: sha256Hex(apiKey),
      keyPrefix: apiKey.slice(0, apiKey.lastIndexOf('_') + 5),
      mcpReadOnly: mcp?.readOnly ?? false,
      mcpTools: mcp?.tools ?? null,
    });
    return { row, apiKey };
  }

  list(ctx: AccessContext, page: PageRequest) {
    return this.repo.listApiKeys(ctx.projectId, page);
  }

  async revoke(ctx: AccessContext, id: string): Promise<ApiKeyRow> {
    if (!isUuid(id)) throw notFound('API key');
    const row = await this.repo.revokeApiKey(ctx.projectId, id, new Date());
    if (row) {
      this.cache.forget({ apiKeyHash: row.keyHash });
      return row;
    }
    const existing = await this.repo.findApiKey(ctx.projectId, id);
    if (existing) return existing; // already revoked: revoking is idempotent
    throw notFound('API key');
  }
}
