import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { GlNote, GlUpload } from './types';
import { asRecord, PROVIDER, toDate, unsupported } from './util';

/** A Markdown link (or image) to a project upload: `[name](/uploads/<32 hex>/<file>)`. */
const UPLOAD_LINK = /!?\[([^\]]*)\]\((\/uploads\/([0-9a-f]{32})\/([^)\s]+))\)/g;

export interface UploadLink {
  /** `/uploads/<secret>/<filename>`, as in the Markdown. */
  url: string;
  secret: string;
  /** The stored file name (decoded). */
  fileName: string;
}

/** The uploads a note links to, in order, each once. */
export function uploadLinks(body: string | null | undefined): UploadLink[] {
  if (!body) return [];
  const out = new Map<string, UploadLink>();
  for (const m of body.matchAll(UPLOAD_LINK)) {
    const url = m[2]!;
    if (out.has(url)) continue;
    let fileName = m[4]!;
    try {
      fileName = decodeURIComponent(fileName);
    } catch {
      // keep it as written
    }
    out.set(url, { url, secret: m[3]!, fileName });
  }
  return [...out.values()];
}

/** Remote id of an upload: `<project id>/uploads/<secret>/<filename>` (stable between writes and syncs). */
export const attachmentRemoteId = (projectId: number | string, link: Pick<UploadLink, 'url'>) => `${projectId}${link.url}`;

/**
 * Where an upload can be opened: `<instance>/-/project/<project id>/uploads/<secret>/<file>`, the
 * id-based address GitLab gives as the upload's `full_path` since 17.1 (it needs a signed-in user who
 * can read the project when the project is not public).
 */
export const attachmentUrl = (web: string, projectId: number | string, link: Pick<UploadLink, 'url'>) => `${web}/-/project/${projectId}${link.url}`;

export interface NoteContext {
  /** Remote id of the issue (`<project id>#<iid>`). */
  ticketRemoteId: string;
  projectId: number;
  /** The instance's web address, for attachment URLs. */
  web: string;
}

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

/** GitLab note → unified comment and the attachments it links to. System notes are not comments: filter them first. */
export function unifyNote(n: GlNote, ctx: NoteContext, ids: IdOf): UnifiedComment {
  const commentId = String(n.id);
  const author = n.author && typeof n.author.id === 'number' ? ids('ticketing.user', n.author.id) : null;
  const createdAt = toDate(n.created_at);
  const attachments = uploadLinks(n.body).map((link): UnifiedRecord => {
    const data = {
      file_name: link.fileName,
      file_url: attachmentUrl(ctx.web, ctx.projectId, link),
      uploader: author,
      ticket_id: ids('ticketing.ticket', ctx.ticketRemoteId),
      comment_id: ids('ticketing.comment', commentId),
    } satisfies AttachmentFields;
    return {
      objectType: 'ticketing.attachment',
      remoteId: attachmentRemoteId(ctx.projectId, link),
      data,
      remoteData: { url: link.url, secret: link.secret, file_name: link.fileName, project_id: ctx.projectId, note_id: n.id },
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: createdAt,
      parent: { objectType: 'ticketing.comment', remoteId: commentId },
    };
  });
  const internal = typeof n.internal === 'boolean' ? n.internal : typeof n.confidential === 'boolean' ? n.confidential : null;
  const data = {
    body: n.body ?? null,
    html_body: null,
    is_private: internal,
    creator_type: author ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', ctx.ticketRemoteId),
    contact_id: null,
    user_id: author,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: commentId,
      data,
      remoteData: asRecord(n),
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: toDate(n.updated_at) ?? createdAt,
      parent: { objectType: 'ticketing.ticket', remoteId: ctx.ticketRemoteId },
    },
    attachments,
  };
}

/** The Markdown GitLab suggests for an upload (an image link for images), else a plain link. */
export function uploadMarkdown(u: GlUpload, fileName: string): string {
  if (typeof u.markdown === 'string' && u.markdown.trim() !== '') return u.markdown.trim();
  return `[${fileName.replace(/[[\]]/g, '')}](${u.url})`;
}

export interface DesunifiedComment {
  /** The note's Markdown, before the upload links are appended. */
  body: string;
  internal?: boolean;
  /** The author the input names (a GitLab user id), to check against the token's user. */
  authorId?: number;
}

/**
 * Unified comment write → the JSON of `POST /projects/:id/issues/:iid/notes` (without attachments).
 * GitLab writes notes as the token's user; anything else about the author is refused.
 */
export function desunifyComment(input: CommentWrite): DesunifiedComment {
  if (input.customFields?.length) throw unsupported('field_mappings', 'GitLab notes have no custom fields');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'GitLab has no contacts; a note’s author is the token’s user');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT') throw unsupported('creator_type', 'GitLab notes are written by users (the token’s user), not contacts');
  const body = typeof input.body === 'string' && input.body.trim() !== '' ? input.body : undefined;
  const html = typeof input.html_body === 'string' && input.html_body.trim() !== '' ? input.html_body : undefined;
  if (body === undefined && html === undefined && input.files.length === 0) {
    throw new AppError('validation_failed', 'a GitLab note needs body (or html_body, or attachments)', { field: 'body', provider: PROVIDER });
  }
  let authorId: number | undefined;
  if (input.user_id !== undefined) {
    const s = String(input.user_id).trim();
    if (!/^\d{1,16}$/.test(s)) throw new AppError('unknown_reference', `user_id: ${JSON.stringify(input.user_id)} is not a GitLab id`, { field: 'user_id' });
    authorId = Number(s);
  }
  return {
    // GitLab Markdown renders (sanitised) inline HTML, so html_body is usable as the body when body is absent.
    body: body ?? html ?? '',
    ...(input.is_private !== undefined ? { internal: input.is_private } : {}),
    ...(authorId !== undefined ? { authorId } : {}),
  };
}
