/**
 * Front request helpers shared by sync and writes: `_pagination.next` pagination, ticketing statuses,
 * tags by name, channels and contact handles for new messages, and waiting for messages Front creates
 * asynchronously. Everything goes through the connection's client (`ctx.http`).
 */
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { FrAcceptedMessage, FrChannel, FrContact, FrCustomField, FrMessage, FrPage, FrTag, FrTicketStatus } from './types';
import { PROVIDER, seg, sleep, unsupported } from './util';

export interface FrontAdapterOptions {
  /** `limit` of paginated lists (Front allows at most 100). */
  pageSize?: number;
  /**
   * Conversations per sync batch (`limit` of the conversation list). Each conversation costs three more
   * calls (inboxes, comments, messages), so this bounds the work between two saved positions.
   */
  conversationPageSize?: number;
  /** `limit` of the event feed used by incremental sync (Front allows at most 15). */
  eventPageSize?: number;
  /** Read the event feed on incremental runs (catches changes that do not bump a conversation). Default true. */
  useEvents?: boolean;
  /** First wait before looking for a message Front accepted (202); doubles up to 2 s. */
  messagePollIntervalMs?: number;
  /** Longest wait for an accepted message to exist. */
  messageTimeoutMs?: number;
}

export type ResolvedOptions = Required<FrontAdapterOptions>;

export function resolveOptions(o: FrontAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(100, Math.max(1, o.pageSize ?? 100)),
    conversationPageSize: Math.min(100, Math.max(1, o.conversationPageSize ?? 50)),
    eventPageSize: Math.min(15, Math.max(1, o.eventPageSize ?? 15)),
    useEvents: o.useEvents ?? true,
    messagePollIntervalMs: Math.max(1, o.messagePollIntervalMs ?? 250),
    messageTimeoutMs: Math.max(1, o.messageTimeoutMs ?? 30_000),
  };
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface ListPage<T> {
  items: T[];
  /** `page_token` of the next page (null on the last page). */
  next: string | null;
}

/**
 * The `page_token` of a `_pagination.next` link. Front's links may name the company's own host
 * (`https://<company>.api.frontapp.com/…`), so only the token is kept and sent to the connection's base URL.
 */
export function pageTokenOf(next: unknown): string | null {
  if (typeof next !== 'string' || next === '') return null;
  try {
    return new URL(next, 'https://api2.frontapp.com').searchParams.get('page_token') || null;
  } catch {
    return null;
  }
}

/** Walks a list (`limit`, `page_token` → `_pagination.next`) to the last page, from `pageToken` if given. */
export async function* pages<T>(ctx: AdapterContext, path: string, opts: { query?: Query; pageToken?: string | null } = {}): AsyncGenerator<ListPage<T>> {
  let token = opts.pageToken ?? undefined;
  for (;;) {
    const res = await ctx.http.get<FrPage<T>>(path, { query: { ...opts.query, page_token: token } });
    const body = res.data ?? {};
    const items = Array.isArray(body._results) ? body._results : [];
    const next = pageTokenOf(body._pagination?.next);
    yield { items, next };
    if (!next || next === token) return;
    token = next;
  }
}

export async function listAll<T>(ctx: AdapterContext, path: string, query?: Query): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages<T>(ctx, path, { query })) out.push(...page.items);
  return out;
}

export const isStatus = (e: unknown, ...statuses: number[]) => e instanceof ProviderError && statuses.includes(e.providerStatus);
/** Gone: not found, or merged into another conversation (Front answers 301 to the merged one). */
export const isGone = (e: unknown) => isStatus(e, 404, 301, 410);

/** The company's ticketing statuses, or null when ticketing is not enabled (Front answers 404). */
export async function ticketStatuses(ctx: AdapterContext): Promise<FrTicketStatus[] | null> {
  try {
    return await listAll<FrTicketStatus>(ctx, '/company/statuses');
  } catch (err) {
    if (isStatus(err, 404)) return null;
    throw err;
  }
}

export async function conversationCustomFields(ctx: AdapterContext): Promise<FrCustomField[]> {
  return listAll<FrCustomField>(ctx, '/conversations/custom_fields');
}

/** Front tag names are at most 64 characters. */
export const TAG_NAME_MAX = 64;

