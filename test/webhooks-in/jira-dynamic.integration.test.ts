/**
 * Jira dynamic webhooks (OAuth 2.0 connections) in through the real server, job queue and simulator (steps:
 * test/support/provider-webhooks.ts): registered with POST /rest/api/3/webhook, signed with a JWT of the
 * project's Jira OAuth app, renewed before their 30-day expiry, deleted with the connection.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { DYNAMIC_WEBHOOK_LIFE_MS, jiraDynamicHookHeaders, startJiraSimulator, type JiraSimulator } from '../simulators/jira';

const TOKEN = 'jira-3lo-access-token';
const APP = { clientId: 'omniport-jira-app', clientSecret: `jira-app-secret-${randomUUID()}` };
let issues: string[] = [];
let changes = 0;

describeWebhooksIn<JiraSimulator>({
  provider: 'jira',
  async start() {
    const sim = await startJiraSimulator({ accessTokens: [TOKEN], oauthApp: APP });
    issues = sim.seedIssues(3).map((i) => i.id);
    return sim;
  },
  async close(sim) {
    // The dynamic webhooks API is in Jira's platform API document: every request and answer matched it.
    if (sim.specViolations.length) throw new Error(`Jira simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  async connect(server, sim) {
    // The project's Jira OAuth app: its client secret signs dynamic webhooks (and it renews the tokens).
    const app = await server.call('PUT', '/oauth-apps/jira', { body: { client_id: APP.clientId, client_secret: APP.clientSecret } });
    expect(app.status).toBe(200);
    return connect(server, { provider: 'jira', linked_user_origin_id: 'webhooks-in', credentials: { access_token: TOKEN }, base_url: sim.url });
  },
  registered: (sim) => [...sim.hooks.dynamic.values()].map((h) => ({ url: h.url, secret: APP.clientSecret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Jira ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(issues[0]!, { summary: marker });
    return { remoteId: issues[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteIssueRemotely(issues[1]!);
    return { remoteId: issues[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '10001',
  signsTime: true,
  // The JWT authenticates Jira and dates the request; it does not cover the body (only TLS protects it).
  signsBody: false,
  body: (remoteId) => JSON.stringify({ timestamp: Date.now(), webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_generic', issue: { id: remoteId, key: 'X-1' }, matchedWebhookIds: [10000] }),
  sign: (secret, _body, at, deliveryId) => jiraDynamicHookHeaders(secret, at.getTime(), { identifier: deliveryId }),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/rest/')).length,
  more(get) {
    it('records the webhook’s expiry and renews it a week before (PUT /rest/api/3/webhook/refresh)', async () => {
      const { server, sim, connectionId } = get();
      const hook = [...sim.hooks.dynamic.values()][0]!;
      const [row] = await server.sql('select expires_at, remote_ids from provider_webhooks where connection_id = $1', [connectionId]);
      expect(row!.remote_ids).toMatchObject({ dynamic: String(hook.id), signed_by: 'oauth_app' });
      expect(Math.abs(new Date(row!.expires_at as string).getTime() - hook.expiresAt)).toBeLessThan(1000);
      // Three days before the expiry, at both ends.
      const soon = Date.now() + 3 * 86_400_000;
      hook.expiresAt = soon;
      await server.sql('update provider_webhooks set expires_at = $2 where connection_id = $1', [connectionId, new Date(soon)]);
      expect(await server.omniport.services.providerWebhooks.renewExpiring()).toBe(1);
      expect(hook.expiresAt).toBeGreaterThan(Date.now() + DYNAMIC_WEBHOOK_LIFE_MS - 60_000);
      const [renewed] = await server.sql('select expires_at from provider_webhooks where connection_id = $1', [connectionId]);
      expect(new Date(renewed!.expires_at as string).getTime()).toBe(hook.expiresAt);
      // Far from its expiry now: the next housekeeping run leaves it alone.
      expect(await server.omniport.services.providerWebhooks.renewExpiring()).toBe(0);
    });
  },
});
