/**
 * Provider webhooks in (issue 17): changes pushed by the providers reach Omniport in seconds instead of at
 * the next scheduled sync. The core owns the lifecycle and the checks every provider shares; each adapter's
 * `webhooks` part (src/providers/<name>/webhooks.ts) says how its provider creates, signs and words them.
 *
 * A request is accepted only when its signature matches (constant time), its signed time is inside the
 * provider's replay window and its delivery id is new; anything else is a 401 that changes nothing. An
 * accepted request only queues the incremental sync of the streams it names: the sync queue keeps at most
 * one waiting job per connection and stream, so a burst of deliveries costs one or two runs. Webhooks never
 * replace the scheduled sync: they shorten the delay, the sync still reconciles what a lost webhook missed.
 */
import { inSlices } from './slices';
import { PURGE_SLICE } from '../store/purge';
import { createHmac } from 'node:crypto';
import { AppError } from './errors';
import { hostReach } from './network';
import { randomBase62, type SecretBox } from './secrets';
import type { ProviderContexts } from './provider-context';
import type { ConnectionRow, ControlPlaneRepo } from '../store/control-plane.repo';
import type { ProviderWebhookRow, ProviderWebhooksRepo } from '../store/provider-webhooks.repo';
import type { IncomingWebhook, ProviderWebhooks, WebhookNotice } from '../providers/types';
import { WebhookGoneError, newWebhookSecret } from '../providers/webhook-registration';
import type { UnifiedRepo } from '../store/unified.repo';
import { toRows } from './unified/records';
import { unifiedId } from './unified/ids';

export interface ProviderWebhookLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The `remote_ids` key saying which secret signs, when it is not the row's own (`oauth_app`: the project's OAuth app's client secret). */
const SIGNED_BY = 'signed_by';

/** Delivery ids are kept this long: longer than every provider's replay window. */
const RECEIPT_RETENTION_MS = 24 * 3_600_000;
/** How often the creation of a connection's missing provider webhook is tried again. */
const REGISTRATION_RETRY_MS = 3_600_000;

/**
 * How long a registration that waits for the provider's handshake (mode `pending`) may take: a handshake after it
 * is refused, and a row left that long by a process that stopped is replaced at the next registration.
 */
const PENDING_MS = 10 * 60_000;

export type ReceiveOutcome =
  | { kind: 'accepted'; streams: string[] }
  | { kind: 'ignored' }
  | { kind: 'challenge'; answer: Record<string, unknown> }
  | { kind: 'handshake'; headers: Record<string, string> };

