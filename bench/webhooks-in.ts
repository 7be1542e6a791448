/**
 * Provider webhooks in (issue 17): latency from a change in a provider's simulator (Zendesk by default;
 * `BENCH_PROVIDER=github|gitlab|linear|jira|gorgias|front|helpscout|asana|clickup|intercom|pipedrive|hubspot|attio|close`) to the customer's
 * receiver (a ticketing.ticket.updated event, crm.deal.updated for CRMs), p50 and p95, with real-time updates on (the simulator's
 * signed webhook → Omniport → the changed object read by id, or an incremental run of its stream → record event → webhook out) against
 * polling alone with the project's sync interval at 1 minute (no provider webhook registered).
 * Production settings otherwise (the events dispatcher polls every second, the job workers every 2 s
 * unless woken).
 *   npx tsx bench/webhooks-in.ts [real-time changes=20] [spacing s=3] [polling changes=8] [spacing s=15]   (0 changes: part skipped)
 *   BENCH_DATABASE_URL=postgres://…/<throwaway database> npx tsx bench/webhooks-in.ts (emptied before each part)
 *   BENCH_SYNC_INTERVAL_MINUTES=60 … : the project's scheduled sync interval (default 1, as the polling comparison needs)
 */
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { ProviderRegistry, defaultProviders } from '../src/providers/registry';
import type { ProviderAdapter } from '../src/providers/types';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { startGitlabSimulator } from '../test/simulators/gitlab';
import { startLinearSimulator } from '../test/simulators/linear';
import { startJiraSimulator } from '../test/simulators/jira';
import { startGorgiasSimulator } from '../test/simulators/gorgias';
import { FrontHooks, startFrontSimulator } from '../test/simulators/front';
import { startGithubSimulator } from '../test/simulators/github';
import { startPipedriveSimulator } from '../test/simulators/pipedrive';
import { startHubSpotSimulator } from '../test/simulators/hubspot';
import { startAttioSimulator } from '../test/simulators/attio';
import { startCloseSimulator } from '../test/simulators/close';
import { startHelpScoutSimulator } from '../test/simulators/helpscout';
import { startAsanaSimulator } from '../test/simulators/asana';
import { startClickUpSimulator } from '../test/simulators/clickup';
import { startIntercomSimulator } from '../test/simulators/intercom';
import { connect, percentile, startBenchServer, type Bench } from './support';

/** What the benchmark needs of a provider: its simulator seeded with an account's worth of tickets, the connection, a remote change. */
interface BenchProvider {
  adapter: ProviderAdapter;
  start(): Promise<{
    connection: { provider: string; credentials: Record<string, string>; base_url: string };
    /** The record event a change makes (default `ticketing.ticket.updated`; CRM providers: `crm.deal.updated`). */
    eventType?: string;
    /** Changes the i-th seeded object in the provider: its name, or what the provider's webhooks report, to `subject`. */
    rename(i: number, subject: string): void;
    /** What the developer does before connecting (HubSpot, Intercom: the project's OAuth app, whose secret signs). */
    beforeConnect?(bench: Bench): Promise<void>;
    /** What an admin does once the connection exists (Front: paste `real_time_setup.url` in the app's webhook). */
    afterConnect?(setup: { url: string } | null): Promise<void>;
    webhooksSent(): number;
    /** Provider calls that are incremental ticket runs (the cost of each synced change). */
    ticketRuns(): number;
    close(): Promise<void>;
  }>;
}

const adapters = new Map(defaultProviders().map((a) => [a.manifest.name, a]));
const adapterOf = (name: string) => adapters.get(name)!;

