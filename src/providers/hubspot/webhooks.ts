/**
 * HubSpot webhooks in (docs/providers/hubspot.md, "Real-time updates"): HubSpot's webhooks belong to the
 * public app, not to an account: an app admin subscribes the app once (contact, company and deal creation,
 * deletion and property changes) with Omniport's address for the project, and HubSpot sends every installed
 * account's events there, in batches, signed with the app's client secret: `X-HubSpot-Signature-v3` =
 * base64(HMAC-SHA256(secret, method + URI + body + timestamp)), `X-HubSpot-Request-Timestamp` (ms) within
 * 5 minutes. Each event names its `portalId`: Omniport routes it to the connections of that account.
 */
import { createHash } from 'node:crypto';
import type { ProviderAppWebhooks, WebhookNotice } from '../types';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';

/** Object types of HubSpot's subscription types (`contact.propertyChange` …) → sync streams. */
const STREAMS: Record<string, string> = { contact: 'crm.contact', company: 'crm.company', deal: 'crm.deal' };

/**
 * The URI as HubSpot signs it: the address it called, with the characters it decodes before signing
 * (`%3A` `%2F` `%3F` `%40` `%21` `%24` `%27` `%28` `%29` `%2A` `%2C` `%3B`) decoded.
 */
export function hubspotSignedUri(url: string): string {
  return url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => decodeURIComponent(m));
}

/** `X-HubSpot-Signature-v3` of a request. */
export function hubspotSignatureV3(secret: string, method: string, url: string, body: string | Buffer, timestamp: string): string {
  return hmac('sha256', secret, Buffer.concat([Buffer.from(`${method.toUpperCase()}${hubspotSignedUri(url)}`), Buffer.from(body), Buffer.from(timestamp)]), 'base64');
}

interface HsEvent {
  eventId?: unknown;
  portalId?: unknown;
  objectId?: unknown;
  subscriptionType?: unknown;
}

export const hubspotAppWebhooks: ProviderAppWebhooks = {
  // HubSpot's docs: reject requests whose timestamp is older than 5 minutes.
  replayWindowSeconds: 300,
  async accountOf(ctx) {
    const res = await ctx.http.get<{ portalId?: number }>('/account-info/v3/details');
    if (typeof res.data?.portalId !== 'number') throw new Error('HubSpot did not name the account (portalId)');
    return String(res.data.portalId);
  },
  verify(req, secret) {
    const signature = header(req.headers, 'x-hubspot-signature-v3');
    const timestamp = header(req.headers, 'x-hubspot-request-timestamp');
    if (!signature || !timestamp || !req.url || !req.method) return null;
    if (!safeEqual(signature, hubspotSignatureV3(secret, req.method, req.url, req.rawBody, timestamp))) return null;
    return { signedAt: signedTime(timestamp) };
  },
  parse(_req, body) {
    if (!Array.isArray(body)) return null;
    const byAccount = new Map<string, HsEvent[]>();
    for (const e of body as HsEvent[]) {
      if (!e || (typeof e.portalId !== 'number' && typeof e.portalId !== 'string')) continue;
      const account = String(e.portalId);
      byAccount.set(account, [...(byAccount.get(account) ?? []), e]);
    }
    return [...byAccount].map(([accountId, events]) => {
      const notice: WebhookNotice = {
        // A retried batch carries the same events (only attemptNumber changes): its id is theirs.
        deliveryId: createHash('sha256').update(events.map((e) => String(e.eventId)).sort().join(',')).digest('hex'),
        streams: [],
        deleted: [],
      };
      for (const e of events) {
        const [object, kind] = String(e.subscriptionType ?? '').split('.');
        const stream = STREAMS[object ?? ''];
        if (!stream) continue;
        if (kind === 'deletion' && e.objectId !== undefined) notice.deleted!.push({ objectType: stream, remoteId: String(e.objectId) });
        else notice.streams.push(stream);
      }
      return { accountId, notice };
    });
  },
};
