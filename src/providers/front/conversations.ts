/**
 * One conversation with what the unified ticket needs beyond the conversation JSON: its inboxes (the
 * ticket's collection), its messages and comments (the ticket's comments, and its description). Used
 * by sync and to answer writes, so both store the same ticket.
 */
import type { AdapterContext, UnifiedRecord } from '../types';
import { isGone, isStatus, listAll, type ResolvedOptions } from './api';
import { unifyComment, unifyMessage } from './comment.mapper';
import { unifyConversation, type ConversationDetails } from './ticket.mapper';
import type { FrComment, FrConversation, FrInbox, FrMessage } from './types';
import { seg } from './util';

/**
 * Inboxes, comments and messages of a conversation (three calls, concurrently; messages to their last
 * page, oldest first). Null when the conversation is gone meanwhile (404, or 301 after a merge).
 */
export async function conversationDetails(
  ctx: AdapterContext,
  conversationId: string,
  o: ResolvedOptions,
  known: { inboxIds?: string[] } = {},
): Promise<Required<ConversationDetails> | null> {
  const base = `/conversations/${seg(conversationId)}`;
  try {
    const [inboxIds, comments, messages] = await Promise.all([
      known.inboxIds ? Promise.resolve(known.inboxIds) : listAll<FrInbox>(ctx, `${base}/inboxes`).then((l) => l.map((i) => i.id)),
      listAll<FrComment>(ctx, `${base}/comments`),
      listAll<FrMessage>(ctx, `${base}/messages`, { limit: o.pageSize, sort_by: 'created_at', sort_order: 'asc' }),
    ]);
    return { inboxIds, comments, messages };
  } catch (err) {
    if (isGone(err)) return null;
    throw err;
  }
}

/** The unified ticket, its comments (messages and comments) and their attachments. Drafts are left out. */
export function unifyWithDetails(c: FrConversation, d: ConversationDetails | null, ctx: Pick<AdapterContext, 'ids'>): UnifiedRecord[] {
  const ticket = unifyConversation(c, ctx.ids, d ?? {});
  if (!d) return [ticket];
  const out: UnifiedRecord[] = [ticket];
  for (const m of d.messages ?? []) {
    if (!m || typeof m.id !== 'string' || m.draft_mode) continue;
    const u = unifyMessage(m, c.id, ctx.ids);
    out.push(u.comment, ...u.attachments);
  }
  for (const cm of d.comments ?? []) {
    if (!cm || typeof cm.id !== 'string') continue;
    const u = unifyComment(cm, c.id, ctx.ids);
    out.push(u.comment, ...u.attachments);
  }
  return out;
}

/** Reads a conversation with its details and unifies it; the record first, the comments and attachments after. */
export async function loadConversation(
  ctx: AdapterContext,
  conversationId: string,
  o: ResolvedOptions,
  known: { inboxIds?: string[] } = {},
): Promise<{ record: UnifiedRecord; related: UnifiedRecord[] }> {
  const [conv, details] = await Promise.all([
    ctx.http.get<FrConversation>(`/conversations/${seg(conversationId)}`).then((r) => r.data),
    conversationDetails(ctx, conversationId, o, known),
  ]);
  const [record, ...related] = unifyWithDetails(conv, details, ctx);
  return { record: record!, related };
}

/**
 * What a change touched beyond the conversation itself, as webhooks name it: `comment:<id>` and `message:<id>` (that
 * comment or message), `comments` and `messages` (all of them), `inboxes` (the conversation's inboxes).
 */
export type ConversationPart = `comment:${string}` | `message:${string}` | 'comments' | 'messages' | 'inboxes';

/** One comment or message by id; null when it is gone meanwhile. */
async function getUnlessGone<T>(ctx: AdapterContext, path: string): Promise<T | null> {
  try {
    return (await ctx.http.get<T>(path)).data;
  } catch (err) {
    if (isGone(err)) return null;
    throw err;
  }
}

/**
 * A stored conversation read in part: the conversation (its status, assignee, tags, subject) and only the parts a
 * change touched (one call each; two comments or messages of one burst are listed instead). Its description (the
 * opening message or comment) and, unless the inboxes are read, its collection are not recomputed: `unread`
 * keeps their stored values.
 */
async function loadConversationParts(ctx: AdapterContext, conversationId: string, o: ResolvedOptions, parts: readonly string[]): Promise<UnifiedRecord[]> {
  const base = `/conversations/${seg(conversationId)}`;
  const ofKind = (kind: string) => parts.filter((p) => p.startsWith(`${kind}:`)).map((p) => p.slice(kind.length + 1));
  const commentIds = ofKind('comment');
  const messageIds = ofKind('message');
  const [conv, inboxIds, comments, messages] = await Promise.all([
    ctx.http.get<FrConversation>(base).then((r) => r.data),
    parts.includes('inboxes') ? listAll<FrInbox>(ctx, `${base}/inboxes`).then((l) => l.map((i) => i.id)) : undefined,
    parts.includes('comments') || commentIds.length > 1
      ? listAll<FrComment>(ctx, `${base}/comments`)
      : Promise.all(commentIds.map((id) => getUnlessGone<FrComment>(ctx, `/comments/${seg(id)}`))),
    parts.includes('messages') || messageIds.length > 1
      ? listAll<FrMessage>(ctx, `${base}/messages`, { limit: o.pageSize, sort_by: 'created_at', sort_order: 'asc' })
      : Promise.all(messageIds.map((id) => getUnlessGone<FrMessage>(ctx, `/messages/${seg(id)}`))),
  ]);
  const [ticket, ...related] = unifyWithDetails(
    conv,
    { inboxIds, comments: comments.filter((c): c is FrComment => c !== null), messages: messages.filter((m): m is FrMessage => m !== null) },
    ctx,
  );
  // A task's description is its own field, read with it.
  const unread = [...(conv.type === 'task' ? [] : ['description']), ...(inboxIds ? [] : ['project_id'])];
  return [{ ...ticket!, unread }, ...related];
}

/**
 * Conversations by id, each with its comments and attachments (four calls a conversation, concurrently), or only
 * with the parts a change touched (`parts`, for conversations already stored): what a webhook names is read
 * directly instead of through the ticket stream. A conversation gone for good (404, or 301 after a merge) or out
 * of the token's reach (403, a private inbox) is left out: the deletion check and the scheduled sync see it. A
 * trashed one comes back with status `deleted`, reported deleted.
 */
export async function loadConversations(
  ctx: AdapterContext,
  conversationIds: string[],
  o: ResolvedOptions,
  parts?: ReadonlyMap<string, readonly string[]>,
): Promise<UnifiedRecord[]> {
  const loaded = await Promise.all(
    conversationIds.map(async (id): Promise<UnifiedRecord[]> => {
      try {
        const touched = parts?.get(id);
        if (touched) return await loadConversationParts(ctx, id, o, touched);
        const { record, related } = await loadConversation(ctx, id, o);
        return [record, ...related];
      } catch (err) {
        if (isGone(err) || isStatus(err, 403)) return [];
        throw err;
      }
    }),
  );
  return loaded.flat();
}
