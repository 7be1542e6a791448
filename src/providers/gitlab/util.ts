import { AppError } from '../../core/errors';

export const PROVIDER = 'gitlab';

/** A GitLab timestamp (`2024-05-01T10:20:30.123Z`) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a GitLab timestamp, normalised; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A numeric GitLab id given as text (a remote id Omniport stored), or a 422 naming the field. */
export function glId(remoteId: string | number, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,16}$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) <= 0) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a GitLab id`, { field, provider: PROVIDER });
  }
  return Number(s);
}

/** What GitLab cannot take: 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER, ...extra });
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/**
 * The remote id of an issue: `<project id>#<iid>`. GitLab addresses an issue by its project and its
 * project-scoped `iid` (`/projects/:id/issues/:iid`); the instance-wide `id` is only usable by
 * administrators (`GET /issues/:id`). The numeric project id keeps the reference valid when the project
 * is renamed or transferred. Both `id` and `iid` stay in `remote_data`.
 */
export function issueRemoteId(projectId: number | string, iid: number | string): string {
  return `${projectId}#${iid}`;
}

export interface IssueRef {
  projectId: number;
  iid: number;
}

export function parseIssueRemoteId(remoteId: string, field: string): IssueRef {
  const m = /^(\d{1,16})#(\d{1,16})$/.exec(String(remoteId).trim());
  if (!m) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a GitLab issue reference (<project id>#<iid>)`, { field, provider: PROVIDER });
  return { projectId: glId(m[1]!, field), iid: glId(m[2]!, field) };
}

/** Path of an issue under the API root. */
export const issuePath = (api: string, ref: IssueRef) => `${api}/projects/${ref.projectId}/issues/${ref.iid}`;
