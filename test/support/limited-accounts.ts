/** Provider simulators that enforce the limits their providers document, for budget tests and benchmarks. */
import { zendeskAdapter } from '../../src/providers/zendesk';
import { jiraAdapter } from '../../src/providers/jira';
import { githubAdapter } from '../../src/providers/github';
import { gitlabAdapter } from '../../src/providers/gitlab';
import { linearAdapter } from '../../src/providers/linear';
import { frontAdapter } from '../../src/providers/front';
import { gorgiasAdapter } from '../../src/providers/gorgias';
import { freshdeskAdapter } from '../../src/providers/freshdesk';
import { helpscoutAdapter } from '../../src/providers/helpscout';
import { intercomAdapter } from '../../src/providers/intercom';
import { hubspotAdapter } from '../../src/providers/hubspot';
import { pipedriveAdapter } from '../../src/providers/pipedrive';
import { asanaAdapter } from '../../src/providers/asana';
import { clickupAdapter } from '../../src/providers/clickup';
import { closeAdapter } from '../../src/providers/close';
import { attioAdapter } from '../../src/providers/attio';
import { salesforceAdapter } from '../../src/providers/salesforce';
import { dynamicsAdapter } from '../../src/providers/dynamics';
import { zohoAdapter } from '../../src/providers/zoho';
import { zendeskSellAdapter } from '../../src/providers/zendesk-sell';
import type { RequestBudget } from '../../src/providers/manifest';
import type { ProviderAdapter } from '../../src/providers/types';
import { startZendeskSimulator } from '../simulators/zendesk';
import { startJiraSimulator } from '../simulators/jira';
import { startGithubSimulator } from '../simulators/github';
import { startGitlabSimulator } from '../simulators/gitlab';
import { startLinearSimulator } from '../simulators/linear';
import { startFrontSimulator } from '../simulators/front';
import { startGorgiasSimulator } from '../simulators/gorgias';
import { startFreshdeskSimulator } from '../simulators/freshdesk';
import { startHelpScoutSimulator } from '../simulators/helpscout';
import { startIntercomSimulator } from '../simulators/intercom';
import { startHubSpotSimulator } from '../simulators/hubspot';
import { startPipedriveSimulator } from '../simulators/pipedrive';
import { startAsanaSimulator } from '../simulators/asana';
import { startClickUpSimulator } from '../simulators/clickup';
import { startCloseSimulator } from '../simulators/close';
import { startAttioSimulator } from '../simulators/attio';
import { startSalesforceSimulator } from '../simulators/salesforce';
import { startDynamicsSimulator } from '../simulators/dynamics';
import { startZohoSimulator } from '../simulators/zoho';
import { startZendeskSellSimulator } from '../simulators/zendesk-sell';

export interface Recorded {
  method: string;
  path: string;
  status?: number;
}

/** A simulator seeded with `records` objects and enforcing the (scaled) documented limits. */
export interface LimitedAccount {
  url: string;
  credentials: Record<string, string>;
  requests: readonly Recorded[];
  /** Whether a recorded answer is the provider's rate-limit refusal. */
  refused(r: Recorded): boolean;
  /** What the run spent of a budget counted in cost rather than calls (Linear's complexity points). */
  spent?(budget: string): number | undefined;
  close(): Promise<unknown>;
}

const find = (budgets: RequestBudget[], name: string) => budgets.find((b) => b.name === name)!;
const windowMs = (budgets: RequestBudget[], name: string) => find(budgets, name).perSeconds * 1000;
const is429 = (r: Recorded) => r.status === 429;

/**
 * Every provider's simulator, seeded with a large account and enforcing `budgets` (the manifest's, or the
 * same scaled) as the provider answers them: its own refusal (429, GitHub's 403, Linear's 400 RATELIMITED)
 * and rate-limit headers. Shared by the budget tests and bench/provider-budgets.ts.
 */
