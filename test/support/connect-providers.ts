import { z } from 'zod';
import type { ProviderAdapter, UnifiedRecord } from '../../src/providers/types';
import { jiraAdapter } from '../../src/providers/jira';

/**
 * Test-only adapters for the hosted connect page, both backed by the OAuth simulator's little API
 * (test/simulators/oauth): one connected with OAuth 2.0 + PKCE, one with an email and API token.
 * Like Zendesk, neither has a default base URL: the user gives the account's address.
 */

const bearer = (credentials: Record<string, string>): Record<string, string> =>
  credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};

const errorMessage = (body: unknown) => {
  const b = body as { message?: unknown; error?: unknown } | undefined;
  return typeof b?.message === 'string' ? b.message : typeof b?.error === 'string' ? b.error : undefined;
};

interface SimTicket {
  id: number;
  subject: string;
  updated_at: string;
}

const ticketRecord = (t: SimTicket): UnifiedRecord => ({
  objectType: 'ticketing.ticket',
  remoteId: String(t.id),
  data: {
    name: t.subject,
    status: 'OPEN',
    description: [],
    due_date: null,
    type: null,
    parent_ticket: null,
    project_id: null,
    tags: [],
    completed_at: null,
    priority: null,
    assigned_to: [],
    account_id: null,
    contact_id: null,
  },
  remoteData: t as unknown as Record<string, unknown>,
  remoteCreatedAt: new Date(t.updated_at),
  remoteUpdatedAt: new Date(t.updated_at),
});

export const acmeOAuthProvider: ProviderAdapter = {
  manifest: {
    name: 'acme-oauth',
    displayName: 'Acme Helpdesk',
    vertical: 'ticketing',
    authKind: 'oauth2',
    credentials: z.strictObject({ access_token: z.string().min(1) }),
    oauth: { hosts: ['*.acme-helpdesk.example'], authorizeUrl: '/oauth/authorize', tokenUrl: '/oauth/token', scopes: ['tickets:read', 'tickets:write'], pkce: true },
    capabilities: { 'ticketing.ticket': ['create', 'list', 'sync'] },
  },
  http: { authHeaders: bearer, errorMessage },
  verifyCredentials: async (ctx) => void (await ctx.http.get('/api/me')),
  syncers: [
    {
      key: 'ticketing.ticket',
      objectTypes: ['ticketing.ticket'],
      incremental: false,
      reportsDeletions: false,
      async *run(ctx) {
        const res = await ctx.http.get<{ tickets: SimTicket[] }>('/api/tickets');
        yield { records: res.data.tickets.map(ticketRecord), resume: null };
      },
    },
  ],
  ticketing: {
    async createTicket(ctx, input) {
      const res = await ctx.http.post<{ ticket: SimTicket }>('/api/tickets', { json: { subject: input.name } });
      return { record: ticketRecord(res.data.ticket) };
    },
    createComment: async () => {
      throw new Error('not used');
    },
    updateTicket: async () => {
      throw new Error('not used');
    },
  },
};

export const acmeTokenProvider: ProviderAdapter = {
  manifest: {
    name: 'acme-crm',
    displayName: 'Acme CRM',
    vertical: 'crm',
    authKind: 'api_token',
    credentials: z.strictObject({
      email: z.email().describe('The email address you sign in to Acme CRM with.'),
      api_token: z.string().min(1).describe('Settings → API → Generate token.'),
    }),
    capabilities: {},
  },
  http: {
    authHeaders: (c): Record<string, string> =>
      c.email && c.api_token ? { authorization: `Basic ${Buffer.from(`${c.email}:${c.api_token}`).toString('base64')}` } : {},
    errorMessage,
  },
  verifyCredentials: async (ctx) => void (await ctx.http.get('/api/me')),
  syncers: [],
};

/**
 * Jira's real adapter with Atlassian's API host (accessible-resources and the gateway) moved to the Jira
 * simulator, as its OAuth endpoints are moved to the OAuth simulator by the project's OAuth app.
 */
export function jiraOnSimulator(sim: { url: string }): ProviderAdapter {
  const oauth = jiraAdapter.manifest.oauth!;
  return {
    ...jiraAdapter,
    manifest: {
      ...jiraAdapter.manifest,
      oauth: { ...oauth, sites: { ...oauth.sites!, resourcesUrl: `${sim.url}/oauth/token/accessible-resources`, apiBaseUrl: `${sim.url}/ex/jira/{id}` } },
    },
  };
}
