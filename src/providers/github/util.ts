import { AppError } from '../../core/errors';
import { isoSeconds, unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

export const PROVIDER = 'github';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);

/** `since` as GitHub documents it (`YYYY-MM-DDTHH:MM:SSZ`), rounded down to the second. */
export const sinceParam = (d: Date | undefined): string | undefined => (d ? isoSeconds(d) : undefined);

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
