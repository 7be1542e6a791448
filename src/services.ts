import type { Config } from './config';
import type { DatabaseHandle } from './store/database';
import { ControlPlaneRepo } from './store/control-plane.repo';
import { UnifiedRepo } from './store/unified.repo';
import type { ProviderRegistry } from './providers/registry';
import { ApiKeyService } from './core/api-keys';
import { ConnectionService } from './core/connections';
import { FileFetcher } from './core/file-fetch';
import { LinkedUserService } from './core/linked-users';
import { ProjectService } from './core/projects';
import { ProviderContexts, type HttpTuning } from './core/provider-context';
import { ProviderBudgets } from './providers/budgets';
import type { SecretBox } from './core/secrets';
import { SyncService } from './core/sync';
import { TicketingService } from './core/ticketing';
import { CrmService } from './core/crm';
import { UnifiedObjects } from './core/unified/objects';
import { ConnectRepo } from './store/connect.repo';
import { ConnectService } from './core/connect';
import { ConnectSettingsService } from './core/connect-settings';
import { MagicLinkService } from './core/magic-links';
import { OAuthAppService } from './core/oauth-apps';
import { OAuthService } from './core/oauth';
import { FieldMappingService } from './core/field-mapping';
import { FieldMappingRepo } from './store/field-mapping.repo';
import { PassthroughService } from './core/passthrough';
import { IdempotencyService } from './core/idempotency';
import { AuditService } from './core/audit';
import { AuditRepo } from './store/audit.repo';
import { EventsService } from './events/events';
import { WebhookService } from './events/webhooks';
import { EventsRepo } from './store/events.repo';
import { WebhooksRepo } from './store/webhooks.repo';
import { IdempotencyRepo } from './store/idempotency.repo';
import { createDashboardServices, type DashboardServices } from './dashboard/services';
import { LookupCache } from './store/lookup-cache';
import { ProviderWebhookService } from './core/provider-webhooks';
import { ProviderWebhooksRepo } from './store/provider-webhooks.repo';

/** Everything the HTTP layer, the CLI and the jobs call into. */
export interface Services {
  apiKeys: ApiKeyService;
  projects: ProjectService;
  linkedUsers: LinkedUserService;
  connections: ConnectionService;
  providers: ProviderRegistry;
  contexts: ProviderContexts;
  sync: SyncService;
  ticketing: TicketingService;
  crm: CrmService;
  /** Reads of every unified object type. */
  objects: UnifiedObjects;
  fieldMapping: FieldMappingService;
  controlPlane: ControlPlaneRepo;
  database: DatabaseHandle;
  /** API keys, connections and field mappings in memory; caches only once started (servers and workers). */
  lookupCache: LookupCache;
  files: FileFetcher;
  /** Hosted connect page: settings, OAuth apps, magic links, the page's logic and OAuth flows/refresh. */
  connectSettings: ConnectSettingsService;
  oauthApps: OAuthAppService;
  magicLinks: MagicLinkService;
  connect: ConnectService;
  oauth: OAuthService;
  /** Direct calls to a connection's provider. */
  passthrough: PassthroughService;
  /** Idempotency-Key of writes: first answers kept and replayed. */
  idempotency: IdempotencyService;
  /** Who did what to the control plane. */
  audit: AuditService;
  /** The events feed. */
  events: EventsService;
  /** Webhook endpoints of projects. */
  webhooks: WebhookService;
  /** The outbox of webhook deliveries (the dispatcher reads it). */
  webhooksRepo: WebhooksRepo;
  /** The operator dashboard: provider call log and sessions. */
  dashboard: DashboardServices;
  /** Provider webhooks in: registration, verification, and the syncs they queue. */
  providerWebhooks: ProviderWebhookService;
  /** The providers' budgets every outbound call is paced by (schedules and counters, shared on PostgreSQL). */
  budgets: ProviderBudgets;
}

