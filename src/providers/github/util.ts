import { AppError } from '../../core/errors';

export const PROVIDER = 'github';

/** A GitHub timestamp (`2024-05-01T10:20:30Z`) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a GitHub timestamp, normalised; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

/** `since` as GitHub documents it (`YYYY-MM-DDTHH:MM:SSZ`), rounded down to the second. */
export function sinceParam(d: Date | undefined): string | undefined {
  return d ? new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z') : undefined;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** GitHub cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER, ...extra });
}

/** A repository: `owner/name` (its `full_name`, the collection's remote id). */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** An issue: its repository and number (the ticket's remote id is `owner/name#number`). */
export interface IssueRef extends RepoRef {
  number: number;
}

/** An owner or repository name: GitHub's characters, never `.` or `..` (they would walk the URL path). */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

export const fullName = (r: RepoRef) => `${r.owner}/${r.repo}`;
export const issueRemoteId = (r: IssueRef) => `${r.owner}/${r.repo}#${r.number}`;
export const repoPath = (r: RepoRef) => `/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`;
export const issuePath = (r: IssueRef) => `${repoPath(r)}/issues/${r.number}`;

/** A collection remote id (`owner/name`) as a repository reference. */
export function parseRepo(remoteId: string, field: string): RepoRef {
  const [owner, repo, ...rest] = String(remoteId).split('/');
  if (!owner || !repo || rest.length > 0 || !SEGMENT.test(owner) || !SEGMENT.test(repo)) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a GitHub repository (owner/name)`, { field });
  }
  return { owner, repo };
}

/** A ticket remote id (`owner/name#number`) as an issue reference. */
export function parseIssue(remoteId: string, field: string): IssueRef {
  const m = /^([^/#\s]+)\/([^/#\s]+)#(\d{1,10})$/.exec(String(remoteId));
  if (!m || !SEGMENT.test(m[1]!) || !SEGMENT.test(m[2]!)) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a GitHub issue (owner/name#number)`, { field });
  }
  return { owner: m[1]!, repo: m[2]!, number: Number(m[3]) };
}

/** The repository of an API URL such as `https://api.github.com/repos/o/r` or `…/api/v3/repos/o/r/issues/3`. */
export function repoOfUrl(url: unknown): RepoRef | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /\/repos\/([^/]+)\/([^/?#]+)(?:\/|$|\?)/.exec(url);
  return m ? { owner: decodeURIComponent(m[1]!), repo: decodeURIComponent(m[2]!) } : undefined;
}

/** The issue of a comment's `issue_url` (`…/repos/o/r/issues/12`). */
export function issueOfUrl(url: unknown): IssueRef | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)(?:$|[/?#])/.exec(url);
  return m ? { owner: decodeURIComponent(m[1]!), repo: decodeURIComponent(m[2]!), number: Number(m[3]) } : undefined;
}

/** Repository names compare case-insensitively on GitHub. */
export const sameRepo = (a: RepoRef, b: RepoRef) => fullName(a).toLowerCase() === fullName(b).toLowerCase();