const PROVIDERS: Record<string, BenchProvider> = {
  zendesk: {
    adapter: adapterOf('zendesk'),
    async start() {
      const sim = await startZendeskSimulator({ validateSpec: false });
      // Spread over the last 200 hours, as in an account: an incremental run reads the last minutes' changes only.
      sim.seedTickets(200, { spacingMs: 3_600_000 });
      const cred = sim.credentials[0]!;
      return {
        connection: { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
        rename: (i, subject) => void sim.updateTicketRemotely(1 + i, { subject }),
        webhooksSent: () => sim.webhooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path.startsWith('/api/v2/incremental/tickets')).length,
        close: () => sim.close(),
      };
    },
  },
  gitlab: {
    adapter: adapterOf('gitlab'),
    async start() {
      const sim = await startGitlabSimulator({ validateSpec: false });
      const project = sim.fixtures!.helpDesk.id;
      const iids = sim.seedIssues(project, 200).map((i) => i.iid);
      return {
        connection: { provider: 'gitlab', credentials: { access_token: sim.token }, base_url: sim.url },
        rename: (i, subject) => void sim.updateIssueRemotely(project, iids[i]!, { title: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => /\/projects\/\d+\/issues$/.test(r.path)).length,
        close: () => sim.close(),
      };
    },
  },
  linear: {
    adapter: adapterOf('linear'),
    async start() {
      const sim = await startLinearSimulator();
      const ids = sim.seedIssues(200).map((i) => i.id);
      return {
        connection: { provider: 'linear', credentials: { access_token: sim.apiKey }, base_url: sim.url },
        rename: (i, subject) => void sim.updateIssueRemotely(ids[i]!, { title: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        // Every GraphQL request (Linear has one endpoint): registration and the ticket runs.
        ticketRuns: () => sim.requests.filter((r) => r.path === '/graphql').length,
        close: () => sim.close(),
      };
    },
  },
  jira: {
    adapter: adapterOf('jira'),
    async start() {
      const sim = await startJiraSimulator({ validateSpec: false });
      const ids = sim.seedIssues(200).map((i) => i.id);
      const cred = sim.credentials[0]!;
      return {
        connection: { provider: 'jira', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
        rename: (i, subject) => void sim.updateIssueRemotely(ids[i]!, { summary: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path.startsWith('/rest/api/3/search')).length,
        close: () => sim.close(),
      };
    },
  },
  gorgias: {
    adapter: adapterOf('gorgias'),
    async start() {
      const sim = await startGorgiasSimulator();
      const ids = sim.seedTickets(200);
      const cred = sim.credentials[0]!;
      return {
        connection: { provider: 'gorgias', credentials: { email: cred.email, api_token: cred.apiKey }, base_url: sim.url },
        rename: (i, subject) => void sim.updateTicketRemotely(ids[i]!, { subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path === '/api/tickets' && r.method === 'GET').length,
        close: () => sim.close(),
      };
    },
  },
  front: {
    adapter: adapterOf('front'),
    async start() {
      const sim = await startFrontSimulator();
      // Front's budget (50 calls a minute on Starter, three calls per conversation read) makes a first sync of
      // 200 conversations take a quarter of an hour: 20 here.
      const ids = sim.seedConversations(20);
      const tag = [...sim.state.tags.keys()][0]!;
      const secret = FrontHooks.newAppSecret();
      return {
        connection: { provider: 'front', credentials: { access_token: sim.token, app_secret: secret }, base_url: sim.url },
        async afterConnect(setup) {
          if (setup && !(await sim.hooks.install({ url: setup.url, secret }))) throw new Error('Front refused the webhook address');
        },
        // Front's API cannot rename and its UI's rename emits no event: renamed, then tagged or untagged (an event).
        rename: (i, subject) => {
          sim.state.renameRemotely(ids[i]!, subject);
          const c = sim.state.conversation(ids[i]!);
          sim.state.setTags(c, c.tagIds.includes(tag) ? c.tagIds.filter((t) => t !== tag) : [...c.tagIds, tag]);
        },
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path === '/conversations' || r.path === '/events').length,
        close: () => sim.close(),
      };
    },
  },
};
/** The project's OAuth app for a provider whose app's client secret signs its webhooks. */
const oauthApp = (provider: string, clientSecret: string) => async (bench: Bench) => {
  const app = await bench.call('PUT', `/oauth-apps/${provider}`, { client_id: 'omniport-bench-app', client_secret: clientSecret });
  if (app.status !== 200) throw new Error(`OAuth app: ${JSON.stringify(app.body)}`);
};
Object.assign(PROVIDERS, {
  github: {
    adapter: adapterOf('github'),
    async start() {
      const sim = await startGithubSimulator({ validateSpec: false });
      const repo = 'octo-org/helpdesk';
      const numbers = sim.seedIssues(repo, 200).map((i) => i.number);
      return {
        connection: { provider: 'github', credentials: { access_token: sim.token }, base_url: sim.url },
        rename: (i, subject) => void sim.updateIssueRemotely(repo, numbers[i]!, { title: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => /\/issues$/.test(r.path)).length,
        close: () => sim.close(),
      };
    },
  },
  pipedrive: {
    adapter: adapterOf('pipedrive'),
    async start() {
      const sim = await startPipedriveSimulator({ apiTokens: ['pd-bench-token'], validateSpec: false });
      const ids = sim.seedDeals(200).map((d) => d.id);
      return {
        connection: { provider: 'pipedrive', credentials: { api_token: 'pd-bench-token' }, base_url: sim.url },
        eventType: 'crm.deal.updated',
        rename: (i, subject) => void sim.updateEntity('deals', ids[i]!, { title: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => /\/deals$/.test(r.path)).length,
        close: () => sim.close(),
      };
    },
  },
  hubspot: {
    adapter: adapterOf('hubspot'),
    async start() {
      const sim = await startHubSpotSimulator({ accessTokens: ['hs-bench-token'] });
      const ids = sim.seedDeals(200).map((d) => d.id);
      return {
        connection: { provider: 'hubspot', credentials: { access_token: 'hs-bench-token' }, base_url: sim.url },
        eventType: 'crm.deal.updated',
        beforeConnect: oauthApp('hubspot', 'hs-bench-secret'),
        async afterConnect(setup) {
          sim.appWebhooks.configure({ targetUrl: setup!.url, clientSecret: 'hs-bench-secret', appId: 1_234_567 });
        },
        rename: (i, subject) => void sim.updateRecord('deals', ids[i]!, { dealname: subject }),
        webhooksSent: () => sim.appWebhooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path.includes('/objects/deals')).length,
        close: () => sim.close(),
      };
    },
  },
  attio: {
    adapter: adapterOf('attio'),
    async start() {
      const sim = await startAttioSimulator({ tokens: ['attio-bench-token'], validateSpec: false });
      const owner = (sim.members[0]!.id as { workspace_member_id: string }).workspace_member_id;
      const ids = Array.from({ length: 200 }, (_, i) => sim.create('deals', { name: `Deal ${i}`, stage: 'Lead', owner }).id);
      return {
        connection: { provider: 'attio', credentials: { access_token: 'attio-bench-token' }, base_url: sim.url },
        eventType: 'crm.deal.updated',
        rename: (i, subject) => void sim.update('deals', ids[i]!, { name: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path.includes('/objects/deals/records')).length,
        close: () => sim.close(),
      };
    },
  },
  close: {
    adapter: adapterOf('close'),
    async start() {
      const sim = await startCloseSimulator({ apiKeys: ['close-bench-key'], validateSpec: false });
      const lead = sim.create('lead', { name: 'Initech' });
      const ids = Array.from({ length: 200 }, (_, i) => sim.create('opportunity', { lead_id: lead.id, note: `Deal ${i}` }).id);
      return {
        connection: { provider: 'close', credentials: { api_key: 'close-bench-key' }, base_url: sim.url },
        eventType: 'crm.deal.updated',
        rename: (i, subject) => void sim.update('opportunity', ids[i]!, { note: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path.startsWith('/api/v1/opportunity')).length,
        close: () => sim.close(),
      };
    },
  },
  helpscout: {
    adapter: adapterOf('helpscout'),
    async start() {
      const sim = await startHelpScoutSimulator({ tokens: ['hs-bench-token'] });
      const ids = sim.seedConversations(200);
      return {
        connection: { provider: 'helpscout', credentials: { access_token: 'hs-bench-token' }, base_url: sim.url },
        // Help Scout has no event for a subject change: the change is a tag (`convo.tags`), found in the ticket's tags.
        rename: (i, subject) => void sim.updateConversationRemotely(ids[i]!, { tags: [subject.replace(/\W+/g, '-')] }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path === '/v2/conversations').length,
        close: () => sim.close(),
      };
    },
  },
  asana: {
    adapter: adapterOf('asana'),
    async start() {
      const sim = await startAsanaSimulator();
      const ids = sim.seedTasks(200, { project: sim.seed!.support });
      return {
        connection: { provider: 'asana', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url },
        rename: (i, subject) => void sim.updateTaskRemotely(ids[i]!, { name: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => /\/tasks$/.test(r.path)).length,
        close: () => sim.close(),
      };
    },
  },
  clickup: {
    adapter: adapterOf('clickup'),
    async start() {
      const sim = await startClickUpSimulator();
      const ids = sim.seedTasks(200);
      return {
        connection: { provider: 'clickup', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url },
        rename: (i, subject) => void sim.updateTaskRemotely(ids[i]!, { name: subject }),
        webhooksSent: () => sim.hooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => /\/task$/.test(r.path)).length,
        close: () => sim.close(),
      };
    },
  },
  intercom: {
    adapter: adapterOf('intercom'),
    async start() {
      const sim = await startIntercomSimulator({ tokens: ['ic-bench-token'] });
      const ids = sim.seedTickets(200);
      return {
        connection: { provider: 'intercom', credentials: { access_token: 'ic-bench-token' }, base_url: sim.url },
        beforeConnect: oauthApp('intercom', 'ic-bench-secret'),
        async afterConnect(setup) {
          await sim.appWebhooks.configure({ url: setup!.url, clientSecret: 'ic-bench-secret', topics: ['ticket.attribute.updated', 'ticket.state.updated'] });
        },
        rename: (i, subject) => void sim.updateTicketRemotely(ids[i]!, { _default_title_: subject }),
        webhooksSent: () => sim.appWebhooks.sender.sent.length,
        ticketRuns: () => sim.requests.filter((r) => r.path === '/tickets/search').length,
        close: () => sim.close(),
      };
    },
  },
} satisfies Record<string, BenchProvider>);

const providerName = process.env.BENCH_PROVIDER ?? 'zendesk';
const provider = PROVIDERS[providerName];
if (!provider) throw new Error(`BENCH_PROVIDER: one of ${Object.keys(PROVIDERS).join(', ')}`);

/** The project's scheduled sync interval in both parts (BENCH_SYNC_INTERVAL_MINUTES, default 1): a provider with a small budget (Front) spends it on the scheduled syncs of every stream. */
const syncIntervalMinutes = Number(process.env.BENCH_SYNC_INTERVAL_MINUTES ?? 1);
const realTimeChanges = Number(process.argv[2] ?? 20);
const realTimeSpacingMs = Number(process.argv[3] ?? 3) * 1000;
const pollingChanges = Number(process.argv[4] ?? 8);
const pollingSpacingMs = Number(process.argv[5] ?? 15) * 1000;

/** The customer's receiver: each record event of `eventType`, its object as JSON text (a change is found by its subject in it). */
function startReceiver(eventType: string) {
  const arrivals: { object: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { type: string; data: { object?: unknown } };
      if (body.type === eventType && body.data.object) arrivals.push({ object: JSON.stringify(body.data.object), at: Date.now() });
      res.writeHead(200).end('ok');
    });
  });
  return { server, arrivals, listen: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))) };
}

async function emptyDatabase() {
  if (!process.env.BENCH_DATABASE_URL) return;
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query('drop schema if exists pgboss cascade; drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
  await admin.end();
}

async function run(mode: 'real time' | 'polling', changes: number, spacingMs: number) {
  await emptyDatabase();
  const sim = await provider!.start();
  const bench = await startBenchServer(new ProviderRegistry([provider!.adapter]), {}, { work: true });
  // Real time needs an address the provider can reach: the server's own, known once it listens.
  if (mode === 'real time') bench.omniport.services.providerWebhooks.usePublicUrl(bench.url);
  const eventType = sim.eventType ?? 'ticketing.ticket.updated';
  const receiver = startReceiver(eventType);
  const url = await receiver.listen();
  await bench.call('POST', '/webhooks', { url: `${url}/hook`, events: [eventType] });
  const project = (await bench.omniport.database.executeSql('select id from projects limit 1')).rows[0]!.id as string;
  await bench.omniport.services.controlPlane.setSyncInterval(project, syncIntervalMinutes);
  await sim.beforeConnect?.(bench);
  const { token, connectionId } = await connect(bench, sim.connection);
  await sim.afterConnect?.((await bench.call('GET', `/connections/${connectionId}`)).body.data.real_time_setup ?? null);
  for (;;) {
    const status = await bench.call('GET', '/sync/status', undefined, { 'x-connection-token': token });
    if (status.body.data.streams.every((s: { status: string }) => s.status === 'idle')) {
      console.log(`${mode}: real_time ${JSON.stringify(status.body.data.real_time)}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const changedAt = new Map<string, number>();
  for (let i = 0; i < changes; i++) {
    const subject = `${mode} change ${i}`;
    sim.rename(i, subject);
    changedAt.set(subject, Date.now());
    await new Promise((r) => setTimeout(r, spacingMs));
  }
  const deadline = Date.now() + 180_000;
  const arrivalOf = (subject: string) => receiver.arrivals.find((a) => a.object.includes(`${subject.replace(/\W+/g, '-')}"`) || a.object.includes(`${subject}"`));
  while (Date.now() < deadline && [...changedAt.keys()].filter(arrivalOf).length < changes) await new Promise((r) => setTimeout(r, 200));
  const latencies = [...changedAt].flatMap(([subject, at]) => {
    const arrival = arrivalOf(subject);
    return arrival ? [(arrival.at - at) / 1000] : [];
  });
  console.log(
    `${providerName} ${mode} on ${bench.database}: ${latencies.length}/${changes} changes arrived, ${sim.webhooksSent()} provider webhooks, ${sim.ticketRuns()} list calls of the changed type; ` +
      `p50 ${percentile(latencies, 50).toFixed(2)} s, p95 ${percentile(latencies, 95).toFixed(2)} s, max ${Math.max(...latencies).toFixed(2)} s`,
  );
  await bench.omniport.close();
  await sim.close();
  receiver.server.close();
}

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
if (realTimeChanges > 0) await run('real time', realTimeChanges, realTimeSpacingMs);
if (pollingChanges > 0) await run('polling', pollingChanges, pollingSpacingMs);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`);
