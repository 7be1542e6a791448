/**
 * Zendesk ticket writes: create (with opening comment and further comments), bulk create through
 * create_many + job status polling, partial update, and comments with attachments (uploads API).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../core/errors';
import { OutcomeUnknownError, ProviderError, beforeTheWrite } from '../http-client';
import { stableWriteKey } from '../../core/lost-attempt';
import type {
  AdapterContext,
  BulkItemResult,
  CommentWrite,
  FileUpload,
  TicketWrite,
  TicketingOperations,
  UnifiedRecord,
  WriteResult,
} from '../types';
import { isNotFound, lookupRoles, rolesFromSideload, type ResolvedOptions } from './api';
import { desunifyComment, unifyComment } from './comment.mapper';
import { desunifyTicket, unifyTicket } from './ticket.mapper';
import type { ZdAudit, ZdComment, ZdCommentBody, ZdJobStatus, ZdRole, ZdTicket, ZdTicketBody } from './types';
import { zdId } from './util';

interface TicketResponse {
  ticket: ZdTicket;
  audit?: ZdAudit;
}

const PROVIDER = 'zendesk';

/** The `Comment` events of an audit, as unified comments and attachments. */
function commentsOfAudit(audit: ZdAudit | undefined, ctx: AdapterContext, roles: Map<number, ZdRole>): { comments: UnifiedRecord[]; attachments: UnifiedRecord[] } {
  const comments: UnifiedRecord[] = [];
  const attachments: UnifiedRecord[] = [];
  for (const e of audit?.events ?? []) {
    if (e.type !== 'Comment') continue;
    const u = unifyComment(e as unknown as ZdComment, audit!.ticket_id, ctx.ids, { roleOf: (id) => roles.get(id), createdAt: audit!.created_at });
    comments.push(u.comment);
    attachments.push(...u.attachments);
  }
  return { comments, attachments };
}

const authorsOf = (audits: Array<ZdAudit | undefined>) =>
  audits.flatMap((a) => (a?.events ?? []).filter((e) => e.type === 'Comment').map((e) => (typeof e.author_id === 'number' ? e.author_id : null)));

async function putTicket(ctx: AdapterContext, id: number, body: ZdTicketBody): Promise<TicketResponse> {
  // Setting fields twice is harmless; a comment sent twice is posted twice.
  const res = await ctx.http.put<TicketResponse>(`/api/v2/tickets/${id}`, { json: { ticket: body }, idempotent: body.comment === undefined });
  return res.data;
}

