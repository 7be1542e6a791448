import type { Config } from '../config';
import type { DatabaseHandle } from '../store/database';
import { ControlPlaneRepo } from '../store/control-plane.repo';
import type { ProviderRegistry } from '../providers/registry';
import { ApiKeyService } from './api-keys';
import { ConnectionService } from './connections';
import { LinkedUserService } from './linked-users';
import { ProjectService } from './projects';
import type { SecretBox } from './secrets';

/** Everything the HTTP layer, the CLI and the jobs call into. */
export interface Services {
  apiKeys: ApiKeyService;
  projects: ProjectService;
  linkedUsers: LinkedUserService;
  connections: ConnectionService;
  providers: ProviderRegistry;
  database: DatabaseHandle;
}

export function createServices(deps: {
  config: Pick<Config, 'keyEnv'>;
  database: DatabaseHandle;
  box: SecretBox;
  providers: ProviderRegistry;
}): Services {
  const repo = new ControlPlaneRepo(deps.database.db);
  const apiKeys = new ApiKeyService(repo, deps.config.keyEnv);
  const linkedUsers = new LinkedUserService(repo);
  return {
    apiKeys,
    projects: new ProjectService(repo, apiKeys),
    linkedUsers,
    connections: new ConnectionService(repo, linkedUsers, deps.providers, deps.box),
    providers: deps.providers,
    database: deps.database,
  };
}
