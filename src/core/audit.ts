import type { AccessContext } from './access';
import { inSlices } from './slices';
import { PURGE_SLICE } from '../store/purge';
import type { AuditFilter, AuditRepo, AuditRow } from '../store/audit.repo';
import type { Page, PageRequest } from '../store/pagination';

/** Who acted: an API key, an end customer through a magic link, an operator's dashboard session or the CLI. */
export type AuditActor = { type: 'api_key' | 'magic_link' | 'dashboard_session'; id: string } | { type: 'cli'; id?: undefined };

export interface AuditEntry {
  projectId: string;
  actor: AuditActor;
  /** `<object>.<verb>`: connection.created, api_key.revoked … */
  action: string;
  target?: { type: string; id: string | undefined };
  requestId?: string;
  sourceAddress?: string;
  /** Named, non-secret facts (a provider, a key's name, an HTTP method and path); never a token or a body. */
  details?: Record<string, unknown>;
}

/**
 * The audit log of control-plane actions. Entries are written once per action that succeeded, kept for
 * `retentionDays`, and read per project only.
 */
export class AuditService {
  constructor(
    private readonly repo: AuditRepo,
    readonly retentionDays: number,
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return this.repo.insert({
      projectId: entry.projectId,
      actorType: entry.actor.type,
      actorId: entry.actor.id ?? null,
      action: entry.action,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      requestId: entry.requestId ?? null,
      sourceAddress: entry.sourceAddress ?? null,
      details: entry.details ?? {},
    });
  }

  list(ctx: AccessContext, filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>> {
    return this.repo.list(ctx.projectId, filter, page);
  }

  /** In slices, requests answered between them. */
  purgeExpired(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000);
    return inSlices(() => this.repo.purgeBefore(cutoff, PURGE_SLICE), PURGE_SLICE);
  }
}
