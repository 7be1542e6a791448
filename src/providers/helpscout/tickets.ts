/**
 * Help Scout conversation writes. Create Conversation answers 201 with the new id in `Resource-ID` and no body, as
 * do the thread endpoints (reply, notes, customer): the conversation or thread is then read back. Update
 * Conversation takes one operation a request (`PATCH`, `{op, path, value}`); tags and custom fields have their
 * own PUTs. Files travel inline with a thread (`attachments: [{fileName, mimeType, data}]`, base64). There is no
 * bulk creation, so `createTickets` is left to the core (one create per element).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CommentWrite, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { currentUser, listPages, resourceId, type ResolvedOptions } from './api';
import { commentThreads, desunifyComment, desunifyCreate, desunifyUpdate, unifyConversation, unifyThread } from './ticket.mapper';
import type { HsConversation, HsThread } from './types';
import { hsId, paragraphsToHtml, PROVIDER } from './util';

const conversationPath = (id: number) => `/v2/conversations/${id}`;

async function readConversation(ctx: AdapterContext, id: number): Promise<HsConversation> {
  return (await ctx.http.get<HsConversation>(conversationPath(id), { query: { embed: 'threads' } })).data;
}

/** The conversation and every thread of it, unified. */
function unifyAll(c: HsConversation, ctx: AdapterContext): WriteResult {
  const related = commentThreads(c).flatMap((t) => {
    const u = unifyThread(t, c.id, ctx.ids);
    return [u.comment, ...u.attachments];
  });
  return { record: unifyConversation(c, ctx.ids), related };
}

function partial(err: unknown, message: string, remoteId: number): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError(
    err instanceof AppError ? err.code : 'provider_error',
    `${message}: ${why}`,
    { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: String(remoteId) },
    err instanceof AppError ? err.headers : {},
  );
}

/** Adds replies to the conversation's customer one by one; a failure says what was already written. */
async function addReplies(ctx: AdapterContext, c: HsConversation, comments: string[], after: string) {
  for (const [i, text] of comments.entries()) {
    try {
      if (typeof c.primaryCustomer?.id !== 'number') throw new AppError('unprocessable', 'the conversation has no customer to reply to', { field: 'comment' });
      await ctx.http.post(`${conversationPath(c.id)}/reply`, { json: { customer: { id: c.primaryCustomer.id }, text: paragraphsToHtml([text]) } });
    } catch (err) {
      throw partial(err, `Help Scout conversation ${c.id} was ${after}, but adding comment ${i + 1} of ${comments.length} failed`, c.id);
    }
  }
}

export function helpscoutTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      desunifyCreate(input, 'check@example.invalid'); // refuse what Help Scout cannot take before any call
      const email = input.contact_id === undefined ? ((await currentUser(ctx, o)).email ?? undefined) : undefined;
      const { body, comments } = desunifyCreate(input, email);
      const res = await ctx.http.post('/v2/conversations', { json: body });
      const id = resourceId(res.headers, 'conversation');
      let c: HsConversation;
      try {
        c = await readConversation(ctx, id);
        if (comments.length) {
          await addReplies(ctx, c, comments, 'created');
          c = await readConversation(ctx, id);
        }
      } catch (err) {
        throw err instanceof AppError && err.message.includes(`conversation ${id}`) ? err : partial(err, `Help Scout conversation ${id} was created, but reading it back failed`, id);
      }
      return unifyAll(c, ctx);
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = hsId(remoteId, 'id');
      const plan = desunifyUpdate(patch);
      const steps: Array<() => Promise<unknown>> = [
        ...plan.ops.map((op) => () => ctx.http.patch(conversationPath(id), { json: op, idempotent: true })),
        ...(plan.tags ? [() => ctx.http.put(`${conversationPath(id)}/tags`, { json: { tags: plan.tags } })] : []),
        ...(plan.fields ? [() => ctx.http.put(`${conversationPath(id)}/fields`, { json: { fields: plan.fields } })] : []),
      ];
      for (const [i, step] of steps.entries()) {
        try {
          await step();
        } catch (err) {
          if (i === 0) throw err;
          throw partial(err, `Help Scout conversation ${id}: ${i} of ${steps.length} changes were written, then one failed`, id);
        }
      }
      let c = await readConversation(ctx, id);
      if (plan.comments.length) {
        await addReplies(ctx, c, plan.comments, 'updated');
        c = await readConversation(ctx, id);
      }
      return unifyAll(c, ctx);
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const id = hsId(input.ticket_id, 'ticket_id');
      desunifyComment(input, 0); // refuse what Help Scout cannot take before any call
      const c = await readConversation(ctx, id);
      const { endpoint, body } = desunifyComment(input, typeof c.primaryCustomer?.id === 'number' ? c.primaryCustomer.id : undefined);
      const files = input.files ?? [];
      if (files.length) body.attachments = files.map((f) => ({ fileName: f.fileName || 'file', mimeType: f.contentType || 'application/octet-stream', data: f.content.toString('base64') }));
      const res = await ctx.http.post(`${conversationPath(id)}/${endpoint}`, { json: body });
      const threadId = resourceId(res.headers, 'thread');
      let thread: HsThread | undefined;
      try {
        for await (const page of listPages<HsThread>(ctx, `${conversationPath(id)}/threads`, 'threads')) {
          thread = page.items.find((t) => t.id === threadId);
          if (thread) break;
        }
      } catch (err) {
        throw partial(err, `the thread was added to Help Scout conversation ${id}, but reading it back failed`, id);
      }
      if (!thread) throw new AppError('provider_error', `Help Scout created thread ${threadId} on conversation ${id} but does not list it`, { provider: PROVIDER, remote_id: String(id) });
      const u = unifyThread(thread, id, ctx.ids);
      return { record: u.comment, related: u.attachments as UnifiedRecord[] };
    },
  };
}
