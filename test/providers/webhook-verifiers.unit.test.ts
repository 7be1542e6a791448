/**
 * The providers' webhook verifiers and delivery ids on their edge cases (the integration tests in
 * test/webhooks-in/ cover the common path through the server): what each scheme signs, what it leaves out,
 * and how a delivery is identified when the provider's id header is missing.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createGitlabAdapter } from '../../src/providers/gitlab';
import { createLinearAdapter } from '../../src/providers/linear';
import { helpscoutSignature, helpscoutWebhooks } from '../../src/providers/helpscout/webhooks';
import { hubspotAppWebhooks, hubspotSignatureV3, hubspotSignedUri } from '../../src/providers/hubspot/webhooks';
import { createIntercomAdapter } from '../../src/providers/intercom';
import { intercomSignature } from '../../src/providers/intercom/webhooks';
import { jiraWebhooks } from '../../src/providers/jira/webhooks';
import { pipedriveBasicAuth, pipedriveWebhooks } from '../../src/providers/pipedrive/webhooks';
import { createAttioAdapter } from '../../src/providers/attio';
import { closeWebhooks } from '../../src/providers/close/webhooks';
import type { AdapterContext, IncomingWebhook } from '../../src/providers/types';

const gitlab = createGitlabAdapter().webhooks!;
const linear = createLinearAdapter().webhooks!;
const intercom = createIntercomAdapter().appWebhooks!;
const req = (headers: Record<string, string>, body: string, extra: Partial<IncomingWebhook> = {}): IncomingWebhook => ({ headers, rawBody: Buffer.from(body), ...extra });

describe('GitLab', () => {
  it('accepts only the exact token, and identifies deliveries without Idempotency-Key by event UUID and body', () => {
    expect(gitlab.verify(req({ 'x-gitlab-token': 'tok' }, '{}'), 'tok')).toEqual({ signedAt: null });
    expect(gitlab.verify(req({ 'x-gitlab-token': 'tok2' }, '{}'), 'tok')).toBeNull();
    expect(gitlab.verify(req({}, '{}'), 'tok')).toBeNull();
    const a = '{"object_kind":"issue"}';
    const b = '{"object_kind":"note","object_attributes":{"noteable_type":"Issue"}}';
    const idA = gitlab.parse(req({ 'x-gitlab-event-uuid': 'u1' }, a), JSON.parse(a))!;
    const idB = gitlab.parse(req({ 'x-gitlab-event-uuid': 'u1' }, b), JSON.parse(b))!;
    // Recursive events share the UUID: the body tells them apart; a retry (same body) keeps its id.
    expect(idA.deliveryId).not.toBe(idB.deliveryId);
    expect(gitlab.parse(req({ 'x-gitlab-event-uuid': 'u1' }, a), JSON.parse(a))!.deliveryId).toBe(idA.deliveryId);
    expect(idA.streams).toEqual(['ticketing.ticket']);
    expect(idB.streams).toEqual(['ticketing.comment']);
    expect(gitlab.parse(req({ 'idempotency-key': 'k1', 'x-gitlab-event-uuid': 'u1' }, a), JSON.parse(a))!.deliveryId).toBe('k1');
  });
});

describe('Linear', () => {
  const secret = 'lin-secret';
  const sign = (body: string) => ({ 'linear-signature': createHmac('sha256', secret).update(body).digest('hex'), 'linear-delivery': 'd1' });
  it('reads the signed time from the signed body, and refuses a body without one', () => {
    const at = Date.now();
    const body = JSON.stringify({ action: 'update', type: 'Issue', data: { id: 'i1' }, webhookTimestamp: at });
    expect(linear.verify(req(sign(body), body), secret)).toEqual({ signedAt: at });
    const untimed = JSON.stringify({ action: 'update', type: 'Issue', data: { id: 'i1' } });
    expect(linear.verify(req(sign(untimed), untimed), secret)!.signedAt).toBeNaN();
    expect(linear.verify(req(sign(body), `${body} `), secret)).toBeNull();
  });
  it('turns remove into a deletion and labels into the tag stream', () => {
    expect(linear.parse(req({ 'linear-delivery': 'd' }, ''), { action: 'remove', type: 'Comment', data: { id: 'c1' } })).toEqual({ deliveryId: 'd', streams: [], deleted: [{ objectType: 'ticketing.comment', remoteId: 'c1' }] });
    expect(linear.parse(req({ 'linear-delivery': 'd' }, ''), { action: 'remove', type: 'IssueLabel', data: { id: 'l1' } })).toEqual({ deliveryId: 'd', streams: ['ticketing.tag'] });
  });
  it('names a created or changed issue or comment as changed, to be read by id', () => {
    expect(linear.parse(req({ 'linear-delivery': 'd' }, ''), { action: 'update', type: 'Issue', data: { id: 'i1' } })).toEqual({ deliveryId: 'd', streams: ['ticketing.ticket'], changed: [{ objectType: 'ticketing.ticket', remoteId: 'i1' }] });
    expect(linear.parse(req({ 'linear-delivery': 'd' }, ''), { action: 'create', type: 'Comment', data: { id: 'c1' } })).toEqual({ deliveryId: 'd', streams: ['ticketing.comment'], changed: [{ objectType: 'ticketing.comment', remoteId: 'c1' }] });
    expect(linear.fetchChanged!.objectTypes).toEqual(['ticketing.ticket', 'ticketing.comment']);
    expect(linear.fetchChanged!.alsoReads).toEqual({ 'ticketing.comment': ['ticketing.attachment'] });
  });
});

describe('Pipedrive', () => {
  it('compares the basic auth credentials, and marks a deleted activity in both of its unified types', () => {
    expect(pipedriveWebhooks.verify(req({ authorization: pipedriveBasicAuth('pw') }, '{}'), 'pw')).toEqual({ signedAt: null });
    expect(pipedriveWebhooks.verify(req({ authorization: pipedriveBasicAuth('pw', 'someone') }, '{}'), 'pw')).toBeNull();
    const n = pipedriveWebhooks.parse(req({}, ''), { meta: { id: 'e1', action: 'delete', entity: 'activity', entity_id: '42' } })!;
    expect(n.deleted).toEqual([
      { objectType: 'crm.task', remoteId: '42' },
      { objectType: 'crm.engagement', remoteId: '42' },
    ]);
    const noId = { meta: { action: 'change', entity: 'deal', entity_id: '7', webhook_id: '3', timestamp: '2026-11-25T10:00:00Z' } };
    expect(pipedriveWebhooks.parse(req({}, ''), noId)!.deliveryId).toBe(pipedriveWebhooks.parse(req({}, ''), structuredClone(noId))!.deliveryId);
  });
});

describe('HubSpot', () => {
  it('signs method, URI (with HubSpot’s decoded characters), body and timestamp', () => {
    expect(hubspotSignedUri('https://o.example/webhooks/providers/hubspot/k?x=a%3Ab%2Fc%20d')).toBe('https://o.example/webhooks/providers/hubspot/k?x=a:b/c%20d');
    const url = 'https://o.example/webhooks/providers/hubspot/abc';
    const body = '[{"eventId":1,"portalId":7,"subscriptionType":"contact.deletion","objectId":5}]';
    const ts = String(Date.now());
    const headers = { 'x-hubspot-signature-v3': hubspotSignatureV3('cs', 'POST', url, body, ts), 'x-hubspot-request-timestamp': ts };
    expect(hubspotAppWebhooks.verify(req(headers, body, { method: 'POST', url }), 'cs')).toEqual({ signedAt: Number(ts) });
    expect(hubspotAppWebhooks.verify(req(headers, body, { method: 'POST', url: `${url}x` }), 'cs')).toBeNull();
    expect(hubspotAppWebhooks.verify(req({ ...headers, 'x-hubspot-request-timestamp': String(Number(ts) + 1) }, body, { method: 'POST', url }), 'cs')).toBeNull();
  });
  it('splits a batch by portal; a retried batch (same events, another attempt) keeps its delivery id', () => {
    const batch = [
      { eventId: 1, portalId: 7, subscriptionType: 'contact.deletion', objectId: 5, attemptNumber: 0 },
      { eventId: 2, portalId: 8, subscriptionType: 'deal.propertyChange', objectId: 9, attemptNumber: 0 },
    ];
    const parts = hubspotAppWebhooks.parse(req({}, ''), batch)!;
    expect(parts.map((p) => p.accountId)).toEqual(['7', '8']);
    expect(parts[0]!.notice.deleted).toEqual([{ objectType: 'crm.contact', remoteId: '5' }]);
    expect(parts[1]!.notice.streams).toEqual(['crm.deal']);
    const retried = hubspotAppWebhooks.parse(req({}, ''), batch.map((e) => ({ ...e, attemptNumber: 1 })))!;
    expect(retried.map((p) => p.notice.deliveryId)).toEqual(parts.map((p) => p.notice.deliveryId));
  });
});

describe('Jira', () => {
  it('checks X-Hub-Signature and marks deleted issues and comments', () => {
    const body = '{"webhookEvent":"comment_deleted","comment":{"id":"301"},"issue":{"id":"10001"}}';
    const sig = `sha256=${createHmac('sha256', 's').update(body).digest('hex')}`;
    expect(jiraWebhooks.verify(req({ 'x-hub-signature': sig }, body), 's')).toEqual({ signedAt: null });
    expect(jiraWebhooks.verify(req({ 'x-hub-signature': sig.replace('sha256=', 'sha1=') }, body), 's')).toBeNull();
    const n = jiraWebhooks.parse(req({ 'x-atlassian-webhook-identifier': 'w1' }, body), JSON.parse(body))!;
    expect(n).toEqual({ deliveryId: 'w1', streams: [], deleted: [{ objectType: 'ticketing.comment', remoteId: '301' }] });
  });
});

describe('Attio', () => {
  const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');
  const event = (type: string, id: Record<string, string>) => ({ webhook_id: 'w', events: [{ event_type: type, id: { workspace_id: 'ws', ...id }, actor: { type: 'system', id: null } }] });

  it('takes either signature header, and identifies a message without Idempotency-Key by its body', () => {
    const attio = createAttioAdapter().webhooks!;
    const body = JSON.stringify(event('note.deleted', { note_id: 'n1' }));
    expect(attio.verify(req({ 'attio-signature': sign('s', body) }, body), 's')).toEqual({ signedAt: null });
    expect(attio.verify(req({ 'x-attio-signature': sign('s', body) }, body), 's')).toEqual({ signedAt: null });
    expect(attio.verify(req({ 'attio-signature': sign('t', body) }, body), 's')).toBeNull();
    const n = attio.parse(req({}, body), JSON.parse(body))!;
    expect(n).toEqual({ deliveryId: attio.parse(req({}, body), JSON.parse(body))!.deliveryId, streams: [], deleted: [{ objectType: 'crm.note', remoteId: 'n1' }], changed: [] });
    expect(attio.parse(req({ 'idempotency-key': 'k' }, body), JSON.parse(body))!.deliveryId).toBe('k');
  });

  it('names a record under the three record types until it has read which object the UUID is, then under its own', async () => {
    const attio = createAttioAdapter().webhooks!;
    const updated = event('record.updated', { object_id: 'obj-deals', record_id: 'r1', attribute_id: 'a' });
    expect(attio.parse(req({ 'idempotency-key': '1' }, ''), updated)!.changed!.map((c) => c.objectType)).toEqual(['crm.contact', 'crm.company', 'crm.deal']);
    const queries: unknown[] = [];
    const ctx = {
      connectionId: 'c1',
      ids: () => null,
      http: {
        get: async () => ({ data: { data: [{ id: { object_id: 'obj-deals' }, api_slug: 'deals' }, { id: { object_id: 'obj-people' }, api_slug: 'people' }] } }),
        post: async (path: string, o: { json: unknown }) => (queries.push([path, o.json]), { data: { data: [] } }),
      },
    } as unknown as AdapterContext;
    await attio.fetchChanged!.fetch(ctx, 'crm.deal', ['r1', 'r2']);
    expect(queries).toEqual([['/v2/objects/deals/records/query', { filter: { record_id: { $in: ['r1', 'r2'] } }, limit: 500 }]]);
    expect(attio.parse(req({ 'idempotency-key': '2' }, ''), updated)!.changed).toEqual([{ objectType: 'crm.deal', remoteId: 'r1' }]);
    const deleted = event('record.deleted', { object_id: 'obj-people', record_id: 'r3' });
    expect(attio.parse(req({ 'idempotency-key': '3' }, ''), deleted)!.deleted).toEqual([{ objectType: 'crm.contact', remoteId: 'r3' }]);
  });
});

describe('Close', () => {
  const key = 'ab'.repeat(32);
  const sign = (ts: string, body: string) => createHmac('sha256', Buffer.from(key, 'hex')).update(ts + body).digest('hex');
  it('signs the timestamp then the body with the hex-decoded key, and answers the signed time', () => {
    const body = '{"event":{"id":"ev_1"}}';
    const ts = String(Math.floor(Date.now() / 1000));
    expect(closeWebhooks.verify(req({ 'close-sig-hash': sign(ts, body), 'close-sig-timestamp': ts }, body), key)).toEqual({ signedAt: Number(ts) * 1000 });
    // Keyed with the key's text instead of its bytes: forged.
    const textKeyed = createHmac('sha256', key).update(ts + body).digest('hex');
    expect(closeWebhooks.verify(req({ 'close-sig-hash': textKeyed, 'close-sig-timestamp': ts }, body), key)).toBeNull();
    expect(closeWebhooks.verify(req({ 'close-sig-hash': sign(ts, body), 'close-sig-timestamp': String(Number(ts) + 1) }, body), key)).toBeNull();
    expect(closeWebhooks.verify(req({ 'close-sig-hash': sign(ts, body) }, body), key)).toBeNull();
  });
  it('reads changed leads, contacts, opportunities, tasks and notes by id; calls and meetings go to their stream', () => {
    const parse = (object_type: string, action: string) => closeWebhooks.parse(req({}, ''), { subscription_id: 'whsub_1', event: { id: 'ev_1', object_type, object_id: 'x_1', action } })!;
    expect(parse('lead', 'deleted')).toEqual({ deliveryId: 'ev_1', streams: [], deleted: [{ objectType: 'crm.company', remoteId: 'x_1' }] });
    expect(parse('activity.note', 'updated')).toEqual({ deliveryId: 'ev_1', streams: ['crm.note'], changed: [{ objectType: 'crm.note', remoteId: 'x_1' }] });
    expect(closeWebhooks.fetchChanged!.objectTypes).toEqual(['crm.company', 'crm.contact', 'crm.deal', 'crm.task', 'crm.note']);
    expect(parse('activity.call', 'created').streams).toEqual(['crm.engagement']);
    expect(parse('activity.email', 'created')).toEqual({ deliveryId: 'ev_1', streams: [] });
  });
});

describe('Intercom', () => {
  const secret = 'ic-client-secret';
  const note = (o: Record<string, unknown> = {}) => JSON.stringify({ type: 'notification_event', id: 'notif_1', topic: 'ticket.note.created', app_id: 'ws1', created_at: 1_700_000_000, data: { item: { type: 'ticket', id: '7' } }, ...o });
  it('checks sha1= + hex HMAC-SHA1 of the body with the client secret, and reads the signed time from the body', () => {
    const body = note();
    expect(intercomSignature(secret, body)).toBe(`sha1=${createHmac('sha1', secret).update(body).digest('hex')}`);
    expect(intercom.verify(req({ 'x-hub-signature': intercomSignature(secret, body) }, body), secret)).toEqual({ signedAt: 1_700_000_000_000 });
    expect(intercom.verify(req({ 'x-hub-signature': intercomSignature('other', body) }, body), secret)).toBeNull();
    expect(intercom.verify(req({ 'x-hub-signature': intercomSignature(secret, body) }, `${body} `), secret)).toBeNull();
    // Hex without the `sha1=` prefix is not Intercom's header.
    expect(intercom.verify(req({ 'x-hub-signature': createHmac('sha1', secret).update(body).digest('hex') }, body), secret)).toBeNull();
    const untimed = note({ created_at: undefined });
    expect(intercom.verify(req({ 'x-hub-signature': intercomSignature(secret, untimed) }, untimed), secret)!.signedAt).toBeNaN();
  });
  it('routes by app_id; ticket parts also run the comment stream; other topics change nothing', () => {
    expect(intercom.parse(req({}, ''), JSON.parse(note()))).toEqual([{ accountId: 'ws1', notice: { deliveryId: 'notif_1', streams: ['ticketing.ticket', 'ticketing.comment'] } }]);
    expect(intercom.parse(req({}, ''), JSON.parse(note({ topic: 'ticket.state.updated' })))).toEqual([{ accountId: 'ws1', notice: { deliveryId: 'notif_1', streams: ['ticketing.ticket'] } }]);
    expect(intercom.parse(req({}, ''), JSON.parse(note({ topic: 'conversation.admin.replied' })))![0]!.notice.streams).toEqual([]);
    expect(intercom.parse(req({}, ''), JSON.parse(note({ app_id: undefined })))).toBeNull();
    expect(intercom.parse(req({}, ''), { type: 'something_else' })).toBeNull();
  });
});

describe('Help Scout', () => {
  const secret = 'hs-secret';
  const signed = (event: string, body: string) => req({ 'x-helpscout-event': event, 'x-helpscout-signature': helpscoutSignature(secret, body) }, body);
  it('checks the base64 HMAC-SHA1 of the body; a delivery is its event and body', () => {
    const body = '{"id":5,"status":"active"}';
    expect(helpscoutSignature(secret, body)).toBe(createHmac('sha1', secret).update(body).digest('base64'));
    expect(helpscoutWebhooks.verify(signed('convo.status', body), secret)).toEqual({ signedAt: null });
    expect(helpscoutWebhooks.verify(signed('convo.status', body), 'other')).toBeNull();
    expect(helpscoutWebhooks.verify({ ...signed('convo.status', body), rawBody: Buffer.from(`${body} `) }, secret)).toBeNull();
    const a = helpscoutWebhooks.parse(signed('convo.status', body), JSON.parse(body))!;
    expect(a.streams).toEqual(['ticketing.ticket']);
    expect(helpscoutWebhooks.parse(signed('convo.status', body), JSON.parse(body))!.deliveryId).toBe(a.deliveryId);
    expect(helpscoutWebhooks.parse(signed('convo.tags', body), JSON.parse(body))!.deliveryId).not.toBe(a.deliveryId);
    expect(helpscoutWebhooks.parse(req({}, body), JSON.parse(body))).toBeNull();
  });
  it('marks deleted conversations and customers at once; a deleted tag (keyed by name here) runs the tag stream', () => {
    expect(helpscoutWebhooks.parse(signed('convo.deleted', '{"id":5}'), { id: 5 })).toMatchObject({ streams: [], deleted: [{ objectType: 'ticketing.ticket', remoteId: '5' }] });
    expect(helpscoutWebhooks.parse(signed('customer.deleted', '{"id":9}'), { id: 9 })).toMatchObject({ streams: [], deleted: [{ objectType: 'ticketing.contact', remoteId: '9' }] });
    expect(helpscoutWebhooks.parse(signed('tag.deleted', '{"id":3}'), { id: 3 })).toMatchObject({ streams: ['ticketing.tag'] });
    expect(helpscoutWebhooks.parse(signed('customer.updated', '{"id":9}'), { id: 9 })!.streams).toEqual(['ticketing.contact']);
    expect(helpscoutWebhooks.parse(signed('satisfaction.ratings', '{"id":1}'), { id: 1 })!.streams).toEqual([]);
  });
});
