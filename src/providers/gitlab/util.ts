import { AppError } from '../../core/errors';
import { numericIdOf, unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

export const PROVIDER = 'gitlab';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);
/** A remote id we were given (as text) in the numeric form GitLab's JSON uses. */
export const glId = numericIdOf('GitLab');

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
