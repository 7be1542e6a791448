import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { LnComment } from './types';
import { asRecord, toDate, unsupported } from './util';

/** A file stored by Linear and linked from a comment's Markdown. */
export interface AssetLink {
  name: string;
  url: string;
  image: boolean;
}

const LINK = /(!?)\[((?:\\.|[^\]\\\n])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

const unescapeMd = (s: string) => s.replace(/\\(.)/g, '$1');
const escapeMd = (s: string) => s.replace(/[\r\n]+/g, ' ').replace(/[\\[\]]/g, (c) => `\\${c}`);

/**
 * Markdown links (`[name](url)`, `![name](url)`) to Linear's file storage in a comment body, in order,
 * once each. Links to other hosts are ordinary links, not attachments.
 */
export function assetLinks(markdown: string | null | undefined, uploadHosts: readonly string[]): AssetLink[] {
  if (!markdown) return [];
  const seen = new Set<string>();
  const out: AssetLink[] = [];
  for (const m of markdown.matchAll(LINK)) {
    const [, bang, text, href] = m;
    let url: URL;
    try {
      url = new URL(href!);
    } catch {
      continue;
    }
    if (!uploadHosts.includes(url.host.toLowerCase()) || seen.has(url.href)) continue;
    seen.add(url.href);
    const lastSegment = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    out.push({ name: unescapeMd(text ?? '').trim() || lastSegment || url.href, url: url.href, image: bang === '!' });
  }
  return out;
}

/** A link to an uploaded file, as it is appended to a comment body (images inline). */
export function assetMarkdown(link: AssetLink): string {
  return `${link.image ? '!' : ''}[${escapeMd(link.name)}](${link.url})`;
}

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

/** Remote id of an attachment: the comment and the file's path in Linear's storage. */
export const attachmentRemoteId = (commentId: string, url: string) => `${commentId}:${new URL(url).pathname}`;

/**
 * Linear comment → unified comment and its attachments (the files its Markdown links to in Linear's
 * storage). Comments are Markdown and visible to the whole workspace; the author is a user, or nobody
 * (integrations and bots). An archived (deleted) comment is reported deleted.
 */
export function unifyComment(c: LnComment, ids: IdOf, uploadHosts: readonly string[]): UnifiedComment {
  const ticketRemoteId = c.issueId ?? null;
  const userId = ids('ticketing.user', c.user?.id);
  const createdAt = toDate(c.createdAt);
  const updatedAt = toDate(c.updatedAt) ?? createdAt;
  const deleted = Boolean(c.archivedAt);
  const attachments: UnifiedRecord[] = assetLinks(c.body, uploadHosts).map((link) => {
    const data = {
      file_name: link.name,
      file_url: link.url,
      uploader: userId,
      ticket_id: ids('ticketing.ticket', ticketRemoteId),
      comment_id: ids('ticketing.comment', c.id),
    } satisfies AttachmentFields;
    return {
      objectType: 'ticketing.attachment',
      remoteId: attachmentRemoteId(c.id, link.url),
      data,
      remoteData: { commentId: c.id, title: link.name, url: link.url, image: link.image },
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: updatedAt,
      parent: { objectType: 'ticketing.comment', remoteId: c.id },
      ...(deleted ? { deleted: true } : {}),
    };
  });
  const data = {
    body: c.body ?? null,
    html_body: null,
    is_private: false,
    creator_type: c.user?.id ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', ticketRemoteId),
    contact_id: null,
    user_id: userId,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: c.id,
      data,
      remoteData: asRecord(c),
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: updatedAt,
      ...(ticketRemoteId ? { parent: { objectType: 'ticketing.ticket', remoteId: ticketRemoteId } } : {}),
      ...(deleted ? { deleted: true } : {}),
    },
    attachments,
  };
}

/**
 * Unified comment write → the Markdown body of commentCreate (before file links are appended).
 * Linear comments are Markdown, public to the workspace and written by the connected user.
 */
export function desunifyComment(input: CommentWrite): { body: string } {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Linear comments have no custom fields');
  if (input.html_body !== undefined) throw unsupported('html_body', 'Linear comments are Markdown; send the text in body');
  if (input.is_private === true) throw unsupported('is_private', 'Linear has no private comments (every comment is visible to the workspace)');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'Linear has no contacts; comments are written by the connected user');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT') throw unsupported('creator_type', 'Linear has no contacts; comments are written by users');
  const body = input.body ?? '';
  if (body.trim() === '' && input.files.length === 0) throw new AppError('validation_failed', 'a Linear comment needs a body', { field: 'body' });
  return { body };
}
