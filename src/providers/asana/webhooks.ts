/**
 * Asana webhooks in (docs/providers/asana.md, "Real-time updates"): one webhook per project of the workspace
 * (`POST /webhooks` with `resource` = the project and `target` = the connection's address), as the sync reads
 * tasks project by project. While that call waits, Asana POSTs a handshake to the address with `X-Hook-Secret`,
 * which must come back in the answer's headers (the core answers it for this registration only); the same
 * secret is in the creation's answer. Each webhook has its own secret; requests carry `X-Hook-Signature` = hex
 * HMAC-SHA256 of the body, checked against the connection's secrets. Events come in batches (`events`), compact
 * (action, resource, parent); an empty batch is a heartbeat. Asana signs no delivery id: the body's hash is it,
 * and the newest event's `created_at` bounds replays to the day Asana retries a delivery. Asana deletes a webhook
 * whose deliveries fail for a day: `renew` checks them daily and has them created again when gone.
 */
import { createHash } from 'node:crypto';
import { ProviderError } from '../http-client';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { createPerTarget, deleteIfPresent, WebhookGoneError } from '../webhook-registration';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';
import { listAll, workspace, type ResolvedOptions } from './api';
import type { AsEvent, AsProject } from './types';
import { seg } from './util';

/** Asana retries a delivery for 24 hours: an older batch is a replay (delivery ids are kept as long). */
const REPLAY_WINDOW_S = 24 * 3600;
/** How often the webhooks are checked for being still there (renewed a week before `expiresAt`: daily). */
const CHECK_AFTER_MS = 8 * 86_400_000;

/** The connection's secrets (one per project webhook), kept as a JSON array. */
function secretsOf(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string' && s !== '') : [];
  } catch {
    return [];
  }
}

function eventsOf(body: unknown): AsEvent[] | null {
  const events = (body as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events.filter((e): e is AsEvent => Boolean(e) && typeof e === 'object') : null;
}

/** Which sync stream an event touches, by the type of its resource. */
function streamOf(e: AsEvent): string | undefined {
  switch (e.resource?.resource_type) {
    case 'task':
      return 'ticketing.ticket';
    case 'story':
    case 'attachment':
      return 'ticketing.comment';
    case 'project':
      return 'ticketing.collection';
    default:
      return undefined;
  }
}

export function asanaWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    replayWindowSeconds: REPLAY_WINDOW_S,
    verify(req, secret) {
      const signature = header(req.headers, 'x-hook-signature');
      // Every secret is tried (their number is no secret), each comparison in constant time.
      const matches = secretsOf(secret).map((s) => safeEqual(signature, hmac('sha256', s, req.rawBody, 'hex')));
      if (!matches.includes(true)) return null;
      let events: AsEvent[] | null = null;
      try {
        events = eventsOf(JSON.parse(req.rawBody.toString('utf8')));
      } catch {
        return { signedAt: null }; // not JSON: the core refuses it
      }
      const times = (events ?? []).map((e) => signedTime(e.created_at)).filter((t) => Number.isFinite(t));
      return { signedAt: times.length ? Math.max(...times) : null };
    },
    parse(req, body): WebhookNotice | null {
      const events = eventsOf(body);
      // An empty batch is Asana's heartbeat: answered, nothing recorded (it repeats the same body).
      if (!events?.length) return null;
      const deliveryId = createHash('sha256').update(req.rawBody).digest('hex');
      const streams = new Set<string>();
      const deleted: NonNullable<WebhookNotice['deleted']> = [];
      for (const e of events) {
        const stream = streamOf(e);
        if (!stream) continue;
        if (e.action === 'deleted' && e.resource?.resource_type === 'task' && typeof e.resource.gid === 'string') deleted.push({ objectType: 'ticketing.ticket', remoteId: e.resource.gid });
        else streams.add(stream);
      }
      return { deliveryId, streams: [...streams], ...(deleted.length ? { deleted } : {}) };
    },
    handshake(req, recorded) {
      const secret = header(req.headers, 'x-hook-secret');
      if (!secret) return undefined;
      return { headers: { 'x-hook-secret': secret }, record: JSON.stringify([...secretsOf(recorded), secret]) };
    },
    async register(ctx, url) {
      const ws = await workspace(ctx, o);
      const projects = await listAll<AsProject>(ctx, '/projects', o, { workspace: ws.gid, archived: 'false', opt_fields: 'name' });
      if (!projects.length) throw new Error('the workspace has no project to watch');
      const answered: string[] = [];
      const remoteIds = await createPerTarget(
        projects,
        (p) => p.gid,
        async (p) => {
          const made = await ctx.http.post<{ data?: { gid?: string }; 'X-Hook-Secret'?: string }>('/webhooks', { json: { data: { resource: p.gid, target: url } } });
          if (!made.data?.data?.gid) throw new Error('Asana answered no webhook gid');
          if (made.data['X-Hook-Secret']) answered.push(made.data['X-Hook-Secret']);
          return made.data.data.gid;
        },
        (made) => this.unregister(ctx, made),
      );
      // The secrets Asana answered, when it answered them all; else those its handshakes brought (the core keeps them).
      return { remoteIds, secret: answered.length === projects.length ? JSON.stringify(answered) : '', expiresAt: new Date(Date.now() + CHECK_AFTER_MS) };
    },
    async unregister(ctx, remoteIds) {
      for (const gid of Object.values(remoteIds)) await deleteIfPresent(ctx, `/webhooks/${seg(gid)}`);
    },
    async renew(ctx, remoteIds) {
      for (const gid of Object.values(remoteIds)) {
        try {
          await ctx.http.get(`/webhooks/${seg(gid)}`, { query: { opt_fields: 'active' } });
        } catch (err) {
          if (err instanceof ProviderError && err.providerStatus === 404) throw new WebhookGoneError(`Asana no longer has the webhook ${gid}`);
          throw err;
        }
      }
      return new Date(Date.now() + CHECK_AFTER_MS);
    },
  };
}
