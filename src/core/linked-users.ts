import { AppError, notFound } from './errors';
import { isUuid, type AccessContext } from './access';
import type { ControlPlaneRepo, LinkedUserRow } from '../store/control-plane.repo';
import type { PageRequest } from '../store/pagination';

export interface LinkedUserInput {
  linked_user_origin_id: string;
  alias?: string;
  email?: string;
}

export class LinkedUserService {
  constructor(private readonly repo: ControlPlaneRepo) {}

  /**
   * Creates a linked user; an existing origin id is a conflict (409). `id_project` (the Panora client sends
   * it) must be the caller's project: another is answered as one that does not exist.
   */
  async create(ctx: AccessContext, input: LinkedUserInput & { id_project?: string }): Promise<LinkedUserRow> {
    if (input.id_project !== undefined && input.id_project !== ctx.projectId) throw notFound('project', 'id_project');
    const values = { projectId: ctx.projectId, originId: input.linked_user_origin_id, alias: input.alias, email: input.email };
    const created = await this.repo.insertLinkedUserIfNew(values);
    if (created) return created;
    // The fix is to use the existing one: say which field clashed and its id.
    const existing = (await this.repo.findLinkedUserByOrigin(ctx.projectId, values.originId))!;
    throw new AppError(
      'conflict',
      `a linked user with linked_user_origin_id ${JSON.stringify(values.originId)} exists already (id_linked_user ${existing.id}): use it, or look it up with GET /linked-users?linked_user_origin_id=`,
      { field: 'linked_user_origin_id', id_linked_user: existing.id },
    );
  }

  /** Returns the linked user with that origin id, creating it if needed. */
  ensure(ctx: AccessContext, input: LinkedUserInput): Promise<LinkedUserRow> {
    return this.repo.upsertLinkedUser({
      projectId: ctx.projectId,
      originId: input.linked_user_origin_id,
      alias: input.alias,
      email: input.email,
    });
  }

  async get(ctx: AccessContext, id: string): Promise<LinkedUserRow> {
    const row = isUuid(id) ? await this.repo.findLinkedUser(ctx.projectId, id) : undefined;
    if (!row) throw notFound('linked user');
    return row;
  }

  async getByOrigin(ctx: AccessContext, originId: string): Promise<LinkedUserRow> {
    const row = await this.repo.findLinkedUserByOrigin(ctx.projectId, originId);
    if (!row) throw notFound('linked user', 'originId');
    return row;
  }

  /** Accepts the Omniport id or the developer's origin id. */
  async resolve(ctx: AccessContext, idOrOrigin: string, field: string): Promise<LinkedUserRow> {
    const row =
      (isUuid(idOrOrigin) ? await this.repo.findLinkedUser(ctx.projectId, idOrOrigin) : undefined) ??
      (await this.repo.findLinkedUserByOrigin(ctx.projectId, idOrOrigin));
    if (!row) throw notFound('linked user', field);
    return row;
  }

  list(ctx: AccessContext, page: PageRequest, filter: { originId?: string }) {
    return this.repo.listLinkedUsers(ctx.projectId, page, filter);
  }
}