export const limitedAccounts: Record<string, { adapter: ProviderAdapter; vertical: 'ticketing' | 'crm'; start(records: number, budgets: RequestBudget[]): Promise<LimitedAccount> }> = {
  zendesk: {
    adapter: zendeskAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startZendeskSimulator({
        validateSpec: false,
        rateLimit: {
          enforce: true,
          perMinute: find(budgets, 'account').requests,
          windowMs: windowMs(budgets, 'account'),
          exports: { requests: find(budgets, 'incremental export').requests, windowMs: windowMs(budgets, 'incremental export') },
        },
      });
      // Half tickets, half comments (one each): the comment stream reads the ticket event export.
      sim.seedTickets(Math.round(records / 2), { commentsPerTicket: 1 });
      const cred = sim.credentials[0]!;
      return { url: sim.url, credentials: { email: cred.email, api_token: cred.apiToken }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  jira: {
    adapter: jiraAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startJiraSimulator({ validateSpec: false, recordBodies: false, rateLimit: { enforce: true, limit: find(budgets, 'burst').requests, windowMs: windowMs(budgets, 'burst') } });
      sim.seedIssues(records);
      const cred = sim.credentials[0]!;
      return { url: sim.url, credentials: { email: cred.email, api_token: cred.apiToken }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  github: {
    adapter: githubAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startGithubSimulator({
        validateSpec: false,
        recordBodies: false,
        rateLimit: {
          enforce: true,
          status: 403,
          limit: find(budgets, 'primary').requests,
          windowMs: windowMs(budgets, 'primary'),
          contentCreation: { requests: find(budgets, 'content creation').requests, windowMs: windowMs(budgets, 'content creation') },
        },
      });
      sim.seedIssues('octo-org/helpdesk', records);
      // GitHub refuses with 403 (or 429) and its rate-limit message.
      return { url: sim.url, credentials: { access_token: sim.token }, requests: sim.requests, refused: (r) => r.status === 429 || r.status === 403, close: () => sim.close() };
    },
  },
  gitlab: {
    adapter: gitlabAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startGitlabSimulator({
        validateSpec: false,
        recordBodies: false,
        rateLimit: { enforce: true, perMinute: find(budgets, 'authenticated API').requests, windowMs: windowMs(budgets, 'authenticated API') },
      });
      sim.seedIssues(sim.fixtures!.helpDesk.id, records);
      return { url: sim.url, credentials: { access_token: sim.token }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  linear: {
    adapter: linearAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startLinearSimulator({
        recordBodies: false,
        rateLimit: {
          enforce: true,
          requestsPerHour: find(budgets, 'requests').requests,
          complexityPerHour: find(budgets, 'complexity').requests,
          windowMs: windowMs(budgets, 'requests'),
        },
      });
      sim.seedIssues(records);
      // Linear refuses with HTTP 400 RATELIMITED, never 429; no other 400 is expected in a sync.
      return {
        url: sim.url,
        credentials: { access_token: sim.apiKey },
        requests: sim.requests,
        refused: (r) => r.status === 400,
        // The complexity budget is charged in points, not calls.
        spent: (budget) => (budget === 'complexity' ? sim.operations.reduce((sum, op) => sum + op.complexity, 0) : undefined),
        close: () => sim.close(),
      };
    },
  },
  front: {
    adapter: frontAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const sim = await startFrontSimulator({
        validateSpec: false,
        recordBodies: false,
        rateLimit: { enforce: true, perMinute: find(budgets, 'company').requests, windowMs: windowMs(budgets, 'company') },
      });
      // Conversations with one message each: a ticket and its comment.
      sim.seedConversations(Math.round(records / 2), { messagesPerConversation: 1 });
      return { url: sim.url, credentials: { access_token: sim.token }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  gorgias: {
    adapter: gorgiasAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const budget = find(budgets, 'account');
      const sim = await startGorgiasSimulator({ recordBodies: false, rateLimit: { enforce: true, limit: budget.requests, windowSeconds: budget.perSeconds } });
      sim.seedTickets(Math.round(records / 2), { messagesPerTicket: 1 });
      const cred = sim.credentials[0]!;
      return { url: sim.url, credentials: { email: cred.email, api_token: cred.apiKey }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  freshdesk: {
    adapter: freshdeskAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      // The account-wide limit (the endpoint sub-limits are paced by Omniport but not enforced here).
      const budget = find(budgets, 'account');
      const sim = await startFreshdeskSimulator({ recordBodies: false, rateLimit: { enforce: true, perMinute: budget.requests, windowSeconds: budget.perSeconds } });
      // Tickets with one reply each: a ticket and its comment.
      sim.seedTickets(Math.round(records / 2), { conversationsPerTicket: 1 });
      return { url: sim.url, credentials: { api_key: sim.apiKeys[0]! }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  helpscout: {
    adapter: helpscoutAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      // The account's per-minute limit, writes counting two (a sync only reads).
      const budget = find(budgets, 'account');
      const sim = await startHelpScoutSimulator({ recordBodies: false, rateLimit: { enforce: true, perMinute: budget.requests, windowSeconds: budget.perSeconds } });
      // Conversations with two threads each, embedded in the conversation listing.
      sim.seedConversations(Math.round(records / 3), { threadsPerConversation: 2 });
      return { url: sim.url, credentials: { access_token: sim.token }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  intercom: {
    adapter: intercomAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const budget = find(budgets, 'app');
      const sim = await startIntercomSimulator({ recordBodies: false, validateSpec: false, rateLimit: { enforce: true, per10s: budget.requests, windowSeconds: budget.perSeconds } });
      sim.seedTickets(Math.round(records / 2), { partsPerTicket: 1 });
      return { url: sim.url, credentials: { access_token: sim.tokens[0]! }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  asana: {
    adapter: asanaAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const budget = find(budgets, 'token');
      const sim = await startAsanaSimulator({ recordBodies: false, validateSpec: false, rateLimit: { enforce: true, perMinute: budget.requests, windowSeconds: budget.perSeconds } });
      sim.seedTasks(Math.round(records / 2), { commentsPerTask: 1 });
      return { url: sim.url, credentials: { access_token: sim.tokens[0]! }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  clickup: {
    adapter: clickupAdapter,
    vertical: 'ticketing',
    async start(records, budgets) {
      const budget = find(budgets, 'token');
      const sim = await startClickUpSimulator({ recordBodies: false, validateSpec: false, rateLimit: { enforce: true, perMinute: budget.requests, windowSeconds: budget.perSeconds } });
      sim.seedTasks(Math.round(records / 2), { commentsPerTask: 1 });
      return { url: sim.url, credentials: { access_token: sim.tokens[0]! }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  hubspot: {
    adapter: hubspotAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      const burst = find(budgets, 'burst');
      const search = find(budgets, 'search');
      const sim = await startHubSpotSimulator({
        recordBodies: false,
        rateLimit: { enforce: true, max: burst.requests, intervalMs: windowMs(budgets, 'burst'), searchPerSecond: search.requests, searchWindowMs: windowMs(budgets, 'search') },
      });
      sim.seedCompanies(Math.round(records * 0.1));
      sim.seedContacts(Math.round(records * 0.6), { associateCompanies: true });
      sim.seedDeals(Math.round(records * 0.3), { associateContacts: true });
      return { url: sim.url, credentials: { access_token: 'hs-test-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  pipedrive: {
    adapter: pipedriveAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      const sim = await startPipedriveSimulator({
        validateSpec: false,
        rateLimit: { enforce: true, apiTokenLimit: find(budgets, 'burst').requests, windowMs: windowMs(budgets, 'burst') },
      });
      sim.seedOrganizations(Math.round(records * 0.1));
      sim.seedPersons(Math.round(records * 0.6), { linkOrganizations: true });
      sim.seedDeals(Math.round(records * 0.3), { linkPersons: true });
      return { url: sim.url, credentials: { api_token: 'pd-test-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  close: {
    adapter: closeAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      const budget = find(budgets, 'api key');
      const sim = await startCloseSimulator({ validateSpec: false, recordBodies: false, apiKeys: ['close-limited-key'], rateLimit: { enforce: true, perWindow: budget.requests, windowSeconds: budget.perSeconds } });
      const leads = Array.from({ length: Math.round(records * 0.1) }, (_, i) => sim.create('lead', { name: `Lead ${i}` }));
      const contacts = Array.from({ length: Math.round(records * 0.6) }, (_, i) =>
        sim.create('contact', { lead_id: leads[i % leads.length]!.id, name: `Contact ${i}`, emails: [{ email: `c${i}@example.com`, type: 'office', is_unsubscribed: false }] }),
      );
      const status = sim.pipelines[0]!.statuses[0]!.id;
      for (let i = 0; i < Math.round(records * 0.3); i++) {
        const c = contacts[i % contacts.length]!;
        sim.create('opportunity', { lead_id: c.lead_id, contact_id: c.id, note: `Deal ${i}`, value: 100_000 + i, value_currency: 'EUR', status_id: status, user_id: sim.users[0]!.id });
      }
      return { url: sim.url, credentials: { api_key: 'close-limited-key' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  attio: {
    adapter: attioAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      const [reads, writes] = [find(budgets, 'reads'), find(budgets, 'writes')];
      const sim = await startAttioSimulator({ validateSpec: false, recordBodies: false, tokens: ['attio-limited-token'], rateLimit: { enforce: true, reads: reads.requests, writes: writes.requests, windowSeconds: reads.perSeconds } });
      const companies = Array.from({ length: Math.round(records * 0.1) }, (_, i) => sim.create('companies', { name: `Company ${i}` }).id);
      const people = Array.from({ length: Math.round(records * 0.6) }, (_, i) =>
        sim.create('people', { name: [{ first_name: 'Person', last_name: String(i) }], email_addresses: [`p${i}@example.com`], company: [companies[i % companies.length]] }).id,
      );
      const stage = (sim.statuses[0]!.id as { status_id: string }).status_id;
      const owner = (sim.members[0]!.id as { workspace_member_id: string }).workspace_member_id;
      for (let i = 0; i < Math.round(records * 0.3); i++) sim.create('deals', { name: [`Deal ${i}`], stage: [stage], owner: [owner], value: [1000 + (i % 100)], associated_people: [people[i % people.length]] });
      return { url: sim.url, credentials: { access_token: 'attio-limited-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  salesforce: {
    adapter: salesforceAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      // Salesforce counts API requests per org and day (403 REQUEST_LIMIT_EXCEEDED once spent), nothing shorter.
      const sim = await startSalesforceSimulator({ validateSpec: false, accessTokens: ['sf-limited-token'], dailyApiRequests: find(budgets, 'daily api requests').requests });
      const accounts = Array.from({ length: Math.round(records * 0.1) }, (_, i) => sim.create('Account', { Name: `Account ${i}` }));
      const contacts = Array.from({ length: Math.round(records * 0.6) }, (_, i) => sim.create('Contact', { AccountId: accounts[i % accounts.length]!.Id, LastName: `Contact ${i}` }));
      for (let i = 0; i < Math.round(records * 0.3); i++) {
        const c = contacts[i % contacts.length]!;
        sim.create('Opportunity', { AccountId: c.AccountId, Name: `Deal ${i}`, Amount: 1000 + i / 100, StageName: 'Prospecting', CloseDate: '2026-12-31' });
      }
      return { url: sim.url, credentials: { access_token: 'sf-limited-token' }, requests: sim.requests, refused: (r) => r.status === 403, close: () => sim.close() };
    },
  },
  dynamics: {
    adapter: dynamicsAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      // Service protection: requests per user in a sliding window, refused with 429 and Retry-After.
      const budget = find(budgets, 'service protection (requests per user)');
      const sim = await startDynamicsSimulator({ accessTokens: ['dv-test-token'], recordBodies: false, requestsPerFiveMinutes: budget.requests, serviceProtectionWindowMs: windowMs(budgets, budget.name) });
      const accounts = Array.from({ length: Math.round(records * 0.1) }, (_, i) => sim.create('account', { name: `Account ${i}` }));
      const contacts = Array.from({ length: Math.round(records * 0.6) }, (_, i) =>
        sim.create('contact', { lastname: `Contact ${i}`, 'parentcustomerid_account@odata.bind': `/accounts(${String(accounts[i % accounts.length]!.accountid)})` }),
      );
      for (let i = 0; i < Math.round(records * 0.3); i++) sim.create('opportunity', { name: `Deal ${i}`, estimatedvalue: 100 + i, 'parentcontactid@odata.bind': `/contacts(${String(contacts[i % contacts.length]!.contactid)})` });
      return { url: sim.url, credentials: { access_token: 'dv-test-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  zoho: {
    adapter: zohoAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      // Zoho counts API credits per day (429 once spent); a small account stays far below them.
      const sim = await startZohoSimulator({ validateSpec: false, accessTokens: ['zoho-limited-token'], dailyCredits: find(budgets, 'daily api credits').requests });
      const accounts = Array.from({ length: Math.max(1, Math.round(records * 0.1)) }, (_, i) => sim.create('Accounts', { Account_Name: `Account ${i}` }));
      const contacts = Array.from({ length: Math.round(records * 0.6) }, (_, i) => sim.create('Contacts', { Last_Name: `Contact ${i}`, Account_Name: { id: accounts[i % accounts.length]!.id } }));
      for (let i = 0; i < Math.round(records * 0.3); i++) {
        sim.create('Deals', { Deal_Name: `Deal ${i}`, Stage: sim.stages[0], Closing_Date: '2026-12-31', Amount: 1000 + i, Contact_Name: { id: contacts[i % contacts.length]!.id } });
      }
      return { url: sim.url, credentials: { access_token: 'zoho-limited-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
  'zendesk-sell': {
    adapter: zendeskSellAdapter,
    vertical: 'crm',
    async start(records, budgets) {
      const budget = find(budgets, 'access token');
      const sim = await startZendeskSellSimulator({ tokens: ['sell-limited-token'], hourlyLimit: budget.requests, windowMs: windowMs(budgets, 'access token') });
      const orgs = Array.from({ length: Math.max(1, Math.round(records * 0.1)) }, (_, i) => sim.create('contacts', { is_organization: true, name: `Organization ${i}` }));
      const people = Array.from({ length: Math.round(records * 0.6) }, (_, i) => sim.create('contacts', { last_name: `Contact ${i}`, contact_id: orgs[i % orgs.length]!.id }));
      for (let i = 0; i < Math.round(records * 0.3); i++) sim.create('deals', { name: `Deal ${i}`, value: 1000 + i, contact_id: people[i % people.length]!.id });
      return { url: sim.url, credentials: { access_token: 'sell-limited-token' }, requests: sim.requests, refused: is429, close: () => sim.close() };
    },
  },
};
