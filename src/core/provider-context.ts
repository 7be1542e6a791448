import { AppError } from './errors';
import { idFactory } from './unified/ids';
import type { ConnectionRow } from '../store/control-plane.repo';
import type { ProviderRegistry } from '../providers/registry';
import type { AdapterContext, ProviderAdapter } from '../providers/types';
import { ProviderHttpClient } from '../providers/http-client';
import type { SecretBox } from './secrets';

export interface HttpTuning {
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  maxRetryAfterMs?: number;
}

/** Builds what an adapter needs to act on one connection: its adapter, credentials and HTTP client. */
export class ProviderContexts {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly box: SecretBox,
    private readonly tuning: HttpTuning = {},
  ) {}

  adapterOf(connection: ConnectionRow): ProviderAdapter {
    const adapter = this.providers.adapter(connection.provider);
    if (!adapter) throw new AppError('unprocessable', `provider ${connection.provider} is no longer available`);
    return adapter;
  }

  /** The adapter and its context; a connection that needs re-authorisation is refused before any call. */
  forConnection(connection: ConnectionRow): { adapter: ProviderAdapter; ctx: AdapterContext } {
    if (connection.status === 'needs_reauth') {
      throw new AppError('needs_reauth', `the ${connection.provider} connection needs to be authorised again (its credentials were refused)`);
    }
    const adapter = this.adapterOf(connection);
    const credentials = this.box.decryptJson<Record<string, string>>(connection.credentialsEncrypted);
    return { adapter, ctx: this.build(adapter, connection.id, connection.baseUrl ?? adapter.manifest.defaultBaseUrl ?? '', credentials) };
  }

  /** A context for credentials not yet stored (checking them before creating the connection). */
  build(adapter: ProviderAdapter, connectionId: string, baseUrl: string, credentials: Record<string, string>): AdapterContext {
    const http = new ProviderHttpClient({
      manifest: adapter.manifest,
      connectionId,
      baseUrl,
      authHeaders: () => adapter.http.authHeaders(credentials),
      errorMessage: (body) => adapter.http.errorMessage(body),
      ...this.tuning,
    });
    return { connectionId, baseUrl, credentials, http, ids: idFactory(connectionId) };
  }
}
