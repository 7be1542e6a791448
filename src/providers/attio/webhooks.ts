/**
 * Attio webhooks in (docs/providers/attio.md, "Real-time updates"): one webhook per connection created with
 * `POST /v2/webhooks`, subscribed to record events of people, companies and deals (filtered by their object
 * ids) and to note and task events; Attio answers the signing secret. Requests carry `Attio-Signature` (also
 * `X-Attio-Signature`): hex HMAC-SHA256 of the body. Attio signs no time: replays are refused by the
 * `Idempotency-Key` header (the same on every retry of one message).
 *
 * Attio records have no change filter (every sync run reads everything), so changed objects are read by id:
 * records with one `records/query` per object (`record_id` `$in` the burst's ids), notes and tasks one GET each.
 * An event names a record's object by UUID; the process learns the UUIDs of the workspaces' people, companies
 * and deals when it reads `/v2/objects` (at registration, at each read by id). A record of an object not yet
 * learned (the first event after a restart) is looked for under all three (record ids are UUIDs: one answers).
 */
import { createHash } from 'node:crypto';
import type { AdapterContext, ProviderWebhooks, UnifiedRecord, WebhookNotice } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { dataOf, isNotFound, objectSlugs, type AttioObject, type AttioRecord, type Cache } from './api';
import { unifyCompany, unifyDeal, unifyNote, unifyPerson, unifyTask, type AttioNote, type AttioTask } from './mappers';

/** Unified record types → Attio's standard objects. */
const RECORD_OBJECTS: Record<string, AttioObject> = { 'crm.contact': 'people', 'crm.company': 'companies', 'crm.deal': 'deals' };
const RECORD_TYPES = Object.keys(RECORD_OBJECTS);

/** Records read by id in one query (Attio answers at most 500 a page). */
const QUERY_IDS = 500;

interface AttioEvent {
  event_type?: unknown;
  id?: { object_id?: unknown; record_id?: unknown; note_id?: unknown; task_id?: unknown };
}

/** GET of one object; `undefined` when Attio answers 404 (deleted since). */
async function getOne<T>(ctx: AdapterContext, path: string): Promise<T | undefined> {
  try {
    return dataOf(await ctx.http.get<{ data?: T }>(path), 'object');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function attioWebhooks(cache: Cache): ProviderWebhooks {
  /** Object UUID → unified record type, for every workspace this process has read the objects of (UUIDs do not collide). */
  const recordTypeOf = new Map<string, string>();
  const learnObjects = async (ctx: AdapterContext) => {
    const slugs = await objectSlugs(cache, ctx);
    for (const [id, slug] of slugs) {
      const type = RECORD_TYPES.find((t) => RECORD_OBJECTS[t] === slug);
      if (type) recordTypeOf.set(id, type);
    }
    return slugs;
  };
  /** The unified types and id an event is about. */
  const subjectOf = (e: AttioEvent): { types: string[]; id: string; deleted: boolean } | undefined => {
    const m = typeof e.event_type === 'string' ? /^(record|note|task)\.(created|updated|deleted)$/.exec(e.event_type) : null;
    if (!m) return undefined;
    const id = e.id?.[`${m[1] as 'record' | 'note' | 'task'}_id`];
    if (typeof id !== 'string' || !id) return undefined;
    const known = typeof e.id?.object_id === 'string' ? recordTypeOf.get(e.id.object_id) : undefined;
    return { types: m[1] === 'record' ? (known ? [known] : RECORD_TYPES) : [`crm.${m[1]}`], id, deleted: m[2] === 'deleted' };
  };
  return {
    replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
    verify(req, secret) {
      const signature = header(req.headers, 'attio-signature') ?? header(req.headers, 'x-attio-signature');
      return safeEqual(signature, hmac('sha256', secret, req.rawBody, 'hex')) ? { signedAt: null } : null;
    },
    parse(req, body): WebhookNotice | null {
      const events = (body as { events?: unknown } | null)?.events;
      if (!Array.isArray(events)) return null;
      // A retry of a message without the header (not seen from Attio) has the same body.
      const deliveryId = header(req.headers, 'idempotency-key') || createHash('sha256').update(req.rawBody).digest('hex');
      const notice: Required<Omit<WebhookNotice, 'deliveryId' | 'streams'>> = { deleted: [], changed: [] };
      for (const e of events as AttioEvent[]) {
        const subject = subjectOf(e);
        if (!subject) continue;
        for (const objectType of subject.types) (subject.deleted ? notice.deleted : notice.changed).push({ objectType, remoteId: subject.id });
      }
      return { deliveryId, streams: [], ...notice };
    },
    fetchChanged: {
      objectTypes: [...RECORD_TYPES, 'crm.note', 'crm.task'],
      async fetch(ctx, objectType, remoteIds) {
        const out: UnifiedRecord[] = [];
        const object = RECORD_OBJECTS[objectType];
        if (object) {
          await learnObjects(ctx); // cached per connection: later events name their record's type
          const unify = (r: AttioRecord) => (object === 'people' ? unifyPerson(r, ctx.ids) : object === 'companies' ? unifyCompany(r) : unifyDeal(r, ctx.ids));
          for (let i = 0; i < remoteIds.length; i += QUERY_IDS) {
            const ids = remoteIds.slice(i, i + QUERY_IDS);
            const res = await ctx.http.post<{ data?: AttioRecord[] }>(`/v2/objects/${object}/records/query`, { json: { filter: { record_id: { $in: ids } }, limit: QUERY_IDS }, read: true });
            out.push(...(Array.isArray(res.data?.data) ? res.data.data : []).map(unify));
          }
          return out;
        }
        // Notes and tasks have no read of many by id: one GET each (a burst's repeats are gathered first).
        for (const id of remoteIds) {
          const path = encodeURIComponent(id);
          if (objectType === 'crm.note') {
            const n = await getOne<AttioNote>(ctx, `/v2/notes/${path}`);
            if (n) out.push(unifyNote(n, ctx.ids));
          } else {
            const t = await getOne<AttioTask>(ctx, `/v2/tasks/${path}`);
            if (t) out.push(unifyTask(t, ctx.ids, await objectSlugs(cache, ctx)));
          }
        }
        return out;
      },
    },
    async register(ctx, url) {
      // Record events of the three standard objects only (custom objects' records are not synced).
      const slugs = await learnObjects(ctx);
      const objectIds = [...slugs].filter(([, slug]) => Object.values(RECORD_OBJECTS).includes(slug as AttioObject)).map(([id]) => id);
      const records = { $or: objectIds.map((value) => ({ field: 'id.object_id', operator: 'equals', value })) };
      const subscriptions = [
        ...['record.created', 'record.updated', 'record.deleted'].map((event_type) => ({ event_type, filter: objectIds.length ? records : null })),
        ...['note.created', 'note.updated', 'note.deleted', 'task.created', 'task.updated', 'task.deleted'].map((event_type) => ({ event_type, filter: null })),
      ];
      const created = dataOf(
        await ctx.http.post<{ data?: { id: { webhook_id: string }; secret: string } }>('/v2/webhooks', { json: { data: { target_url: url, subscriptions } } }),
        'webhook',
      );
      return { remoteIds: { webhook: created.id.webhook_id }, secret: created.secret };
    },
    async unregister(ctx, remoteIds) {
      if (remoteIds.webhook) await deleteIfPresent(ctx, `/v2/webhooks/${encodeURIComponent(remoteIds.webhook)}`);
    },
  };
}