export class ProviderWebhookService {
  logger: ProviderWebhookLogger | undefined;
  /** The client secret of a project's OAuth app for a provider (signs app-level webhooks), when one is set. */
  appSecretOf: ((projectId: string, provider: string) => Promise<string | undefined>) | undefined;
  /** Queues the incremental sync of streams of a connection (the job runner's `enqueue`). */
  enqueue: ((connectionId: string, streams: string[]) => Promise<void>) | undefined;
  /** Sends for one connection and stream in flight, and whether another is wanted after it. */
  private readonly sending = new Map<string, { again: boolean }>();
  /** When each webhook's `last_received_at` was last written by this process (a burst writes it once a second). */
  private readonly touched = new Map<string, number>();
  /**
   * Sends (and reads by id, with the ids gathered) waiting for a burst to end, by connection and stream or object type.
   * Per id, the parts its changes touched (`WebhookNotice.changed[].parts`), or null: read it in full.
   */
  private readonly pending = new Map<string, { first: number; timer: NodeJS.Timeout; ids: Map<string, Set<string> | null> }>();
  /** Reads by id under way, per connection: a connection's deletion waits for them (their upserts would race it). */
  private readonly reading = new Map<string, Set<Promise<void>>>();
  /** When this process last tried to create the webhook of a connection that has none (`registerMissing`). */
  private readonly registrationTried = new Map<string, number>();
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly repo: ProviderWebhooksRepo,
    private readonly unified: UnifiedRepo,
    private readonly controlPlane: ControlPlaneRepo,
    private readonly contexts: ProviderContexts,
    private readonly box: SecretBox,
    private readonly opts: { publicUrl?: string; allowPrivateUrls: boolean; now?: () => number; debounceMs?: number; maxWaitMs?: number },
  ) {
    this.debounceMs = opts.debounceMs ?? 500;
    // A burst of hundreds costs one run per 30 s it lasts (a busy account's steady stream of changes syncs
    // every 30 s, still far sooner than the scheduled sync).
    this.maxWaitMs = opts.maxWaitMs ?? 30_000;
  }

  /** For a server that learns its address only once listening (tests and benchmarks on port 0). */
  usePublicUrl(url: string): void {
    this.opts.publicUrl = url;
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /**
   * The address providers can reach, or why there is none: webhooks are created only when
   * OMNIPORT_PUBLIC_URL names a public host (a private one is allowed with OMNIPORT_ALLOW_PRIVATE_URLS, for tests).
   */
  async publicBase(): Promise<string | undefined> {
    if (!this.opts.publicUrl) return undefined;
    const url = new URL(this.opts.publicUrl);
    if (!this.opts.allowPrivateUrls && (await hostReach(url.hostname)) !== 'public') return undefined;
    return this.opts.publicUrl.replace(/\/+$/, '');
  }

  /**
   * The opaque part of a provider app's address: one per project and provider, derived from the server's key
   * (unguessable, and the same for every connection, so an app admin pastes it once).
   */
  appKeyOf(projectId: string, provider: string): string {
    return createHmac('sha256', this.box.deriveKey('provider-app-webhooks')).update(`${projectId}:${provider}`).digest('hex').slice(0, 40);
  }

  /**
   * What an admin pastes in the provider's settings, if it applies: the project's address for a provider app's
   * webhooks (HubSpot), or the connection's own address for webhooks the provider's API cannot create (Front).
   */
  async appSetupOf(connection: ConnectionRow): Promise<{ url: string; signed_with: string } | undefined> {
    const adapter = this.contexts.adapterOf(connection);
    const row = adapter.webhooks?.signedWith ? await this.repo.ofConnection(connection.id) : undefined;
    if (row?.mode === 'manual' && this.opts.publicUrl) {
      return { url: `${this.opts.publicUrl.replace(/\/+$/, '')}/webhooks/providers/${connection.provider}/${row.routeKey}`, signed_with: adapter.webhooks!.signedWith! };
    }
    if (!adapter.appWebhooks || adapter.manifest.sandbox || !this.opts.publicUrl) return undefined;
    return {
      url: `${this.opts.publicUrl.replace(/\/+$/, '')}/webhooks/providers/${connection.provider}/${this.appKeyOf(connection.projectId, connection.provider)}`,
      signed_with: 'the client secret of the project’s OAuth app for this provider (PUT /oauth-apps/{provider})',
    };
  }

  /** App-level webhooks: records the connection's account so requests about it reach it. Never fails the connection. */
  private async registerAppFor(connection: ConnectionRow): Promise<ProviderWebhookRow | undefined> {
    const hooks = this.contexts.adapterOf(connection).appWebhooks!;
    if (!(await this.publicBase())) return undefined;
    try {
      if (!(await this.appSecretOf?.(connection.projectId, connection.provider))) throw new Error('the project has no OAuth app for this provider: its client secret signs the app’s webhooks');
      const { ctx } = this.contexts.forConnection(connection, { background: true });
      const accountId = await hooks.accountOf(ctx);
      return await this.repo.insert({
        projectId: connection.projectId,
        connectionId: connection.id,
        provider: connection.provider,
        routeKey: randomBase62(24),
        mode: 'app',
        remoteIds: { appKey: this.appKeyOf(connection.projectId, connection.provider), accountId },
        // The app's client secret signs; it is read from the OAuth app at each request (it may be rotated).
        secretEncrypted: this.box.encrypt(''),
        expiresAt: null,
      });
    } catch (err) {
      this.logger?.warn({ connectionId: connection.id, provider: connection.provider, err: { message: (err as Error).message } }, 'real-time updates through the provider app are off for this connection');
      return undefined;
    }
  }

  /** After a connection is made: creates its provider webhook where the provider supports it. Never fails the connection. */
  async registerFor(connection: ConnectionRow): Promise<ProviderWebhookRow | undefined> {
    const adapter = this.contexts.adapterOf(connection);
    if (adapter.appWebhooks && !adapter.webhooks) {
      if (await this.repo.ofConnection(connection.id)) return undefined;
      return this.registerAppFor(connection);
    }
    if (!adapter.webhooks) return undefined;
    const existing = await this.repo.ofConnection(connection.id);
    if (existing?.mode === 'manual') return this.refreshManual(connection, existing);
    if (existing?.mode === 'pending' && Date.now() - existing.createdAt.getTime() > PENDING_MS) await this.repo.remove(existing.id); // left by a stopped process
    else if (existing) return undefined; // re-authorised: it exists (or its registration is under way)
    // A sandbox's webhooks come from this process to this process: its own address, public or not.
    const base = adapter.manifest.sandbox ? adapter.manifest.sandbox.webhookBase() : await this.publicBase();
    if (!base) return undefined;
    const routeKey = randomBase62(24);
    const url = `${base}/webhooks/providers/${connection.provider}/${routeKey}`;
    const hooks = adapter.webhooks;
    // The secret offered to providers that sign with the caller's (GitHub), known before the provider is called.
    const offered = newWebhookSecret();
    let pending: ProviderWebhookRow | undefined;
    try {
      // Recorded as a registration under way before the provider is called, for what it sends to the address
      // meanwhile: Asana's handshake, or GitHub's ping of each repository's new hook (signed with the offered
      // secret). One webhook per connection: another process registering it meanwhile makes this insert fail.
      // Its expiry lets the housekeeping job find it if this process stops before the registration ends.
      pending = await this.repo.insert({
        projectId: connection.projectId,
        connectionId: connection.id,
        provider: connection.provider,
        routeKey,
        mode: 'pending',
        remoteIds: {},
        secretEncrypted: this.box.encrypt(hooks.handshake ? '' : offered),
        expiresAt: new Date(Date.now() + PENDING_MS),
      });
      const { ctx } = this.contexts.forConnection(connection, { background: true });
      const made = await hooks.register(ctx, url, offered);
      if (made.signedByOAuthApp && !(await this.appSecretOf?.(connection.projectId, connection.provider))) {
        // Nothing could verify its requests: not kept.
        await hooks.unregister(ctx, made.remoteIds).catch(() => undefined);
        throw new Error('the provider signs these webhooks with the project’s OAuth app, and the project has none for it (PUT /oauth-apps/{provider})');
      }
      // The secret the provider answered wins (it came over the authenticated call); else what the handshakes recorded.
      const recorded = hooks.handshake ? await this.repo.byRoute(routeKey) : undefined;
      const secret = made.secret || (recorded ? this.box.decrypt(recorded.secretEncrypted) : '');
      if (hooks.handshake && !secret) {
        await hooks.unregister(ctx, made.remoteIds).catch(() => undefined);
        throw new Error('the provider’s handshake never reached the webhook’s address');
      }
      await this.repo.update(pending.id, {
        mode: made.manual ? 'manual' : 'registered',
        remoteIds: made.signedByOAuthApp ? { ...made.remoteIds, [SIGNED_BY]: 'oauth_app' } : made.remoteIds,
        secretEncrypted: this.box.encrypt(secret),
        expiresAt: made.expiresAt ?? null,
      });
      pending = undefined;
      return await this.repo.byRoute(routeKey);
    } catch (err) {
      if (pending) await this.repo.remove(pending.id).catch(() => undefined);
      // Real time stays off (GET /sync/status says so); the scheduled sync goes on as before.
      this.logger?.warn({ connectionId: connection.id, provider: connection.provider, err: { message: (err as Error).message } }, 'creating the provider webhook failed; real-time updates are off for this connection');
      return undefined;
    }
  }

  /**
   * Connections whose provider webhook could not be created when they were made (the provider or the network
   * failed, or OMNIPORT_PUBLIC_URL was set later) get it now, each tried at most once an hour (the housekeeping
   * runs this every 10 minutes).
   */
  async registerMissing(): Promise<number> {
    if (!(await this.publicBase())) return 0;
    const providers = this.contexts.adapters().filter((a) => a.webhooks && !a.manifest.sandbox).map((a) => a.manifest.name);
    let made = 0;
    for (const id of await this.repo.connectionsWithout(providers)) {
      const last = this.registrationTried.get(id);
      if (last !== undefined && this.now() - last < REGISTRATION_RETRY_MS) continue;
      this.registrationTried.set(id, this.now());
      const connection = await this.controlPlane.findConnectionById(id);
      if (connection?.status !== 'valid' || !(await this.registerFor(connection))) continue;
      this.registrationTried.delete(id);
      made++;
    }
    return made;
  }

  /**
   * A connection re-authorised with new credentials: a `manual` webhook's secret comes from them (an admin may
   * have rotated it), so it is read again; the address stays the one pasted at the provider.
   */
  private async refreshManual(connection: ConnectionRow, row: ProviderWebhookRow): Promise<ProviderWebhookRow> {
    try {
      const { ctx } = this.contexts.forConnection(connection, { background: true });
      const made = await this.contexts.adapterOf(connection).webhooks!.register(ctx, '', '');
      await this.repo.update(row.id, { secretEncrypted: this.box.encrypt(made.secret), remoteIds: made.remoteIds });
    } catch (err) {
      this.logger?.warn({ connectionId: connection.id, provider: connection.provider, err: { message: (err as Error).message } }, 'reading the webhook secret of the new credentials failed; the previous one stays');
    }
    return row;
  }

  /** Before a connection is deleted: deletes its provider webhook (a failure is logged; the row goes with the connection). */
  async unregisterFor(connection: ConnectionRow): Promise<void> {
    const row = await this.repo.ofConnection(connection.id);
    if (!row) return;
    const adapter = this.contexts.adapterOf(connection);
    if (row.mode === 'registered' && adapter.webhooks) {
      try {
        const { ctx } = this.contexts.forConnection(connection, { background: true });
        await adapter.webhooks.unregister(ctx, row.remoteIds);
      } catch (err) {
        this.logger?.warn({ connectionId: connection.id, provider: connection.provider, err: { message: (err as Error).message } }, 'deleting the provider webhook failed; the provider will find its address gone');
      }
    }
    await this.repo.remove(row.id);
    this.touched.delete(row.id);
    // No request is accepted for it now: drop its waiting sends and reads, and let the reads under way finish.
    for (const [key, { timer }] of this.pending) {
      if (!key.startsWith(`${connection.id}:`)) continue;
      clearTimeout(timer);
      this.pending.delete(key);
    }
    await Promise.allSettled([...(this.reading.get(connection.id) ?? [])]);
  }

  /** Whether real-time updates are on for a connection, and when the last one arrived. */
  async statusOf(connectionId: string): Promise<{ active: boolean; mode: string | null; lastReceivedAt: Date | null }> {
    const row = await this.repo.ofConnection(connectionId);
    const active = Boolean(row) && row!.mode !== 'pending';
    return { active, mode: active ? row!.mode : null, lastReceivedAt: active ? row!.lastReceivedAt : null };
  }

  /**
   * One request to `/webhooks/providers/{provider}/{routeKey}`. Throws 401 (nothing recorded, nothing
   * queued) for an unknown address, a bad signature, a signed time outside the window or a replayed id.
   */
  async receive(provider: string, routeKey: string, req: IncomingWebhook): Promise<ReceiveOutcome> {
    const refused = (why: string) => {
      this.logger?.info({ provider, why }, 'provider webhook refused');
      // One answer for every refusal: a caller learns nothing about which check failed.
      return new AppError('unauthorized', 'the webhook request could not be verified');
    };
    if (!/^[A-Za-z0-9]{16,64}$/.test(routeKey)) throw refused('unknown address');
    if (req.url?.startsWith('/')) req = { ...req, url: `${(this.opts.publicUrl ?? '').replace(/\/+$/, '')}${req.url}` };
    const row = await this.repo.byRoute(routeKey);
    if (!row || row.mode === 'app') return this.receiveApp(provider, routeKey, req, refused);
    if (row.provider !== provider) throw refused('unknown address');
    const connection = await this.controlPlane.findConnectionById(row.connectionId);
    if (!connection) throw refused('unknown address');
    const hooks = this.contexts.adapterOf(connection).webhooks;
    if (!hooks) throw refused('provider has no webhooks');
    const handshake = hooks.handshake?.(req, row.mode === 'pending' ? this.box.decrypt(row.secretEncrypted) : '');
    const underWay = row.mode === 'pending' && Date.now() - row.createdAt.getTime() <= PENDING_MS;
    if (handshake || (row.mode === 'pending' && hooks.handshake)) {
      // Answered only for this address's registration under way: a handshake at any other time, and anything
      // else before the registration ends, is refused (the provider retries its events).
      if (!handshake || !underWay) throw refused('handshake outside a registration under way');
      await this.repo.update(row.id, { secretEncrypted: this.box.encrypt(handshake.record) });
      return { kind: 'handshake', headers: handshake.headers };
    }
    // Without a handshake, a registration under way already has the secret it offered (GitHub's pings).
    if (row.mode === 'pending' && !underWay) throw refused('registration left unfinished');
    const secret = row.remoteIds[SIGNED_BY] === 'oauth_app' ? await this.appSecretOf?.(row.projectId, provider) : this.box.decrypt(row.secretEncrypted);
    const body = this.verifiedBody(hooks, req, secret, refused);
    const answer = hooks.challenge?.(req);
    if (answer) return { kind: 'challenge', answer };
    const notice = hooks.parse(req, body);
    if (!notice) return { kind: 'ignored' };
    const streams = await this.apply(row, connection, notice);
    if (!streams) throw refused('replayed delivery id');
    return { kind: 'accepted', streams };
  }

  /** The body of a request whose signature and signed time check out (else the refusal is thrown). */
  private verifiedBody(hooks: Pick<ProviderWebhooks, 'verify' | 'replayWindowSeconds'>, req: IncomingWebhook, secret: string | undefined, refused: (why: string) => AppError): unknown {
    // No secret (or an empty one, which a shared-token scheme would match with an empty header): nothing verifies.
    const verified = secret ? hooks.verify(req, secret) : null;
    if (!verified) throw refused('signature');
    if (verified.signedAt !== null && !(Math.abs(this.now() - verified.signedAt) <= hooks.replayWindowSeconds * 1000)) throw refused('timestamp outside the replay window');
    try {
      return JSON.parse(req.rawBody.toString('utf8'));
    } catch {
      throw new AppError('malformed_json', 'the webhook body is not JSON');
    }
  }

  /** A verified notice for one connection: its delivery id recorded (undefined: a replay), deletions marked, streams queued. */
  private async apply(row: ProviderWebhookRow, connection: ConnectionRow, notice: WebhookNotice): Promise<string[] | undefined> {
    const now = Date.now();
    const touch = now - (this.touched.get(row.id) ?? 0) >= 1000;
    if (!(await this.repo.accept(row.id, notice.deliveryId, touch))) return undefined;
    if (touch) this.touched.set(row.id, now);
    const adapter = this.contexts.adapterOf(connection);
    const syncers = new Map(adapter.syncers.map((s) => [s.key, s]));
    const streams = [...new Set(notice.streams)].filter((s) => syncers.has(s));
    const deleted = new Map<string, string[]>();
    for (const d of notice.deleted ?? []) deleted.set(d.objectType, [...(deleted.get(d.objectType) ?? []), d.remoteId]);
    for (const [objectType, remoteIds] of deleted) await this.unified.markRemoteDeleted(connection.id, objectType, remoteIds);
    const fetchChanged = adapter.webhooks?.fetchChanged;
    const byId = (notice.changed ?? []).filter((c) => fetchChanged?.objectTypes.includes(c.objectType));
    const readTypes = new Set(byId.flatMap((c) => [c.objectType, ...(fetchChanged?.alsoReads?.[c.objectType] ?? [])]));
    // A stream whose every object type is read by id needs no run.
    const runs = streams.filter((s) => !syncers.get(s)!.objectTypes.every((t) => readTypes.has(t)));
    if (connection.status === 'valid') {
      for (const stream of runs) this.queue(connection.id, stream);
      for (const c of byId) this.queueRead(connection.id, c.objectType, c.remoteId, c.parts);
    }
    return streams;
  }

  /**
   * A request to a provider app's address (`appKey`): verified with the project's OAuth app secret, then each
   * account's changes go to the connections of that account. Replayed when every part was seen before.
   */
  private async receiveApp(provider: string, appKey: string, req: IncomingWebhook, refused: (why: string) => AppError): Promise<ReceiveOutcome> {
    const rows = await this.repo.ofApp(provider, appKey);
    // Each connection read once per request (a burst of requests reads them hundreds of times).
    const connections = new Map<string, Promise<ConnectionRow | undefined>>();
    const connectionOf = (id: string) => connections.get(id) ?? connections.set(id, this.controlPlane.findConnectionById(id)).get(id)!;
    // Every row of an address belongs to one project and provider: any of them says how to verify.
    const first = rows.length ? await connectionOf(rows[0]!.connectionId) : undefined;
    const hooks = first ? this.contexts.adapterOf(first).appWebhooks : undefined;
    if (!first || !hooks) throw refused('unknown address');
    const body = this.verifiedBody(hooks, req, await this.appSecretOf?.(first.projectId, provider), refused);
    const parts = hooks.parse(req, body);
    if (!parts) return { kind: 'ignored' };
    const streams = new Set<string>();
    let fresh = 0;
    let known = 0;
    for (const { accountId, notice } of parts) {
      for (const row of rows.filter((r) => r.remoteIds.accountId === accountId)) {
        const connection = await connectionOf(row.connectionId);
        if (!connection) continue;
        known++;
        const applied = await this.apply(row, connection, notice);
        if (applied) fresh++;
        for (const s of applied ?? []) streams.add(s);
      }
    }
    // Events about accounts with no connection here are answered (the provider would retry them for days).
    if (!known) return { kind: 'ignored' };
    if (!fresh) throw refused('replayed delivery id');
    return { kind: 'accepted', streams: [...streams] };
  }

  /**
   * Queues a stream's sync once a burst is over: each request moves the send `debounceMs` (500 ms) later, but never
   * more than `maxWaitMs` (30 s) after the first request of the burst (a steady trickle still syncs). The sync queue
   * keeps one waiting job per connection and stream on top, across processes. A process that stops in the
   * window loses the send, not the change: the scheduled sync reads it.
   */
  private queue(connectionId: string, stream: string): void {
    this.debounce(`${connectionId}:${stream}`, () => void this.send(connectionId, stream));
  }

  /** Gathers the ids of changed objects of a type (and the parts changed) over a burst (as `queue`), then reads them by id. */
  private queueRead(connectionId: string, objectType: string, remoteId: string, parts: string[] | undefined): void {
    this.debounce(`${connectionId}:${objectType}:by id`, (ids) => this.track(connectionId, this.readChanged(connectionId, objectType, ids)), { id: remoteId, parts });
  }

  private track(connectionId: string, read: Promise<void>): void {
    const reads = this.reading.get(connectionId) ?? new Set();
    this.reading.set(connectionId, reads.add(read));
    const done = () => {
      reads.delete(read);
      if (!reads.size) this.reading.delete(connectionId);
    };
    read.then(done, done);
  }

  private debounce(key: string, fire: (ids: Map<string, Set<string> | null>) => void, changed?: { id: string; parts: string[] | undefined }): void {
    const now = Date.now();
    let pending = this.pending.get(key);
    if (pending) {
      if (now - pending.first < this.maxWaitMs) pending.timer.refresh();
    } else {
      const ids = new Map<string, Set<string> | null>();
      const timer = setTimeout(() => {
        this.pending.delete(key);
        fire(ids);
      }, this.debounceMs);
      pending = { first: now, timer, ids };
      this.pending.set(key, pending);
    }
    if (!changed) return;
    // One change that needs the whole object makes the read whole; otherwise the parts add up.
    const had = pending.ids.get(changed.id);
    pending.ids.set(changed.id, had === null || !changed.parts ? null : new Set([...(had ?? []), ...changed.parts]));
  }

  /**
   * Reads changed objects by id and saves them with their record events. If the read fails, the stream that holds
   * their type runs instead (the change is not lost either way: the scheduled sync reads it too).
   */
  private async readChanged(connectionId: string, objectType: string, changed: Map<string, Set<string> | null>): Promise<void> {
    const connection = await this.controlPlane.findConnectionById(connectionId).catch(() => undefined);
    if (!connection || connection.status !== 'valid') return;
    const { adapter, ctx } = this.contexts.forConnection(connection, { background: true });
    const remoteIds = [...changed.keys()];
    try {
      const parts = await this.partsOfStored(connection, objectType, changed);
      const records = await adapter.webhooks!.fetchChanged!.fetch(ctx, objectType, remoteIds, parts.size ? parts : undefined);
      await this.unified.upsert(toRows(connection, records, null));
    } catch (err) {
      this.logger?.warn({ connectionId, objectType, err: { message: (err as Error).message } }, 'reading the objects a provider webhook named failed; their stream runs instead');
      const stream = adapter.syncers.find((s) => s.objectTypes.includes(objectType));
      if (stream) this.queue(connectionId, stream.key);
    }
  }

  /**
   * The parts to read of objects already stored; one never stored (or a read that failed before it was saved) is
   * read in full, as the fields a partial read leaves out have no stored value to keep.
   */
  private async partsOfStored(connection: ConnectionRow, objectType: string, changed: Map<string, Set<string> | null>): Promise<Map<string, string[]>> {
    const partial = [...changed].filter((e): e is [string, Set<string>] => e[1] !== null);
    if (!partial.length) return new Map();
    const ids = new Map(partial.map(([remoteId]) => [unifiedId(connection.id, objectType, remoteId), remoteId]));
    const stored = new Set((await this.unified.findMany(connection.id, [...ids.keys()], { remoteData: false })).map((r) => ids.get(r.id)));
    return new Map(partial.filter(([remoteId]) => stored.has(remoteId)).map(([remoteId, parts]) => [remoteId, [...parts]]));
  }

  /** At most one send at a time per connection and stream; one asked for meanwhile follows it. */
  private async send(connectionId: string, stream: string): Promise<void> {
    const key = `${connectionId}:${stream}`;
    const inFlight = this.sending.get(key);
    if (inFlight) {
      inFlight.again = true;
      return;
    }
    const state = { again: true };
    this.sending.set(key, state);
    try {
      while (state.again) {
        state.again = false;
        await this.enqueue?.(connectionId, [stream]);
      }
    } catch (err) {
      this.logger?.warn({ connectionId, stream, err: { message: (err as Error).message } }, 'queueing the sync of a provider webhook failed; the scheduled sync will see the change');
    } finally {
      this.sending.delete(key);
    }
  }

  /** Drops the sends still waiting for their burst to end (the process is stopping). */
  stop(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  /** Provider webhooks that expire (Jira's after 30 days) are renewed a week before. */
  async renewExpiring(): Promise<number> {
    let renewed = 0;
    for (const row of await this.repo.expiringBefore(new Date(this.now() + 7 * 86_400_000))) {
      const connection = await this.controlPlane.findConnectionById(row.connectionId);
      if (!connection) continue;
      const hooks = this.contexts.adapterOf(connection).webhooks;
      if (row.mode === 'pending') {
        // A registration a stopped process left waiting for its handshake: made again (what it made at the provider
        // is unknown; the provider drops it once its requests are refused).
        if (Date.now() - row.createdAt.getTime() > PENDING_MS && (await this.recreate(connection))) renewed++;
        continue;
      }
      if (!hooks?.renew) continue;
      try {
        const { ctx } = this.contexts.forConnection(connection, { background: true });
        const expiresAt = await hooks.renew(ctx, row.remoteIds);
        await this.repo.update(row.id, { expiresAt });
        renewed++;
      } catch (err) {
        if (err instanceof WebhookGoneError) {
          if (await this.recreate(connection)) renewed++;
          continue;
        }
        this.logger?.warn({ connectionId: connection.id, err: { message: (err as Error).message } }, 'renewing the provider webhook failed; will try again');
      }
    }
    return renewed;
  }

  /** A webhook the provider dropped (Asana's, after a day of failed deliveries): what is left is deleted, and it is created anew. */
  private async recreate(connection: ConnectionRow): Promise<boolean> {
    this.logger?.warn({ connectionId: connection.id, provider: connection.provider }, 'the provider dropped its webhook; creating it again');
    await this.unregisterFor(connection);
    return Boolean(await this.registerFor(connection));
  }

  /** In slices, requests answered between them. */
  purgeReceipts(): Promise<number> {
    const before = new Date(this.now() - RECEIPT_RETENTION_MS);
    return inSlices(() => this.repo.purgeReceipts(before, PURGE_SLICE), PURGE_SLICE);
  }
}
