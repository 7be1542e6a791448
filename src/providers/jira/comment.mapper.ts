import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import { adfToHtml, adfToText, htmlToAdf, isAdfDoc, linkMark, paragraph, textNode, textToAdf, type AdfDoc, type AdfNode } from './adf';
import type { JiraAttachment, JiraComment, JiraUser } from './types';
import { asRecord, toDate, unsupported } from './util';

/** Attachment ids linked from a body: `/rest/api/{2,3}/attachment/content/{id}` and `/secure/attachment/{id}/…`. */
const ATTACHMENT_LINK = /\/(?:rest\/api\/(?:2|3|latest)\/attachment\/content|secure\/attachment)\/(\d+)(?:[/?#]|$)/;

/** The ids of the attachments a comment body links to, in order, without repeats. */
export function attachmentLinks(body: unknown): string[] {
  const out: string[] = [];
  const visit = (n: AdfNode) => {
    for (const m of n.marks ?? []) {
      if (m.type !== 'link') continue;
      const id = ATTACHMENT_LINK.exec(String(m.attrs?.href ?? ''))?.[1];
      if (id && !out.includes(id)) out.push(id);
    }
    if (n.type === 'inlineCard') {
      const id = ATTACHMENT_LINK.exec(String(n.attrs?.url ?? ''))?.[1];
      if (id && !out.includes(id)) out.push(id);
    }
    n.content?.forEach(visit);
  };
  if (isAdfDoc(body)) visit(body);
  return out;
}

/** Jira Service Management customers write comments too; they are not synced (no contacts in Jira). */
const isCustomer = (u: JiraUser | undefined) => u?.accountType === 'customer';

/** Jira attachment → unified attachment (parent: the comment that links it, else the issue). */
export function unifyAttachment(a: JiraAttachment, issueId: string, commentId: string | null, ids: IdOf): UnifiedRecord {
  const author = a.author?.accountId && !isCustomer(a.author) ? ids('ticketing.user', a.author.accountId) : null;
  const data = {
    file_name: a.filename ?? null,
    file_url: a.content ?? null,
    uploader: author,
    ticket_id: ids('ticketing.ticket', issueId),
    comment_id: commentId ? ids('ticketing.comment', commentId) : null,
  } satisfies AttachmentFields;
  const created = toDate(a.created);
  return {
    objectType: 'ticketing.attachment',
    remoteId: String(a.id),
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: created,
    remoteUpdatedAt: created,
    parent: commentId ? { objectType: 'ticketing.comment', remoteId: commentId } : { objectType: 'ticketing.ticket', remoteId: issueId },
  };
}

export interface UnifiedComment {
  comment: UnifiedRecord;
  /** Attachment ids (remote) the comment links to. */
  attachmentIds: string[];
}

/**
 * Jira comment → unified comment. The body (ADF) gives both `body` (plain text) and `html_body`;
 * `is_private` is true for comments restricted to a role or group (or internal JSM notes); the
 * attachments are those the body links to (`known`: the issue's attachments, when listed).
 */
export function unifyComment(c: JiraComment, issueId: string | number, ids: IdOf, known?: ReadonlySet<string>): UnifiedComment {
  const ticketId = String(issueId);
  const author = c.author;
  const customer = isCustomer(author);
  const linked = attachmentLinks(c.body).filter((id) => !known || known.has(id));
  const data = {
    body: c.body === undefined || c.body === null ? null : adfToText(c.body),
    html_body: c.body === undefined || c.body === null ? null : adfToHtml(c.body),
    is_private: Boolean(c.visibility?.value || c.visibility?.identifier) || c.jsdPublic === false,
    creator_type: author?.accountId ? (customer ? 'CONTACT' : 'USER') : null,
    ticket_id: ids('ticketing.ticket', ticketId),
    contact_id: null,
    user_id: author?.accountId && !customer ? ids('ticketing.user', author.accountId) : null,
    attachments: linked.map((id) => ids('ticketing.attachment', id)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: String(c.id),
      data,
      remoteData: asRecord(c),
      remoteCreatedAt: toDate(c.created),
      remoteUpdatedAt: toDate(c.updated ?? c.created),
      parent: { objectType: 'ticketing.ticket', remoteId: ticketId },
    },
    attachmentIds: linked,
  };
}

/**
 * Unified comment write → the ADF body of POST /rest/api/3/issue/{id}/comment (attachment links are
 * appended by the caller). Jira writes a comment as the connection's own user, so `user_id` may only
 * name that user; there are no contacts; visibility restrictions are not expressible.
 */
export function desunifyComment(input: CommentWrite, ownAccountId: string | undefined): AdfDoc {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Jira comments have no custom fields');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'Jira has no contacts; comments are written by the connection’s user');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT') throw unsupported('creator_type', 'Jira has no contacts; a comment is written by the connection’s user (USER)');
  if (input.user_id !== undefined && input.user_id !== ownAccountId) {
    throw unsupported('user_id', 'Jira writes comments as the connection’s own user; user_id may only name that user');
  }
  if (input.is_private === true) {
    throw unsupported('is_private', 'Jira restricts comments to a project role or group, not to "private"; leave is_private out or false');
  }
  const hasBody = typeof input.body === 'string' && input.body.trim() !== '';
  const hasHtml = typeof input.html_body === 'string' && input.html_body.trim() !== '';
  if (!hasBody && !hasHtml) throw new AppError('validation_failed', 'a Jira comment needs body or html_body', { field: 'body' });
  // html_body is the richer form: used when both are given (body is then Jira's plain text of it).
  const doc = hasHtml ? htmlToAdf(input.html_body!) : textToAdf(input.body!);
  if (doc.content.length === 0) {
    if (!hasBody) throw new AppError('validation_failed', 'html_body has no text', { field: 'html_body' });
    return textToAdf(input.body!);
  }
  return doc;
}

/** Appends "Attachments: a.txt, b.json" with each name linking to the uploaded attachment. */
export function withAttachmentLinks(body: AdfDoc, attachments: JiraAttachment[]): AdfDoc {
  if (attachments.length === 0) return body;
  const inline: AdfNode[] = [textNode('Attachments: ')];
  attachments.forEach((a, i) => {
    if (i > 0) inline.push(textNode(', '));
    const name = a.filename ?? `attachment ${a.id}`;
    inline.push(a.content ? textNode(name, [linkMark(a.content)]) : textNode(name));
  });
  return { ...body, content: [...body.content, paragraph(...inline)] };
}