/** Adds comments one update each; a failure says which comment, and that the ticket itself exists. */
async function addComments(ctx: AdapterContext, ticketId: number, bodies: string[], after: string): Promise<{ ticket?: ZdTicket; audits: ZdAudit[] }> {
  let ticket: ZdTicket | undefined;
  const audits: ZdAudit[] = [];
  for (const [i, body] of bodies.entries()) {
    try {
      const r = await putTicket(ctx, ticketId, { comment: { body } });
      ticket = r.ticket;
      if (r.audit) audits.push(r.audit);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Zendesk ticket ${ticketId} was ${after}, but adding comment ${i + 1} of ${bodies.length} failed: ${why}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: String(ticketId) },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return { ticket, audits };
}

async function result(ctx: AdapterContext, ticket: ZdTicket, audits: Array<ZdAudit | undefined>, known?: Map<number, ZdRole>): Promise<WriteResult> {
  const roles = await lookupRoles(ctx, [ticket.requester_id, ...authorsOf(audits)], known);
  const record = unifyTicket(ticket, ctx.ids, { roleOf: (id) => roles.get(id) });
  const related: UnifiedRecord[] = [];
  for (const a of audits) {
    const { comments, attachments } = commentsOfAudit(a, ctx, roles);
    related.push(...comments, ...attachments);
  }
  return { record, related };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls a job status with a doubling wait (up to 2 s) until it ends or `timeoutMs` has passed. */
async function waitForJob(ctx: AdapterContext, job: ZdJobStatus, o: ResolvedOptions): Promise<ZdJobStatus> {
  const deadline = Date.now() + o.jobTimeoutMs;
  let wait = o.jobPollIntervalMs;
  let current = job;
  while (current.status === 'queued' || current.status === 'working') {
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new AppError('provider_timeout', `Zendesk did not finish bulk job ${job.id} within ${o.jobTimeoutMs} ms; the tickets may still be created and will appear with the next sync`, {
        provider: PROVIDER,
        job_id: job.id,
      });
    }
    await sleep(Math.min(wait, left));
    wait = Math.min(wait * 2, 2000);
    try {
      const res = await ctx.http.get<{ job_status: ZdJobStatus }>(`/api/v2/job_statuses/${encodeURIComponent(job.id)}`);
      current = res.data.job_status;
    } catch (err) {
      // A job can be briefly unknown right after it was queued.
      if (!isNotFound(err)) throw err;
    }
  }
  return current;
}

/** Bulk jobs this process already owns, so that two lost answers never claim the same job (bounded). */
const claimedJobs = new (class extends Set<string> {
  override add(id: string) {
    if (this.size >= 10_000) this.delete(this.values().next().value!);
    return super.add(id);
  }
})();

/**
 * After a create_many whose answer was lost: Zendesk lists recent jobs. A job of the same size, not owned
 * by this process, whose created tickets carry in order the subjects (and plain descriptions) that were
 * sent is this call's job. Without such a job the outcome stays unknown: nothing is sent again.
 */
async function findLostJob(ctx: AdapterContext, bodies: ZdTicketBody[], o: ResolvedOptions): Promise<ZdJobStatus | undefined> {
  let recent: ZdJobStatus[];
  try {
    recent = (await ctx.http.get<{ job_statuses?: ZdJobStatus[] }>('/api/v2/job_statuses', { query: { 'page[size]': 100 } })).data.job_statuses ?? [];
  } catch {
    return undefined;
  }
  for (const candidate of recent.filter((j) => j.total === bodies.length && !claimedJobs.has(j.id)).slice(0, 5)) {
    try {
      const job = await waitForJob(ctx, candidate, o);
      const created = (job.results ?? []).flatMap((r, i) => (typeof r.id === 'number' && !r.error ? [{ pos: typeof r.index === 'number' ? r.index : i, id: r.id }] : []));
      if (created.length === 0) continue;
      const res = await ctx.http.get<{ tickets?: ZdTicket[] }>('/api/v2/tickets/show_many', { query: { ids: created.map((c) => c.id).join(',') } });
      const byId = new Map((res.data.tickets ?? []).map((t) => [t.id, t]));
      const matches = created.every(({ pos, id }) => {
        const sent = bodies[pos];
        const ticket = byId.get(id);
        if (!sent || !ticket || (ticket.subject ?? '') !== (sent.subject ?? '')) return false;
        return sent.comment?.body === undefined || ticket.description === sent.comment.body;
      });
      // Claimed only once it matched (and only if no identical lost call claimed it meanwhile).
      if (matches && !claimedJobs.has(job.id)) {
        claimedJobs.add(job.id);
        return job;
      }
    } catch {
      // This candidate cannot be read: try the next one.
    }
  }
  return undefined;
}

function jobItemError(r: { error?: string; details?: unknown; status?: string } | undefined, job: ZdJobStatus): Error {
  const code = r?.error ?? (job.status === 'completed' ? 'TicketCreateFailed' : `Job${job.status}`);
  const details = typeof r?.details === 'string' ? r.details : r?.details ? JSON.stringify(r.details) : (job.message ?? undefined);
  return new ProviderError(PROVIDER, 422, `${code}${details ? `: ${details}` : ''}`, r ?? job);
}

export function zendeskTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      const { body, laterComments } = desunifyTicket(input, 'create');
      // Zendesk deduplicates ticket creation by Idempotency-Key, so this one POST may be sent again safely.
      const created = (
        await ctx.http.post<TicketResponse>('/api/v2/tickets', { json: { ticket: body }, headers: { 'idempotency-key': stableWriteKey(JSON.stringify(body)) ?? randomUUID() }, idempotent: true })
      ).data;
      let ticket = created.ticket;
      const audits: Array<ZdAudit | undefined> = [created.audit];
      if (laterComments.length) {
        const more = await addComments(ctx, ticket.id, laterComments, 'created');
        ticket = more.ticket ?? ticket;
        audits.push(...more.audits);
      }
      const known = new Map<number, ZdRole>();
      if (input.contact_id !== undefined && body.requester_id !== undefined) known.set(body.requester_id, 'end-user');
      return result(ctx, ticket, audits, known);
    },

    async createTickets(ctx, inputs: TicketWrite[]): Promise<BulkItemResult[]> {
      const out: BulkItemResult[] = new Array(inputs.length);
      const prepared: Array<{ index: number; body: ZdTicketBody; laterComments: string[] }> = [];
      inputs.forEach((input, index) => {
        try {
          prepared.push({ index, ...desunifyTicket(input, 'create') });
        } catch (err) {
          out[index] = { ok: false, error: err as Error };
        }
      });
      for (let start = 0; start < prepared.length; start += 100) {
        const chunk = prepared.slice(start, start + 100);
        let job: ZdJobStatus | undefined;
        let failure: unknown;
        try {
          const res = await ctx.http.post<{ job_status: ZdJobStatus }>('/api/v2/tickets/create_many', { json: { tickets: chunk.map((p) => p.body) } });
          claimedJobs.add(res.data.job_status.id);
          job = await waitForJob(ctx, res.data.job_status, o).catch((err: unknown) => {
            // The job exists: whatever stopped us from following it, its tickets may be created.
            throw err instanceof AppError && err.code === 'outcome_unknown' ? err : new AppError('outcome_unknown', `Zendesk accepted bulk job ${res.data.job_status.id} but its outcome could not be read (${(err as Error).message}); the tickets it creates appear with the next sync`, { provider: PROVIDER, job_id: res.data.job_status.id });
          });
        } catch (err) {
          failure = err;
          if (err instanceof OutcomeUnknownError) job = await findLostJob(ctx, chunk.map((p) => p.body), o);
        }
        if (!job) {
          for (const p of chunk) out[p.index] = { ok: false, error: failure as Error };
          continue;
        }
        // Results name the position in the submitted array (`index`); older accounts list them in order.
        const byPos = new Map<number, NonNullable<ZdJobStatus['results']>[number]>();
        (job.results ?? []).forEach((r, i) => byPos.set(typeof r.index === 'number' ? r.index : i, r));
        const createdIds: number[] = [];
        chunk.forEach((p, pos) => {
          const r = byPos.get(pos);
          if (r && typeof r.id === 'number' && !r.error) createdIds.push(r.id);
          else out[p.index] = { ok: false, error: jobItemError(r, job) };
        });
        if (createdIds.length === 0) continue;

        // One read for the created tickets (with their requesters' roles).
        const tickets = new Map<number, ZdTicket>();
        const roles = new Map<number, ZdRole>();
        try {
          const res = await ctx.http.get<{ tickets?: ZdTicket[]; users?: unknown[] }>('/api/v2/tickets/show_many', {
            query: { ids: createdIds.join(','), include: 'users' },
          });
          for (const t of res.data.tickets ?? []) tickets.set(t.id, t);
          rolesFromSideload(res.data as Record<string, unknown>, roles);
        } catch (err) {
          chunk.forEach((p, pos) => {
            const id = byPos.get(pos)?.id;
            if (typeof id === 'number') {
              out[p.index] = { ok: false, error: new AppError('provider_error', `Zendesk created ticket ${id} but reading it back failed: ${(err as Error).message}`, { provider: PROVIDER, remote_id: String(id) }) };
            }
          });
          continue;
        }
        await Promise.all(
          chunk.map(async (p, pos) => {
            const id = byPos.get(pos)?.id;
            if (typeof id !== 'number' || out[p.index]) return;
            try {
              let ticket = tickets.get(id);
              if (!ticket) throw new AppError('provider_error', `Zendesk reported ticket ${id} created but does not return it`, { provider: PROVIDER, remote_id: String(id) });
              const audits: ZdAudit[] = [];
              if (p.laterComments.length) {
                const more = await addComments(ctx, id, p.laterComments, 'created');
                ticket = more.ticket ?? ticket;
                audits.push(...more.audits);
              }
              out[p.index] = { ok: true, result: await result(ctx, ticket, audits, roles) };
            } catch (err) {
              out[p.index] = { ok: false, error: err as Error };
            }
          }),
        );
      }
      return out;
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = zdId(remoteId, 'id');
      const { body, laterComments } = desunifyTicket(patch, 'update');
      let ticket: ZdTicket | undefined;
      const audits: Array<ZdAudit | undefined> = [];
      if (Object.keys(body).length > 0) {
        const r = await putTicket(ctx, id, body);
        ticket = r.ticket;
        audits.push(r.audit);
      }
      if (laterComments.length) {
        const more = await addComments(ctx, id, laterComments, 'updated');
        ticket = more.ticket ?? ticket;
        audits.push(...more.audits);
      }
      if (!ticket) ticket = (await ctx.http.get<{ ticket: ZdTicket }>(`/api/v2/tickets/${id}`)).data.ticket;
      const known = new Map<number, ZdRole>();
      if (patch.contact_id !== undefined && body.requester_id !== undefined) known.set(body.requester_id, 'end-user');
      return result(ctx, ticket, audits, known);
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const ticketId = zdId(input.ticket_id, 'ticket_id');
      const { comment, authorRole } = desunifyComment(input);
      const token = await beforeTheWrite(uploadFiles(ctx, input.files ?? []), 'uploading the files');
      const body: ZdCommentBody = { ...comment, ...(token ? { uploads: [token] } : {}) };
      let res: TicketResponse;
      try {
        res = await putTicket(ctx, ticketId, { comment: body });
      } catch (err) {
        // The upload stays when the comment may exist (an unknown outcome): it would be attached to it.
        if (token && !(err instanceof OutcomeUnknownError)) await ctx.http.delete(`/api/v2/uploads/${encodeURIComponent(token)}`).catch(() => undefined);
        throw err;
      }
      const event = res.audit?.events?.find((e) => e.type === 'Comment') as unknown as ZdComment | undefined;
      if (!res.audit || !event) {
        throw new AppError('provider_error', `Zendesk accepted the update of ticket ${ticketId} but recorded no comment`, { provider: PROVIDER, remote_id: String(ticketId) });
      }
      const known = new Map<number, ZdRole>();
      if (authorRole && comment.author_id !== undefined) known.set(comment.author_id, authorRole);
      const roles = await lookupRoles(ctx, [event.author_id], known);
      const u = unifyComment(event, ticketId, ctx.ids, { roleOf: (id) => roles.get(id), createdAt: res.audit.created_at });
      return { record: u.comment, related: u.attachments };
    },
  };
}

/**
 * Uploads files through `POST /api/v2/uploads?filename=…` (raw bytes), chaining them under the first
 * upload's token so that one token attaches them all. Returns the token (undefined without files).
 */
async function uploadFiles(ctx: AdapterContext, files: FileUpload[]): Promise<string | undefined> {
  let token: string | undefined;
  for (const f of files) {
    const res = await ctx.http.post<{ upload?: { token?: string } }>('/api/v2/uploads', {
      query: { filename: f.fileName, token },
      body: f.content,
      headers: { 'content-type': f.contentType || 'application/octet-stream' },
    });
    const t = res.data?.upload?.token;
    if (!t) throw new AppError('provider_error', `Zendesk did not return an upload token for ${f.fileName}`, { provider: PROVIDER });
    token ??= t;
  }
  return token;
}