export function createServices(deps: {
  config: Pick<Config, 'keyEnv' | 'allowPrivateUrls'> & Partial<Pick<Config, 'publicUrl'>> & Partial<Pick<Config, 'paceProviderBudgets' | 'providerBudgetOverrides'>> & Partial<Pick<Config, 'magicLinkTtlHours' | 'oauthFlowTtlMinutes' | 'idempotencyTtlHours' | 'idempotencyStaleSeconds' | 'auditRetentionDays' | 'eventsRetentionDays' | 'providerCallRetentionDays' | 'dashboardSessionHours'>>;
  database: DatabaseHandle;
  box: SecretBox;
  providers: ProviderRegistry;
  httpTuning?: HttpTuning;
}): Services {
  const controlPlane = new ControlPlaneRepo(deps.database.db);
  const lookupCache = new LookupCache();
  const webhooksRepo = new WebhooksRepo(deps.database.db);
  const unified = new UnifiedRepo(deps.database.db);
  // Every outbound call shares one address policy: private addresses only when the operator allows them.
  const dashboard = createDashboardServices(deps.database, deps.box, deps.config);
  // One budget per provider account for every process on the database: counted in PostgreSQL when there is one.
  const pgPool = deps.database.pgPool;
  const budgets = new ProviderBudgets(pgPool ? { kind: 'postgres', pool: pgPool } : { kind: 'memory' });
  const tuning = { paceBudgets: deps.config.paceProviderBudgets, budgets, budgetOverrides: deps.config.providerBudgetOverrides, onCall: dashboard.calls.record, ...deps.httpTuning, allowPrivateAddresses: deps.config.allowPrivateUrls };
  const contexts = new ProviderContexts(deps.providers, deps.box, tuning);
  const apiKeys = new ApiKeyService(controlPlane, deps.config.keyEnv, lookupCache);
  const linkedUsers = new LinkedUserService(controlPlane);
  const files = new FileFetcher(deps.config.allowPrivateUrls);
  const fieldMapping = new FieldMappingService(new FieldMappingRepo(deps.database.db), linkedUsers, deps.providers, contexts, lookupCache);
  const objects = new UnifiedObjects(unified, controlPlane, fieldMapping, lookupCache);
  const connectRepo = new ConnectRepo(deps.database.db);
  const connections = new ConnectionService(controlPlane, linkedUsers, deps.providers, deps.box, contexts, connectRepo, deps.config.allowPrivateUrls, lookupCache);
  const connectSettings = new ConnectSettingsService(connectRepo, deps.providers);
  const oauthApps = new OAuthAppService(connectRepo, deps.providers, deps.box, deps.config.allowPrivateUrls);
  const connect = new ConnectService(connectRepo, controlPlane, deps.providers, connectSettings, connections, deps.config.allowPrivateUrls, deps.box);
  const oauth = new OAuthService(connectRepo, oauthApps, connect, connections, connectSettings, deps.providers, deps.box, {
    flowTtlMinutes: deps.config.oauthFlowTtlMinutes ?? 15,
    tuning,
    allowPrivateUrls: deps.config.allowPrivateUrls,
  });
  // Access tokens are renewed before expiry and on a 401, for every caller of the provider contexts.
  contexts.refresher = oauth;
  const providerWebhooks = new ProviderWebhookService(new ProviderWebhooksRepo(deps.database.db), unified, controlPlane, contexts, deps.box, {
    publicUrl: deps.config.publicUrl,
    allowPrivateUrls: deps.config.allowPrivateUrls,
  });
  providerWebhooks.appSecretOf = async (projectId, provider) => {
    const app = await connectRepo.findOAuthApp(projectId, provider);
    return app ? deps.box.decrypt(app.clientSecretEncrypted) : undefined;
  };
  // The provider's webhook goes before the connection (its credentials are needed to delete it).
  connections.beforeDelete.push((row) => providerWebhooks.unregisterFor(row));
  return {
    apiKeys,
    projects: new ProjectService(controlPlane, apiKeys),
    linkedUsers,
    connections,
    providers: deps.providers,
    contexts,
    sync: new SyncService(unified, controlPlane, contexts),
    ticketing: new TicketingService(objects, contexts, files),
    crm: new CrmService(objects, contexts),
    objects,
    fieldMapping,
    controlPlane,
    database: deps.database,
    lookupCache,
    files,
    connectSettings,
    oauthApps,
    magicLinks: new MagicLinkService(connectRepo, linkedUsers, deps.providers, connectSettings, connect, deps.config.magicLinkTtlHours ?? 24 * 7),
    connect,
    oauth,
    passthrough: new PassthroughService(contexts),
    // Longer than any request can run: a claim older than that belonged to a process that died.
    idempotency: new IdempotencyService(new IdempotencyRepo(deps.database.db), deps.box, {
      ttlHours: deps.config.idempotencyTtlHours ?? 24,
      staleMs: (deps.config.idempotencyStaleSeconds ?? 15) * 1000,
      singleProcess: deps.database.kind === 'pglite',
    }),
    audit: new AuditService(new AuditRepo(deps.database.db), deps.config.auditRetentionDays ?? 90),
    events: new EventsService(new EventsRepo(deps.database.db), deps.box, deps.config.eventsRetentionDays ?? 30),
    webhooks: new WebhookService(webhooksRepo, deps.box, deps.config.allowPrivateUrls),
    webhooksRepo,
    dashboard,
    providerWebhooks,
    budgets,
  };
}