/**
 * Tag ids for tag names: a name matches a tag exactly, else case-insensitively; a name Front does not
 * know is created (`POST /tags`, a company tag), as tags are free text in the unified model.
 */
export async function tagIdsFor(ctx: AdapterContext, names: string[], o: ResolvedOptions): Promise<string[]> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
  if (wanted.length === 0) return [];
  for (const n of wanted) if (n.length > TAG_NAME_MAX) throw unsupported('tags', `Front tag names are at most ${TAG_NAME_MAX} characters: ${JSON.stringify(n)}`);
  const tags = await listAll<FrTag>(ctx, '/tags', { limit: o.pageSize });
  const ids: string[] = [];
  for (const name of wanted) {
    const found = tags.find((t) => t.name === name) ?? tags.find((t) => t.name?.toLowerCase() === name.toLowerCase());
    if (found) {
      ids.push(found.id);
      continue;
    }
    const created = (await ctx.http.post<FrTag>('/tags', { json: { name } })).data;
    if (!created?.id) throw new AppError('provider_error', `Front did not return the tag ${JSON.stringify(name)} it created`, { provider: PROVIDER });
    tags.push(created);
    ids.push(created.id);
  }
  return ids;
}

const EMAIL_CHANNELS = new Set(['gmail', 'imap', 'office365', 'smtp', 'front_mail']);
const PHONE_CHANNELS = new Set(['twilio', 'twilio_whatsapp', 'truly', 'talkdesk']);

/** The channel of an inbox a new message is sent from (the first valid one). */
export async function channelOfInbox(ctx: AdapterContext, inboxId: string): Promise<FrChannel> {
  let channels: FrChannel[];
  try {
    channels = await listAll<FrChannel>(ctx, `/inboxes/${seg(inboxId)}/channels`);
  } catch (err) {
    if (isGone(err)) throw new AppError('unknown_reference', `project_id: Front has no inbox ${inboxId}`, { field: 'project_id', provider: PROVIDER });
    throw err;
  }
  const channel = channels.find((c) => c.is_valid !== false) ?? channels[0];
  if (!channel) throw unsupported('project_id', `the Front inbox ${inboxId} has no channel to send a message from`);
  return channel;
}

/** The contact's handle a message on `channel` can reach: an email address for email channels, a phone number for SMS. */
export async function recipientHandle(ctx: AdapterContext, contactId: string, channel: FrChannel): Promise<string> {
  let contact: FrContact;
  try {
    contact = (await ctx.http.get<FrContact>(`/contacts/${seg(contactId)}`)).data;
  } catch (err) {
    if (isGone(err)) throw new AppError('unknown_reference', `contact_id: Front has no contact ${contactId}`, { field: 'contact_id', provider: PROVIDER });
    throw err;
  }
  const handles = contact.handles ?? [];
  const source = EMAIL_CHANNELS.has(channel.type ?? '') ? 'email' : PHONE_CHANNELS.has(channel.type ?? '') ? 'phone' : undefined;
  const handle = (source ? handles.find((h) => h.source === source) : handles[0]) ?? undefined;
  if (!handle) {
    throw unsupported('contact_id', `the Front contact ${contactId} has no ${source ?? ''} handle the ${channel.type ?? ''} channel can send to`.replace(/\s+/g, ' '));
  }
  return handle.handle;
}

/**
 * Front accepts message sends with 202 and creates the message asynchronously; its UID is a resource
 * alias (`alt:uid:<uid>`) that answers 404 until the message exists. Polls with a doubling interval.
 */
export async function waitForMessage(ctx: AdapterContext, accepted: FrAcceptedMessage | undefined, o: ResolvedOptions): Promise<FrMessage> {
  const uid = accepted?.message_uid;
  if (!uid) throw new AppError('provider_error', 'Front accepted the message but returned no message_uid', { provider: PROVIDER });
  const deadline = Date.now() + o.messageTimeoutMs;
  let wait = o.messagePollIntervalMs;
  for (;;) {
    try {
      return (await ctx.http.get<FrMessage>(`/messages/${seg(`alt:uid:${uid}`)}`)).data;
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
    }
    if (Date.now() + wait > deadline) {
      throw new AppError('provider_timeout', `Front accepted message ${uid} but had not created it after ${o.messageTimeoutMs} ms`, {
        provider: PROVIDER,
        message_uid: uid,
      });
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 2_000);
  }
}
