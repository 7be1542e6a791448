import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_STATUSES, type TicketFields, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { GhIssue, GhIssueWrite, GhLabel } from './types';
import { asRecord, fullName, issueRemoteId, parseRepo, repoOfUrl, sameRepo, toDate, toIso, unsupported, type IssueRef, type RepoRef } from './util';

/** GitHub issue state → unified status (`closed` as completed or as not planned is CLOSED). */
export const STATUS_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = { open: 'OPEN', closed: 'CLOSED' };

/** The unified statuses GitHub can take; IN_PROGRESS and ON_HOLD have no GitHub state. */
export const WRITABLE_STATUSES = ['OPEN', 'CLOSED'] as const;

/** GitHub allows at most 10 assignees per issue. */
export const MAX_ASSIGNEES = 10;

/** The repository and number of an issue JSON (from `repository_url`, else `repository.full_name`). */
export function issueRefOf(issue: GhIssue): IssueRef | undefined {
  const repo = repoOfUrl(issue.repository_url) ?? (issue.repository?.full_name ? safeRepo(issue.repository.full_name) : undefined);
  return repo && Number.isSafeInteger(issue.number) ? { ...repo, number: issue.number } : undefined;
}

function safeRepo(name: string): RepoRef | undefined {
  try {
    return parseRepo(name, 'repository');
  } catch {
    return undefined;
  }
}

export const isPullRequest = (issue: GhIssue) => issue.pull_request !== undefined && issue.pull_request !== null;

const labelName = (l: GhLabel | string): string | undefined => (typeof l === 'string' ? l : typeof l?.name === 'string' ? l.name : undefined);

/**
 * GitHub issue JSON → unified ticket. Pull requests are not tickets: callers filter them out first.
 * `repo` is the repository the issue was listed from, used when the JSON does not name it.
 */
export function unifyIssue(issue: GhIssue, ids: IdOf, repo?: RepoRef): UnifiedRecord {
  const ref = issueRefOf(issue) ?? (repo && Number.isSafeInteger(issue.number) ? { ...repo, number: issue.number } : undefined);
  if (!ref) throw new AppError('provider_error', `GitHub returned issue ${issue.id} without its repository`, { provider: 'github' });
  const status = issue.state ? (STATUS_TO_UNIFIED[issue.state] ?? null) : null;
  const assignees = Array.isArray(issue.assignees) ? issue.assignees : issue.assignee ? [issue.assignee] : [];
  const data = {
    name: issue.title ?? null,
    status,
    description: typeof issue.body === 'string' && issue.body !== '' ? [issue.body] : [],
    due_date: null,
    type: null,
    parent_ticket: null,
    project_id: ids('ticketing.collection', fullName(ref)),
    tags: (issue.labels ?? []).map(labelName).filter((n): n is string => Boolean(n)),
    completed_at: status === 'CLOSED' ? toIso(issue.closed_at) : null,
    priority: null,
    assigned_to: assignees.filter((a) => a && typeof a.login === 'string').map((a) => ids('ticketing.user', a.login)!),
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: issueRemoteId(ref),
    data,
    remoteData: asRecord(issue),
    remoteCreatedAt: toDate(issue.created_at),
    remoteUpdatedAt: toDate(issue.updated_at),
  };
}

export interface DesunifiedTicket {
  /** The repository the issue is created in (create only). */
  repo?: RepoRef;
  /** The issue fields to POST (create) or PATCH (update). */
  body: GhIssueWrite;
  /** On create, GitHub has no state: a CLOSED ticket is closed right after it is created. */
  closeAfterCreate: boolean;
  /** Comment bodies to add after the issue is written, in order. */
  comments: string[];
}

function status(value: string): 'OPEN' | 'CLOSED' {
  const s = value.toUpperCase();
  if (s === 'OPEN' || s === 'CLOSED') return s;
  if ((TICKET_STATUSES as readonly string[]).includes(s)) {
    throw new AppError('unsupported_by_provider', `status: a GitHub issue is open or closed; ${s} has no GitHub state`, {
      field: 'status',
      provider: 'github',
      allowed: [...WRITABLE_STATUSES],
    });
  }
  throw new AppError('validation_failed', `status must be one of ${TICKET_STATUSES.join(', ')}`, { field: 'status', allowed: [...TICKET_STATUSES] });
}

