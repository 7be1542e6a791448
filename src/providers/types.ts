import type { IdOf } from '../core/unified/ids';
import type { ProviderManifest } from './manifest';
import type { ProviderHttpClient } from './http-client';

/** One provider object in unified form, ready for the store. References inside `data` are Omniport ids. */
export interface UnifiedRecord {
  objectType: string;
  remoteId: string;
  data: Record<string, unknown>;
  remoteData: Record<string, unknown>;
  remoteCreatedAt: Date | null;
  remoteUpdatedAt: Date | null;
  /** The provider reports the object deleted. */
  deleted?: boolean;
  /** The object this one belongs to (the ticket of a comment, the comment of an attachment). */
  parent?: { objectType: string; remoteId: string };
  /**
   * Unified fields a partial read (`ProviderWebhooks.fetchChanged` with `parts`) did not cover (Front's description,
   * from the messages): the stored values are kept.
   */
  unread?: string[];
}

/** What an adapter call gets: the connection, its authenticated HTTP client and the id function. */
export interface AdapterContext {
  connectionId: string;
  baseUrl: string;
  credentials: Record<string, string>;
  http: ProviderHttpClient;
  ids: IdOf;
}

/** A batch of records from a sync, with what is needed to resume after it. */
export interface SyncBatch {
  records: UnifiedRecord[];
  /** Opaque position after this batch, saved so a crashed run resumes here. */
  resume: string | null;
  /**
   * Parents whose children of `objectType` this batch lists in full (every comment of each changed ticket):
   * their stored children it does not list are gone and are marked deleted, at no extra provider call.
   */
  completeChildren?: { objectType: string; parents: { objectType: string; remoteId: string }[] };
  /**
   * The provider's own position for the next incremental run after this batch (event sync tokens), saved
   * with the batch and handed back as `SyncOptions.cursor`; absent leaves the saved one as it is.
   */
  cursor?: string;
  /** Objects the provider's change feed reports deleted, by remote id only (their stored fields are kept). */
  deleted?: { objectType: string; remoteId: string }[];
}

export interface SyncOptions {
  /** Incremental: only objects changed since then (already moved back by the overlap window). */
  since?: Date;
  /** Continue a run that stopped after the batch that returned this position. */
  resume?: string;
  /** The provider's own position saved by the last batch that gave one (`SyncBatch.cursor`). */
  cursor?: string;
}

/**
 * Streams unified objects from the provider, page by page, to the last page. Usually one object type;
 * several where one provider list yields them together (Zendesk users are agents and end-users).
 */
export interface ObjectSyncer {
  /** Name of the sync stream (its state is kept under it), e.g. `ticketing.ticket`. */
  key: string;
  /** Object types the stream yields. */
  objectTypes: string[];
  /** Supports `since`; otherwise every run is full. */
  incremental: boolean;
  /**
   * The provider reports deletions in its incremental feed. Otherwise a full run that completes marks
   * records it did not see as deleted.
   */
  reportsDeletions: boolean;
  run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch>;
  /**
   * For streams whose incremental runs cannot see deletions: a listing of ids alone, for the periodic
   * deletion check. Without it, such deletions are seen at the next full run only.
   */
  deletionCheck?: DeletionCheck;
  /**
   * For full-run streams walked by offset or page number, where an item deleted during the run moves the
   * next ones back a place and one can go unread: whether an object the run did not list still exists, asked
   * of the provider for that object alone. A full run then marks deleted only the unlisted objects the
   * provider confirms gone (at most a bounded number per run; the rest at the next runs).
   */
  stillExists?(ctx: AdapterContext, object: UnlistedObject): Promise<boolean>;
}

/** An object a full run did not list, as stored. */
export interface UnlistedObject {
  objectType: string;
  remoteId: string;
  remoteData: Record<string, unknown>;
  /** Its parent, then that parent's parent, where stored (a comment's ticket; an attachment's comment and ticket). */
  parents?: { objectType: string; remoteId: string }[];
}

export interface DeletionCheck {
  /** The object types whose ids `listIds` lists (objects of these types it does not list are gone). */
  objectTypes: string[];
  /** Every remote id the provider still has, as lightly as its API allows (ids only, the largest pages). */
  listIds(ctx: AdapterContext, opts: { resume?: string }): AsyncIterable<IdBatch>;
}

/** One page of an id listing: remote ids as the stream's records carry them, and the position after it. */
export interface IdBatch {
  remoteIds: string[];
  resume: string | null;
}

