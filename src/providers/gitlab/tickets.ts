/**
 * GitLab issue writes: create (then its opening notes, then closing when asked), partial update
 * (`state_event` for the status), and notes with attachments (Markdown uploads linked from the body).
 * GitLab has no bulk issue API: batches go through `createTicket` one by one (the core bounds them).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors';
import { OutcomeUnknownError, beforeTheWrite } from '../http-client';
import type { AdapterContext, CommentWrite, FileUpload, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { apiRoot, currentUserId, webBase, type ResolvedOptions } from './api';
import { desunifyComment, unifyNote, uploadMarkdown } from './comment.mapper';
import { desunifyTicket, unifyTicket } from './ticket.mapper';
import type { GlIssue, GlIssueBody, GlNote, GlUpload } from './types';
import { issuePath, issueRemoteId, parseIssueRemoteId, PROVIDER, type IssueRef } from './util';

async function putIssue(ctx: AdapterContext, ref: IssueRef, body: GlIssueBody): Promise<GlIssue> {
  return (await ctx.http.put<GlIssue>(issuePath(apiRoot(ctx), ref), { json: body })).data;
}

async function getIssue(ctx: AdapterContext, ref: IssueRef): Promise<GlIssue> {
  return (await ctx.http.get<GlIssue>(issuePath(apiRoot(ctx), ref))).data;
}

async function postNote(ctx: AdapterContext, ref: IssueRef, body: { body: string; internal?: boolean }): Promise<GlNote> {
  return (await ctx.http.post<GlNote>(`${issuePath(apiRoot(ctx), ref)}/notes`, { json: body })).data;
}

/** A failure after the issue exists: says so, with its remote id, keeping the cause's code and headers. */
function afterWrite(err: unknown, ref: IssueRef, what: string): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError(
    err instanceof AppError ? err.code : 'provider_error',
    `GitLab issue ${issueRemoteId(ref.projectId, ref.iid)} was ${what}: ${why}`,
    { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: issueRemoteId(ref.projectId, ref.iid) },
    err instanceof AppError ? err.headers : {},
  );
}

/** Adds notes one by one; a failure names the note and says the issue itself exists. */
async function addNotes(ctx: AdapterContext, ref: IssueRef, bodies: string[], after: string): Promise<GlNote[]> {
  const notes: GlNote[] = [];
  for (const [i, body] of bodies.entries()) {
    try {
      notes.push(await postNote(ctx, ref, { body }));
    } catch (err) {
      throw afterWrite(err, ref, `${after}, but adding comment ${i + 1} of ${bodies.length} failed`);
    }
  }
  return notes;
}

function result(ctx: AdapterContext, issue: GlIssue, notes: GlNote[]): WriteResult {
  const record = unifyTicket(issue, ctx.ids);
  const related: UnifiedRecord[] = [];
  const noteCtx = { ticketRemoteId: record.remoteId, projectId: issue.project_id, web: webBase(ctx) };
  for (const n of notes) {
    const u = unifyNote(n, noteCtx, ctx.ids);
    related.push(u.comment, ...u.attachments);
  }
  return { record, related };
}

/** `multipart/form-data` with one `file` part, as `POST /projects/:id/uploads` expects. */
export function multipartFile(file: FileUpload, boundary = `----omniport-${randomBytes(12).toString('hex')}`): { body: Buffer; contentType: string } {
  const name = file.fileName.replace(/[\r\n]/g, ' ').replace(/"/g, '%22') || 'file';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${file.contentType || 'application/octet-stream'}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), file.content, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Uploads the files to the project; returns GitLab's answers in order. */
async function uploadFiles(ctx: AdapterContext, projectId: number, files: FileUpload[]): Promise<GlUpload[]> {
  const out: GlUpload[] = [];
  for (const f of files) {
    const { body, contentType } = multipartFile(f);
    const res = await ctx.http.post<GlUpload>(`${apiRoot(ctx)}/projects/${projectId}/uploads`, { body, headers: { 'content-type': contentType } });
    if (!res.data || typeof res.data.url !== 'string') {
      throw new AppError('provider_error', `GitLab did not return the address of the upload ${f.fileName}`, { provider: PROVIDER });
    }
    out.push(res.data);
  }
  return out;
}

/** Best effort: removes uploads of a note that was not created (needs Maintainer; failures are ignored). */
async function discardUploads(ctx: AdapterContext, projectId: number, uploads: GlUpload[]): Promise<void> {
  await Promise.all(
    uploads
      .filter((u) => u.id !== undefined && u.id !== null && u.id !== '')
      .map((u) => ctx.http.delete(`${apiRoot(ctx)}/projects/${projectId}/uploads/${encodeURIComponent(String(u.id))}`).catch(() => undefined)),
  );
}

export function gitlabTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      const { projectId, body, closeAfterCreate, comments } = desunifyTicket(input, 'create');
      let issue = (await ctx.http.post<GlIssue>(`${apiRoot(ctx)}/projects/${projectId}/issues`, { json: body })).data;
      const ref = { projectId: issue.project_id ?? projectId!, iid: issue.iid };
      const notes = await addNotes(ctx, ref, comments, 'created');
      try {
        if (closeAfterCreate) issue = await putIssue(ctx, ref, { state_event: 'close' });
        else if (notes.length) issue = await getIssue(ctx, ref);
      } catch (err) {
        throw afterWrite(err, ref, closeAfterCreate ? 'created, but closing it failed' : 'created, but reading it back failed');
      }
      return result(ctx, issue, notes);
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const ref = parseIssueRemoteId(remoteId, 'id');
      const { body, comments } = desunifyTicket(patch, 'update', ref.projectId);
      let issue: GlIssue | undefined;
      if (Object.keys(body).length > 0) issue = await putIssue(ctx, ref, body);
      const notes = await addNotes(ctx, ref, comments, 'updated');
      if (!issue || notes.length) issue = await getIssue(ctx, ref);
      return result(ctx, issue, notes);
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const ref = parseIssueRemoteId(input.ticket_id, 'ticket_id');
      const { body, internal, authorId } = desunifyComment(input);
      if (authorId !== undefined && authorId !== (await currentUserId(ctx, o))) {
        throw new AppError(
          'unsupported_by_provider',
          'user_id: GitLab writes a note as the token’s user; give that user (or no user_id), or connect with the other user’s token',
          { field: 'user_id', provider: PROVIDER },
        );
      }
      const uploads = await beforeTheWrite(uploadFiles(ctx, ref.projectId, input.files ?? []), 'uploading the files');
      const links = uploads.map((u, i) => uploadMarkdown(u, input.files[i]!.fileName));
      const text = [body.trim() === '' ? undefined : body, links.length ? links.join('\n') : undefined].filter((x) => x !== undefined).join('\n\n');
      let note: GlNote;
      try {
        note = await postNote(ctx, ref, { body: text, ...(internal !== undefined ? { internal } : {}) });
      } catch (err) {
        // The uploads stay when the note may exist (an unknown outcome): it would link to them.
        if (!(err instanceof OutcomeUnknownError)) await discardUploads(ctx, ref.projectId, uploads);
        throw err;
      }
      const u = unifyNote(note, { ticketRemoteId: issueRemoteId(ref.projectId, ref.iid), projectId: ref.projectId, web: webBase(ctx) }, ctx.ids);
      return { record: u.comment, related: u.attachments };
    },
  };
}
