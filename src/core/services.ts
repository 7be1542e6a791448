import type { Config } from '../config';
import type { DatabaseHandle } from '../store/database';
import { ControlPlaneRepo } from '../store/control-plane.repo';
import { UnifiedRepo } from '../store/unified.repo';
import type { ProviderRegistry } from '../providers/registry';
import { ApiKeyService } from './api-keys';
import { ConnectionService } from './connections';
import { FileFetcher } from './file-fetch';
import { LinkedUserService } from './linked-users';
import { ProjectService } from './projects';
import { ProviderContexts, type HttpTuning } from './provider-context';
import type { SecretBox } from './secrets';
import { SyncService } from './sync';
import { TicketingService } from './ticketing';
import { CrmService } from './crm';
import { UnifiedObjects } from './unified/objects';
import { FieldMappingService } from './field-mapping';
import { FieldMappingRepo } from '../store/field-mapping.repo';

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
  files: FileFetcher;
}

export function createServices(deps: {
  config: Pick<Config, 'keyEnv' | 'allowPrivateUrls'>;
  database: DatabaseHandle;
  box: SecretBox;
  providers: ProviderRegistry;
  httpTuning?: HttpTuning;
}): Services {
  const controlPlane = new ControlPlaneRepo(deps.database.db);
  const unified = new UnifiedRepo(deps.database.db);
  const contexts = new ProviderContexts(deps.providers, deps.box, deps.httpTuning);
  const apiKeys = new ApiKeyService(controlPlane, deps.config.keyEnv);
  const linkedUsers = new LinkedUserService(controlPlane);
  const files = new FileFetcher(deps.config.allowPrivateUrls);
  const fieldMapping = new FieldMappingService(new FieldMappingRepo(deps.database.db), linkedUsers, deps.providers, contexts);
  const objects = new UnifiedObjects(unified, controlPlane, fieldMapping);
  return {
    apiKeys,
    projects: new ProjectService(controlPlane, apiKeys),
    linkedUsers,
    connections: new ConnectionService(controlPlane, linkedUsers, deps.providers, deps.box, contexts),
    providers: deps.providers,
    contexts,
    sync: new SyncService(unified, controlPlane, contexts),
    ticketing: new TicketingService(objects, contexts, files),
    crm: new CrmService(objects, contexts),
    objects,
    fieldMapping,
    controlPlane,
    database: deps.database,
    files,
  };
}
