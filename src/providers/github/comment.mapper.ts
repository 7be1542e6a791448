import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { GhComment } from './types';
import { asRecord, issueOfUrl, issueRemoteId, toDate, unsupported, type IssueRef } from './util';

/**
 * A comment on a pull request (GitHub lists them with issue comments): its `html_url` points at
 * `/pull/{number}` instead of `/issues/{number}`.
 */
export const isPullRequestComment = (c: GhComment) => typeof c.html_url === 'string' && /\/pull\/\d+(?:#|$)/.test(c.html_url);

/**
 * GitHub issue comment → unified comment. `body` is the Markdown as written, `html_body` GitHub's
 * rendering (`body_html`, with the `full` media type). Comments are public and written by users.
 * `issue` is the comment's issue when the caller knows it; otherwise it comes from `issue_url`.
 */
export function unifyComment(c: GhComment, ids: IdOf, issue?: IssueRef): UnifiedRecord {
  const ref = issue ?? issueOfUrl(c.issue_url);
  if (!ref) throw new AppError('provider_error', `GitHub returned comment ${c.id} without its issue`, { provider: 'github' });
  const ticketRemoteId = issueRemoteId(ref);
  const login = c.user && typeof c.user.login === 'string' ? c.user.login : null;
  const data = {
    body: c.body ?? c.body_text ?? null,
    html_body: c.body_html ?? null,
    is_private: false,
    creator_type: login ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', ticketRemoteId),
    contact_id: null,
    user_id: ids('ticketing.user', login),
    attachments: [],
  } satisfies CommentFields;
  return {
    objectType: 'ticketing.comment',
    remoteId: String(c.id),
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: toDate(c.created_at),
    remoteUpdatedAt: toDate(c.updated_at),
    parent: { objectType: 'ticketing.ticket', remoteId: ticketRemoteId },
  };
}

/**
 * Unified comment write → the `body` of POST …/issues/{number}/comments. GitHub comments are public
 * Markdown written as the token's user (`viewer`); `html_body` alone is sent as the body (GitHub
 * Markdown renders HTML). Everything else GitHub cannot take is refused, naming the field.
 */
export function desunifyComment(input: CommentWrite, viewer: string): { body: string } {
  if (input.files?.length) throw unsupported('attachments', 'GitHub has no API to attach files to issue comments');
  if (input.customFields?.length) throw unsupported('field_mappings', 'GitHub comments have no custom fields');
  if (input.is_private === true) throw unsupported('is_private', 'GitHub issue comments are always public');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'GitHub has no contacts; comments are written by the token\'s user');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT') throw unsupported('creator_type', 'GitHub comments are written by users, not contacts');
  if (input.user_id !== undefined && input.user_id.toLowerCase() !== viewer.toLowerCase()) {
    throw unsupported('user_id', `GitHub writes comments as the token's user (${viewer}); another author cannot be set`);
  }
  const hasBody = typeof input.body === 'string' && input.body.trim() !== '';
  const hasHtml = typeof input.html_body === 'string' && input.html_body.trim() !== '';
  if (hasBody && hasHtml) throw unsupported('html_body', 'a GitHub comment has one Markdown body; give body or html_body, not both');
  if (!hasBody && !hasHtml) throw new AppError('validation_failed', 'a GitHub comment needs body or html_body', { field: 'body' });
  return { body: hasBody ? input.body! : input.html_body! };
}