/** Label names, without duplicates (GitHub compares them case-insensitively). */
function labels(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tags) {
    const name = t.trim();
    if (name === '') throw new AppError('validation_failed', 'tags: a GitHub label name cannot be blank', { field: 'tags' });
    if (name.length > 50) throw unsupported('tags', `GitHub label names have at most 50 characters; ${JSON.stringify(name)} is longer`);
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}

/**
 * Unified ticket write → GitHub issue body. `current` is the issue being updated (update only).
 * Fields GitHub issues do not have are refused with `unsupported_by_provider`, naming them.
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update', current?: IssueRef): DesunifiedTicket {
  if (input.priority !== undefined) throw unsupported('priority', 'GitHub issues have no priority');
  if (input.type !== undefined) throw unsupported('type', 'GitHub issues have no ticket type (labels are tags)');
  if (input.due_date !== undefined) throw unsupported('due_date', 'GitHub issues have no due date');
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'GitHub sub-issues cannot be set through this API');
  if (input.account_id !== undefined) throw unsupported('account_id', 'GitHub has no accounts');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'GitHub has no contacts; issues are opened by the token\'s user');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'GitHub records the closing time itself; set status CLOSED instead');
  if (input.customFields?.length) throw unsupported('field_mappings', 'GitHub issues have no custom fields through the REST API');

  const body: GhIssueWrite = {};
  let repo: RepoRef | undefined;
  if (mode === 'create') {
    if (input.project_id === undefined) {
      throw new AppError('unprocessable', 'project_id: a GitHub issue belongs to a repository; give project_id (a collection)', { field: 'project_id' });
    }
    repo = parseRepo(input.project_id, 'project_id');
    if (input.name === undefined || input.name.trim() === '') {
      throw new AppError('unprocessable', 'name: a GitHub issue needs a title', { field: 'name' });
    }
  } else if (input.project_id !== undefined && current && !sameRepo(parseRepo(input.project_id, 'project_id'), current)) {
    throw unsupported('project_id', `the issue belongs to ${fullName(current)}; GitHub issues cannot be moved to another repository through the REST API`);
  }

  if (input.name !== undefined) {
    if (input.name.trim() === '') throw new AppError('unprocessable', 'name: a GitHub issue needs a title', { field: 'name' });
    body.title = input.name;
  }
  if (input.description !== undefined) {
    const paragraphs = input.description.filter((p) => p.trim() !== '');
    body.body = paragraphs.length ? paragraphs.join('\n\n') : mode === 'update' ? null : undefined;
    if (body.body === undefined) delete body.body;
  }
  let closeAfterCreate = false;
  if (input.status !== undefined) {
    const s = status(input.status);
    if (mode === 'create') closeAfterCreate = s === 'CLOSED';
    else if (s === 'CLOSED') {
      body.state = 'closed';
      body.state_reason = 'completed';
    } else body.state = 'open';
  }
  if (input.tags !== undefined) body.labels = labels(input.tags);
  if (input.assigned_to !== undefined) {
    const logins = [...new Set(input.assigned_to)];
    if (logins.length > MAX_ASSIGNEES) throw unsupported('assigned_to', `a GitHub issue has at most ${MAX_ASSIGNEES} assignees`);
    body.assignees = logins;
  }
  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  return { repo, body, closeAfterCreate, comments };
}

/**
 * What GitHub left out of what was asked: labels (by name, any case) and assignees (by login) it
 * dropped silently (it does so without push access).
 */
export function droppedFields(asked: GhIssueWrite, issue: GhIssue): Array<'tags' | 'assigned_to'> {
  const out: Array<'tags' | 'assigned_to'> = [];
  if (asked.labels?.length) {
    const got = new Set((issue.labels ?? []).map(labelName).filter(Boolean).map((n) => n!.toLowerCase()));
    if (asked.labels.some((l) => !got.has(l.toLowerCase()))) out.push('tags');
  }
  if (asked.assignees?.length) {
    const got = new Set((issue.assignees ?? []).map((a) => a?.login?.toLowerCase()));
    if (asked.assignees.some((a) => !got.has(a.toLowerCase()))) out.push('assigned_to');
  }
  return out;
}
