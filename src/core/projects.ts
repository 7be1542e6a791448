import { AppError } from './errors';
import type { ApiKeyService, IssuedApiKey } from './api-keys';
import type { ControlPlaneRepo, ProjectRow, UserRow } from '../store/control-plane.repo';

export interface BootstrapResult {
  project: ProjectRow;
  user: UserRow;
  key: IssuedApiKey;
  /** True when the key came from OMNIPORT_BOOTSTRAP_API_KEY (then it is not printed). */
  preset: boolean;
}

export class ProjectService {
  constructor(
    private readonly repo: ControlPlaneRepo,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /** Names are unique (a unique index holds it under races too): projects are addressed by name. */
  async createProject(name: string): Promise<ProjectRow> {
    if ((await this.repo.findProjectByName(name)).length > 0) throw new AppError('conflict', `a project named ${name} exists already`, { field: 'name' });
    return this.repo.insertProject({ name });
  }

  /** A project by id, or by name when the name is unambiguous (for the CLI). */
  async resolveProject(idOrName: string): Promise<ProjectRow> {
    const byId = /^[0-9a-f-]{36}$/i.test(idOrName) ? await this.repo.findProject(idOrName) : undefined;
    if (byId) return byId;
    const byName = await this.repo.findProjectByName(idOrName);
    if (byName.length === 1) return byName[0]!;
    if (byName.length > 1) throw new AppError('conflict', `several projects are named ${idOrName}; use the id`);
    throw new AppError('not_found', `project ${idOrName} not found`);
  }

  async get(projectId: string): Promise<ProjectRow> {
    const project = await this.repo.findProject(projectId);
    if (!project) throw new AppError('not_found', 'project not found');
    return project;
  }

  async updateSettings(projectId: string, values: { syncIntervalMinutes?: number; deletionCheckIntervalMinutes?: number | null; mcpReadOnly?: boolean }): Promise<ProjectRow> {
    const project = Object.keys(values).length ? await this.repo.setProjectSettings(projectId, values) : await this.repo.findProject(projectId);
    if (!project) throw new AppError('not_found', 'project not found');
    return project;
  }

  /** Deletes a project with all it holds: keys, linked users, connections and their data, webhooks, logs. */
  async deleteProject(projectId: string): Promise<void> {
    if (!(await this.repo.deleteProject(projectId))) throw new AppError('not_found', 'project not found');
  }

  /** Deletes a user and its API keys: requests and dashboard sessions with those keys stop at once. */
  async deleteUser(projectId: string, userId: string): Promise<void> {
    if (!(await this.repo.deleteUser(projectId, userId))) throw new AppError('not_found', 'user not found');
  }

  async createUser(projectId: string, name: string, email?: string): Promise<UserRow> {
    return this.repo.insertUser({ projectId, name, email });
  }

  async resolveUser(projectId: string, idOrName: string): Promise<UserRow> {
    const byId = /^[0-9a-f-]{36}$/i.test(idOrName) ? await this.repo.findUser(projectId, idOrName) : undefined;
    const user = byId ?? (await this.repo.findUserByName(projectId, idOrName));
    if (!user) throw new AppError('not_found', `user ${idOrName} not found in this project`);
    return user;
  }

  /**
   * On an empty database: project `default`, user `admin` and one key. Runs in a transaction
   * under an advisory lock so two processes starting together bootstrap once.
   */
  async bootstrapIfEmpty(presetKey?: string): Promise<BootstrapResult | undefined> {
    return this.repo.transaction(async (repo) => {
      await repo.lockBootstrap();
      if ((await repo.countProjects()) > 0) return undefined;
      const project = await repo.insertProject({ name: 'default' });
      const user = await repo.insertUser({ projectId: project.id, name: 'admin' });
      const key = await this.apiKeys.withRepo(repo).issue(project.id, user.id, 'bootstrap', presetKey);
      return { project, user, key, preset: presetKey !== undefined };
    });
  }
}