/** A file to upload with a comment, already fetched. */
export interface FileUpload {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** A custom field value to write, from field mappings. */
export interface CustomFieldValue {
  remoteFieldId: string;
  value: unknown;
}

/**
 * Ticket fields as an adapter receives them: validated, normalised (description and comment as arrays),
 * and references translated to the provider's remote ids.
 */
export interface TicketWrite {
  name?: string;
  status?: string;
  description?: string[];
  due_date?: string;
  type?: string;
  parent_ticket?: string;
  project_id?: string;
  tags?: string[];
  completed_at?: string;
  priority?: string;
  assigned_to?: string[];
  comment?: string[];
  account_id?: string;
  contact_id?: string;
  customFields?: CustomFieldValue[];
}

export interface CommentWrite {
  body?: string;
  html_body?: string;
  is_private?: boolean;
  /** Checked by the unified schema (`commentInput`) before an adapter sees it. */
  creator_type?: 'USER' | 'CONTACT';
  /** Remote id of the ticket. */
  ticket_id: string;
  contact_id?: string;
  user_id?: string;
  files: FileUpload[];
  customFields?: CustomFieldValue[];
}

/** The object written, and objects created along with it (comments of a new ticket, attachments). */
export interface WriteResult {
  record: UnifiedRecord;
  related?: UnifiedRecord[];
}

/** The outcome of one element of a bulk write: the object, or why it failed. */
export type BulkItemResult = { ok: true; result: WriteResult } | { ok: false; error: Error };

export interface TicketingOperations {
  createTicket(ctx: AdapterContext, input: TicketWrite): Promise<WriteResult>;
  /** Bulk create with the provider's own bulk API; results in input order. */
  createTickets?(ctx: AdapterContext, inputs: TicketWrite[]): Promise<BulkItemResult[]>;
  updateTicket(ctx: AdapterContext, remoteId: string, patch: TicketWrite): Promise<WriteResult>;
  createComment(ctx: AdapterContext, input: CommentWrite): Promise<WriteResult>;
}

/** How the HTTP client authenticates and reads errors for this provider. */
export interface ProviderHttpProfile {
  authHeaders(credentials: Record<string, string>): Record<string, string>;
  /** The provider's human message in an error body. */
  errorMessage(body: unknown): string | undefined;
  /**
   * For providers that signal rate limits with another status than 429 (GitHub: 403 with
   * `x-ratelimit-remaining: 0` or a "secondary rate limit" message): such answers are waited out
   * and retried like a 429.
   */
  isRateLimited?(status: number, headers: Record<string, string>, body: unknown): boolean;
}

/** A provider: its manifest (data) and its code. */
export interface ProviderAdapter {
  manifest: ProviderManifest;
  http: ProviderHttpProfile;
  /** Checks the credentials with one cheap call; throws the provider's error if they are refused. */
  verifyCredentials(ctx: AdapterContext): Promise<void>;
  /** In dependency order: referenced objects first. */
  syncers: ObjectSyncer[];
  ticketing?: TicketingOperations;
  crm?: CrmOperations;
  customFields?: CustomFieldSupport;
  /** Real-time updates: how the provider's webhooks are created, verified and read (docs/webhooks-in.md). */
  webhooks?: ProviderWebhooks;
  /**
   * Real-time updates through webhooks of the project's provider app (HubSpot's), which an app admin
   * subscribes once for every account: requests are routed to connections by account.
   */
  appWebhooks?: ProviderAppWebhooks;
}

/** One request to a provider webhook's public address, as received. */
export interface IncomingWebhook {
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The body exactly as sent: signatures cover these bytes. */
  rawBody: Buffer;
  /** The method and the address as the provider called it (public URL, path and query), for schemes that sign them. */
  method?: string;
  url?: string;
}

/** What a verified request says: the provider's delivery id (replays are refused) and the streams it touches. */
export interface WebhookNotice {
  deliveryId: string;
  /** Sync streams with changes (their incremental sync runs, coalesced per connection and stream). */
  streams: string[];
  /**
   * Objects the request says were deleted, for providers whose lists do not show deletions: marked
   * `remote_was_deleted` at once (with their `.deleted` events) instead of at the next deletion check.
   */
  deleted?: { objectType: string; remoteId: string }[];
  /**
   * Objects the request says were created or changed. Those of a type the adapter reads by id
   * (`ProviderWebhooks.fetchChanged`) are read and saved directly, and a stream whose every type is read so is not
   * run: a bulk read by id is quicker than an incremental run (Zendesk's exports are paced at 10 calls a minute).
   * `parts`: what of the object the change touched, in the adapter's own words (Front: `comment:<id>`, `inboxes`;
   * `[]`: the object alone), so that only that is read; absent: the object in full.
   */
  changed?: { objectType: string; remoteId: string; parts?: string[] }[];
}

/**
 * A provider's webhooks as data and small functions; the core (src/core/provider-webhooks.ts) does the rest:
 * the route, the replay window, deduplication, coalescing and the registration's lifecycle.
 */
export interface ProviderWebhooks {
  /** How far the request's signed timestamp may be from now (the provider's replay window). */
  replayWindowSeconds: number;
  /**
   * Checks the signature (constant time) with the webhook's secret. Answers the signed time (ms) when the
   * scheme signs one, or `null` for a forged request.
   */
  verify(req: IncomingWebhook, secret: string): { signedAt: number | null } | null;
  /** The delivery id and the streams of a verified request; `null` for a request that is not a change. */
  parse(req: IncomingWebhook, body: unknown): WebhookNotice | null;
  /**
   * Creates the webhook at the provider; answers its ids and the signing secret. `manual`: the provider's API
   * cannot create it (Front's app webhooks): an admin pastes the address (`real_time_setup` of
   * GET /connections/{id}) and the secret comes from the connection's credentials; nothing is deleted with it.
   * `signedByOAuthApp`: the provider signs with the client secret of the project's OAuth app (Jira's dynamic
   * webhooks), read at each request (it may be rotated); `secret` is then empty. `offered`: a new secret, already
   * recorded for the address, for the providers that take the caller's (GitHub, GitLab, Jira, Linear, Gorgias,
   * Pipedrive): what they send while the registration is under way (GitHub's ping of each new hook) then verifies.
   */
  register(
    ctx: AdapterContext,
    url: string,
    offered: string,
  ): Promise<{ remoteIds: Record<string, string>; secret: string; expiresAt?: Date; manual?: boolean; signedByOAuthApp?: boolean }>;
  /** Deletes what `register` created (a hook already gone is not an error). */
  unregister(ctx: AdapterContext, remoteIds: Record<string, string>): Promise<void>;
  /**
   * For webhooks that expire, or that the provider may drop (Asana's after failed deliveries): extends or checks
   * them, answering when to do so again. Throws `WebhookGoneError` when the provider no longer has them: the
   * core deletes what is left and creates them anew.
   */
  renew?(ctx: AdapterContext, remoteIds: Record<string, string>): Promise<Date>;
  /**
   * Reads objects named in `WebhookNotice.changed` by id; objects it does not answer are left to the sync.
   * `alsoReads`: per type read, the types a read of it also returns in full (Front: a conversation's comments
   * and their attachments), which then need no stream run either.
   * `parts`: per remote id, the parts its changes touched (the union of their `parts`), for objects already stored;
   * an id without an entry is read in full. Fields a partial read leaves out are named in `UnifiedRecord.unread`.
   */
  fetchChanged?: {
    objectTypes: readonly string[];
    alsoReads?: Readonly<Record<string, readonly string[]>>;
    fetch(ctx: AdapterContext, objectType: string, remoteIds: string[], parts?: ReadonlyMap<string, readonly string[]>): Promise<UnifiedRecord[]>;
  };
  /**
   * A verified request that only checks the address (Front's `x-front-challenge` when an app's webhook is
   * saved): the body to answer with (200), instead of a change.
   */
  challenge?(req: IncomingWebhook): Record<string, unknown> | undefined;
  /**
   * For providers that confirm a new webhook by calling its address while the call creating it waits (Asana's
   * `X-Hook-Secret`), before any secret is known: the headers to answer with and the secret to keep (`recorded`:
   * what earlier handshakes of the same registration kept). The core accepts it only for a registration of
   * that address under way; `register`'s own `secret`, when not empty, wins over what handshakes recorded.
   */
  handshake?(req: IncomingWebhook, recorded: string): { headers: Record<string, string>; record: string } | undefined;
  /** For `manual` webhooks: which secret signs, as `real_time_setup.signed_with` says it. */
  signedWith?: string;
}

/**
 * Webhooks of a provider app (HubSpot's public app): one address per project and provider, pasted once by an
 * app admin, signed with the app's client secret (the project's OAuth app); each request names the accounts
 * its events are about, and Omniport routes them to the connections of those accounts.
 */
export interface ProviderAppWebhooks {
  replayWindowSeconds: number;
  /** The account a connection's credentials belong to (HubSpot: the portal id). */
  accountOf(ctx: AdapterContext): Promise<string>;
  /** Checks the signature with the app's client secret; answers the signed time (ms) or `null` for a forged request. */
  verify(req: IncomingWebhook, secret: string): { signedAt: number | null } | null;
  /** The changes of a verified request, per account (`null`: not a change). */
  parse(req: IncomingWebhook, body: unknown): { accountId: string; notice: WebhookNotice }[] | null;
}

/** A CRM object to write: its unified fields, with references translated to remote ids. */
export type CrmWrite = Record<string, unknown> & { customFields?: CustomFieldValue[] };

export interface CrmOperations {
  /** `objectType` is one of crm.contact, crm.company, crm.deal, crm.note, crm.task, crm.engagement. */
  create(ctx: AdapterContext, objectType: string, input: CrmWrite): Promise<WriteResult>;
  /** Bulk create with the provider's batch API; one result per input, in order. */
  createMany?(ctx: AdapterContext, objectType: string, inputs: CrmWrite[]): Promise<BulkItemResult[]>;
  update(ctx: AdapterContext, objectType: string, remoteId: string, patch: CrmWrite): Promise<WriteResult>;
}

/** A custom field of the provider, as GET /field-mapping/remote-fields lists it. */
export interface RemoteField {
  id: string;
  label: string;
  type: string;
  object_type: string;
}

/** How a provider exposes custom fields, for field mapping. */
export interface CustomFieldSupport {
  /** Unified object types whose custom fields can be mapped. */
  objectTypes: string[];
  list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]>;
  /** The raw value of a custom field inside the provider's object (as stored in remote_data). */
  read(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown;
}
