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
 * Conversations by id, each with its comments and attachments (four calls a conversation, concurrently): what a
 * webhook names is read directly instead of through the ticket stream. A conversation gone for good (404, or 301
 * after a merge) or out of the token's reach (403, a private inbox) is left out: the deletion check and the
 * scheduled sync see it. A trashed one comes back with status `deleted`, reported deleted.
 */
export async function loadConversations(ctx: AdapterContext, conversationIds: string[], o: ResolvedOptions): Promise<UnifiedRecord[]> {
  const loaded = await Promise.all(
    conversationIds.map(async (id): Promise<UnifiedRecord[]> => {
      try {
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
