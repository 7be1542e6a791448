/**
 * What each provider's adapter does when a create's answer is lost, with the fault forced (not drawn):
 * the proxy lets the provider do the work and then fails the answer ("after"), or fails before forwarding
 * ("before"). Counted in the simulators: never two objects, and an honest answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/core/errors';
import { idFactory } from '../../src/core/unified/ids';
import { ProviderHttpClient } from '../../src/providers/http-client';
import { createLinearAdapter } from '../../src/providers/linear';
import { zendeskAdapter } from '../../src/providers/zendesk';
import { createHubSpotAdapter } from '../../src/providers/hubspot';
import type { AdapterContext, BulkItemResult, ProviderAdapter } from '../../src/providers/types';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startLinearSimulator, type LinearSimulator } from '../simulators/linear';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';

let n = 0;
function context(adapter: ProviderAdapter, baseUrl: string, credentials: Record<string, string>): AdapterContext {
  const connectionId = `lost-${n++}`;
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 2,
    timeoutMs: 1_000,
  });
  return { connectionId, baseUrl, credentials, http, ids: idFactory(connectionId) };
}

const codeOf = (r: BulkItemResult | undefined) => (r?.ok === false ? (r.error as AppError).code : 'ok');

describe('Linear: issues carry our ids, so a lost answer is settled by reading them', () => {
  let sim: LinearSimulator;
  let proxy: FaultProxy;
  let ctx: AdapterContext;
  let adapter: ProviderAdapter;
  let teamId: string;
  const count = (title: string) => [...sim.state.issues.values()].filter((i) => i.title === title).length;
  const creates = ({ body }: { body: string }) => body.includes('issueCreate') || body.includes('issueBatchCreate');

  beforeAll(async () => {
    sim = await startLinearSimulator();
    proxy = await startFaultProxy({ target: sim.url, rate: 0, seed: 1, holdMs: 1_500 });
    adapter = createLinearAdapter({ uploadHosts: [sim.uploadsHost], rateLimitBaseMs: 5, batchSize: 10 });
    ctx = context(adapter, proxy.url, { access_token: sim.apiKey });
    teamId = [...sim.state.teams.values()][0]!.id;
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it.each(['after', 'before'] as const)('creates one issue when the answer is lost %s Linear did the work', async (timing) => {
    const name = `linear lost ${timing}`;
    proxy.force({ kind: 502, timing, match: creates });
    const { record } = await adapter.ticketing!.createTicket(ctx, { name, project_id: teamId });
    expect(count(name)).toBe(1);
    expect(sim.state.issues.has(record.remoteId)).toBe(true);
  });

  it('answers outcome_unknown when the answer is lost twice, still creating at most one', async () => {
    const name = 'linear lost twice';
    proxy.force({ kind: 'no_answer', timing: 'before', match: creates, times: 2 });
    const err = await adapter.ticketing!.createTicket(ctx, { name, project_id: teamId }).catch((e: AppError) => e);
    expect((err as AppError).code).toBe('outcome_unknown');
    expect(count(name)).toBe(0);
  });

  it('settles a lost batch answer: every element created once', async () => {
    proxy.force({ kind: 'reset', timing: 'after', match: creates });
    const results = await adapter.ticketing!.createTickets!(ctx, [1, 2, 3].map((k) => ({ name: `linear batch ${k}`, project_id: teamId })));
    expect(results.map(codeOf)).toEqual(['ok', 'ok', 'ok']);
    for (const k of [1, 2, 3]) expect(count(`linear batch ${k}`)).toBe(1);
  });
});

describe('Zendesk: ticket creation under its Idempotency-Key, bulk jobs found again', () => {
  let sim: ZendeskSimulator;
  let proxy: FaultProxy;
  let ctx: AdapterContext;
  const count = (subject: string) => [...sim.state.tickets.values()].filter((t) => t.subject === subject).length;

  beforeAll(async () => {
    sim = await startZendeskSimulator({ specFile: null });
    proxy = await startFaultProxy({ target: sim.url, rate: 0, seed: 1, holdMs: 1_500 });
    const cred = sim.credentials[0]!;
    ctx = context(zendeskAdapter, proxy.url, { email: cred.email, api_token: cred.apiToken });
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it('retries a single creation after a lost answer and gets the first ticket back', async () => {
    proxy.force({ kind: 500, timing: 'after', match: ({ path }) => path === '/api/v2/tickets' });
    const { record } = await zendeskAdapter.ticketing!.createTicket(ctx, { name: 'zd lost single', description: ['x'] });
    expect(count('zd lost single')).toBe(1);
    expect(sim.state.tickets.has(Number(record.remoteId))).toBe(true);
  });

  it('finds a bulk job whose answer was lost, and answers each element with its ticket', async () => {
    proxy.force({ kind: 'no_answer', timing: 'after', match: ({ path }) => path.endsWith('/create_many') });
    const results = await zendeskAdapter.ticketing!.createTickets!(ctx, [1, 2].map((k) => ({ name: `zd lost bulk ${k}`, description: [`d${k}`] })));
    expect(results.map(codeOf)).toEqual(['ok', 'ok']);
    for (const k of [1, 2]) expect(count(`zd lost bulk ${k}`)).toBe(1);
  });

  it('answers outcome_unknown per element when no job matches (the call never arrived), creating nothing', async () => {
    proxy.force({ kind: 503, timing: 'before', match: ({ path }) => path.endsWith('/create_many') });
    const results = await zendeskAdapter.ticketing!.createTickets!(ctx, [1, 2].map((k) => ({ name: `zd never ${k}`, description: [`n${k}`] })));
    expect(results.map(codeOf)).toEqual(['outcome_unknown', 'outcome_unknown']);
    expect(count('zd never 1') + count('zd never 2')).toBe(0);
  });
});

describe('HubSpot: contacts found again by their unique email', () => {
  let sim: HubSpotSimulator;
  let proxy: FaultProxy;
  let ctx: AdapterContext;
  const adapter = createHubSpotAdapter({ searchMinIntervalMs: 0 });
  const count = (first: string) => [...sim.state.objects.contacts.values()].filter((c) => c.properties.firstname === first).length;
  const contact = (first: string, email?: string) => ({ first_name: first, ...(email ? { email_addresses: [{ email_address: email }] } : {}) });

  beforeAll(async () => {
    sim = await startHubSpotSimulator({ accessTokens: ['hs-lost'] });
    proxy = await startFaultProxy({ target: sim.url, rate: 0, seed: 1, holdMs: 1_500 });
    ctx = context(adapter, proxy.url, { access_token: 'hs-lost' });
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it('settles a lost batch: found by email = created, not found = sent once more, no email = unknown', async () => {
    proxy.force({ kind: 502, timing: 'after', match: ({ path }) => path.endsWith('/batch/create') });
    const first = await adapter.crm!.createMany!(ctx, 'crm.contact', [contact('hs-a', 'a@lost.example'), contact('hs-b')]);
    expect(first.map(codeOf)).toEqual(['ok', 'outcome_unknown']);
    expect([count('hs-a'), count('hs-b')]).toEqual([1, 1]);

    proxy.force({ kind: 'reset', timing: 'before', match: ({ path }) => path.endsWith('/batch/create') });
    const second = await adapter.crm!.createMany!(ctx, 'crm.contact', [contact('hs-c', 'c@lost.example'), contact('hs-d', 'd@lost.example')]);
    expect(second.map(codeOf)).toEqual(['ok', 'ok']);
    expect([count('hs-c'), count('hs-d')]).toEqual([1, 1]);
  });

  it('reports the real conflict when the email belonged to an older contact', async () => {
    sim.state.insert('contacts', { firstname: 'hs-old', email: 'old@lost.example' }, { createdAt: Date.now() - 3_600_000 });
    proxy.force({ kind: 500, timing: 'after', match: ({ path }) => path === '/crm/v3/objects/contacts' });
    const err = await adapter.crm!.create(ctx, 'crm.contact', contact('hs-new', 'old@lost.example')).catch((e: AppError) => e);
    expect((err as AppError).code).toBe('provider_error');
    expect((err as AppError).message).toMatch(/already exists/);
    expect(count('hs-new')).toBe(0);
  });
});
