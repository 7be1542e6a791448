/**
 * The CRM adapter conformance suite: one scenario every CRM provider must pass, driven only through
 * Omniport's HTTP API against the provider's simulator. Streams must be named after their object type
 * (`crm.contact`, `crm.deal`, …).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';
import { startTestServer, type TestServer } from '../support/harness';
import { expectRecordedRequestsMatch, type RecordedTraffic } from './recorded-requests';
import { syncAndWait, waitForSync } from '../support/sync-wait';
import { CRM_READ_PATHS, expectStoredViewsAsBuilt } from '../support/stored-views';

export interface CrmSimulatorControl {
  rateLimit(times: number): void;
  fail(status: number, times: number): void;
  clearFaults(): void;
  /** The provider's current object (as its API would answer it). */
  contact(remoteId: string): Promise<Record<string, unknown> | undefined>;
  deal(remoteId: string): Promise<Record<string, unknown> | undefined>;
  /** The deal's amount as the provider holds it, as decimal text, where its object does not show it so (Close: cents). */
  dealAmount?(remoteId: string): Promise<string | undefined>;
  /** Changes a contact's first name in the provider, as a person would in its UI. */
  renameContact(remoteId: string, firstName: string): Promise<void>;
  deleteContact(remoteId: string): Promise<void>;
  contactCustomField?(remoteId: string, fieldId: string): unknown;
  setContactCustomField?(remoteId: string, fieldId: string, value: unknown): Promise<void>;
}

export interface CrmDriverInstance {
  adapter: ProviderAdapter;
  connection: { credentials: Record<string, string>; base_url?: string };
  control: CrmSimulatorControl;
  fixtures: { userRemoteId: string; stageRemoteId: string };
  supports: {
    deletionsInIncremental: boolean;
    /** A contact can have several email addresses (HubSpot: one writable email). */
    multipleEmails: boolean;
    customField?: { id: string; dataType: 'string' | 'number' | 'boolean' | 'date'; value: unknown; changedValue: unknown };
    /** Contacts have postal addresses (Close: only leads have them); default true. When false they are refused with 422. */
    contactAddresses?: boolean;
    /** Contacts and companies have an owner (Close: neither has); default true. When false an owner is refused with 422. */
    owners?: boolean;
    /**
     * Fields the provider requires on create beyond the suite's bodies (Salesforce: a contact's last name, a
     * deal's close date), added to every contact or deal the suite creates; without them the create is
     * refused with 400 naming the first one.
     */
    requiredOnCreate?: { contact?: Record<string, unknown>; deal?: Record<string, unknown> };
    /** The provider lets changes be read incrementally (default true); Attio has no change filter: every run is full. */
    incremental?: boolean;
  };
  /** The simulator's check of the requests and answers against the provider's description (recorded-requests.ts). */
  traffic?: RecordedTraffic;
  close(): Promise<void>;
}

export interface CrmDriver {
  provider: string;
  start(): Promise<CrmDriverInstance>;
}

export function runCrmConformance(driver: CrmDriver) {
  describe(`CRM conformance: ${driver.provider}`, () => {
    let sim: CrmDriverInstance;
    let server: TestServer;
    let token: string;
    let userId: string;
    let stageId: string;
    let companyId: string;
    let contactId: string;
    let contactRemoteId: string;
    const headers = () => ({ 'x-connection-token': token });
    /** A contact or deal body with the fields the provider requires on create. */
    const withRequired = (kind: 'contact' | 'deal', body: Record<string, unknown>) => ({ ...sim.supports.requiredOnCreate?.[kind], ...body });
    const contact = (body: Record<string, unknown>) => withRequired('contact', body);

    beforeAll(async () => {
      sim = await driver.start();
      server = await startTestServer({
        providers: new ProviderRegistry([sim.adapter]),
        httpTuning: { retryBaseMs: 10, maxRetries: 3, timeoutMs: 3_000, maxRetryAfterMs: 3_000 },
      });
      const startedAt = Date.now();
      const created = await server.call('POST', '/connections', {
        body: { provider: driver.provider, linked_user_origin_id: 'crm-conformance', ...sim.connection },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      token = created.body.data.connection_token;
      await waitForSync(server, token, startedAt);
      const find = async (path: string, remoteId: string) =>
        ((await server.call('GET', `${path}?limit=1000`, { headers: headers() })).body.data as { id: string; remote_id: string }[]).find(
          (o) => o.remote_id === remoteId,
        )?.id;
      userId = (await find('/crm/users', sim.fixtures.userRemoteId))!;
      stageId = (await find('/crm/stages', sim.fixtures.stageRemoteId))!;
    });
    afterAll(async () => {
      await server?.close();
      await sim?.close();
    });

    it('synced users and pipeline stages on connection', () => {
      expect(userId).toBeTruthy();
      expect(stageId).toBeTruthy();
    });

    it('creates a company, then a contact with nested emails, phones and addresses associated with it', async () => {
      const owners = sim.supports.owners !== false;
      const addresses = sim.supports.contactAddresses !== false;
      const company = await server.call('POST', '/crm/companies', { headers: headers(), body: { name: 'Initech', ...(owners ? { user_id: userId } : {}) } });
      expect(company.status, JSON.stringify(company.body)).toBe(201);
      companyId = company.body.data.id;
      if (!owners) {
        const owned = await server.call('POST', '/crm/companies', { headers: headers(), body: { name: 'Owned', user_id: userId } });
        expect(owned.status).toBe(422);
        expect(owned.body.details.field).toBe('user_id');
      }
      if (!addresses) {
        const placed = await server.call('POST', '/crm/contacts', {
          headers: headers(),
          body: contact({ first_name: 'Placed', company_id: companyId, addresses: [{ street_1: '1 Main St', city: 'Springfield' }] }),
        });
        expect(placed.status).toBe(422);
        expect(placed.body.details.field).toBe('addresses');
      }
      const body = {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email_addresses: [
          { email_address: 'ada@initech.example', email_address_type: 'WORK' },
          ...(sim.supports.multipleEmails ? [{ email_address: 'ada@home.example', email_address_type: 'PERSONAL' }] : []),
        ],
        phone_numbers: [{ phone_number: '+15555550101', phone_type: 'MOBILE' }],
        ...(addresses ? { addresses: [{ street_1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' }] } : {}),
        ...(owners ? { user_id: userId } : {}),
        company_id: companyId,
      };
      const res = await server.call('POST', '/crm/contacts?remote_data=true', { headers: headers(), body: contact(body) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const c = res.body.data;
      contactId = c.id;
      contactRemoteId = c.remote_id;
      expect(c).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', company_id: companyId, user_id: owners ? userId : null });
      expect(c.email_addresses.map((e: { email_address: string }) => e.email_address)).toEqual(
        body.email_addresses.map((e) => e.email_address),
      );
      if (addresses) expect(c.addresses[0]).toMatchObject({ street_1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' });
      else expect(c.addresses).toEqual([]);
      expect(c.phone_numbers[0].phone_number).toBe('+15555550101');
      expect(c.remote_data).toBeTypeOf('object');
      expect(await sim.control.contact(contactRemoteId)).toBeDefined();
      const byId = await server.call('GET', `/crm/contacts/${contactId}`);
      expect(byId.status).toBe(200);
      expect(byId.body.data.company_id).toBe(companyId);
    });

    it('refuses a contact or deal without the fields the provider requires, naming the field', async () => {
      const required = sim.supports.requiredOnCreate;
      if (!required) return;
      for (const [kind, path, body] of [
        ['contact', '/crm/contacts', { first_name: 'Nameless' }],
        ['deal', '/crm/deals', { name: 'Dateless', stage_id: stageId }],
      ] as const) {
        const missing = Object.keys(required[kind] ?? {}).filter((k) => !(k in body));
        if (missing.length === 0) continue;
        const res = await server.call('POST', path, { headers: headers(), body });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(missing).toContain(res.body.details.field);
      }
    });

    it('creates contacts in a batch with one invalid element: 207, the others created in order', async () => {
      const res = await server.call('POST', '/crm/contacts/batch', {
        headers: headers(),
        body: [
          contact({ first_name: 'One', email_addresses: [{ email_address: 'one@batch.example', email_address_type: 'WORK' }] }),
          contact({ first_name: 'Bad', email_addresses: [{ email_address: 'not-an-email' }] }),
          contact({ first_name: 'Three', company_id: companyId }),
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(207);
      expect(res.body.data[0].first_name).toBe('One');
      expect(res.body.data[1]).toMatchObject({ statusCode: 400 });
      expect(res.body.data[2]).toMatchObject({ first_name: 'Three', company_id: companyId });
    });

    it('creates a deal with an exact amount, associations to its company and contacts, and patches it by id', async () => {
      const res = await server.call('POST', '/crm/deals', {
        headers: headers(),
        body: withRequired('deal', { name: 'Big deal', amount: '1234.56', currency: 'EUR', stage_id: stageId, user_id: userId, company_id: companyId, contact_ids: [contactId] }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const deal = res.body.data;
      expect(deal).toMatchObject({ amount: '1234.56', currency: 'EUR', stage_id: stageId, company_id: companyId, contact_ids: [contactId] });

      const patched = await server.call('PATCH', `/crm/deals/${deal.id}?remote_data=true`, { body: { amount: '98765.43', name: 'Bigger deal' } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body).toMatchObject({ statusCode: 200, data: { id: deal.id, remote_id: deal.remote_id, amount: '98765.43', name: 'Bigger deal' } });
      expect(patched.body.data.remote_data).toBeTypeOf('object');
      expect(patched.body.data.field_mappings).toEqual({});
      if (sim.control.dealAmount) expect(await sim.control.dealAmount(deal.remote_id)).toBe('98765.43');
      else expect(JSON.stringify(await sim.control.deal(deal.remote_id))).toContain('98765.43');
      const again = await server.call('GET', `/crm/deals/${deal.id}`);
      expect(again.body.data.amount).toBe('98765.43');
    });

    it('picks up a change made in the provider with the next sync (incremental where the provider allows)', async () => {
      await sim.control.renameContact(contactRemoteId, 'Augusta');
      const status = await syncAndWait(server, token);
      expect(status.streams.find((s) => s.stream === 'crm.contact')?.mode).toBe(sim.supports.incremental === false ? 'full' : 'incremental');
      expect((await server.call('GET', `/crm/contacts/${contactId}`)).body.data.first_name).toBe('Augusta');
    });

    it('answers the same views from the stored JSON text as built in JavaScript', async () => {
      await expectStoredViewsAsBuilt(server, headers(), CRM_READ_PATHS);
    });

    it('marks a contact deleted in the provider as remote_was_deleted', async () => {
      const victim = await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'Temporary' }) });
      await sim.control.deleteContact(victim.body.data.remote_id);
      await syncAndWait(server, token, { full: !sim.supports.deletionsInIncremental });
      expect((await server.call('GET', `/crm/contacts/${victim.body.data.id}`)).body.data.remote_was_deleted).toBe(true);
    });

    it('retries a rate-limited provider and answers 503 with Retry-After when it stays limited; 502 when it fails', async () => {
      sim.control.rateLimit(1);
      expect((await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'Patient' }) })).status).toBe(201);
      sim.control.rateLimit(100);
      const limited = await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'Impatient' }) });
      sim.control.clearFaults();
      expect(limited.status).toBe(503);
      expect(limited.body.details.code).toBe('provider_rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      sim.control.fail(500, 100);
      const failed = await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'Unlucky' }) });
      sim.control.clearFaults();
      expect(failed.status).toBe(502);
      for (const secret of Object.values(sim.connection.credentials)) expect(JSON.stringify(failed.body)).not.toContain(secret);
    });

    it('carries mapped custom field values through create, read and sync', async () => {
      const cf = sim.supports.customField;
      if (!cf) return;
      const name = `cf_${driver.provider.replace(/\W/g, '_')}`;
      const attr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'crm.contact', name, data_type: cf.dataType } });
      const map = await server.call('POST', '/field-mapping/map', {
        body: { attributeId: attr.body.data.id_attribute, source_custom_field_id: cf.id, source_provider: driver.provider, linked_user_id: 'crm-conformance' },
      });
      expect(map.status).toBe(201);
      const fields = await server.call('GET', '/field-mapping/remote-fields?object_type=crm.contact', { headers: headers() });
      expect(fields.body.data.map((f: { id: string }) => f.id)).toContain(cf.id);
      const created = await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'Mapped', field_mappings: { [name]: cf.value } }) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.field_mappings).toEqual({ [name]: cf.value });
      expect(sim.control.contactCustomField?.(created.body.data.remote_id, cf.id)).toBeDefined();
      await sim.control.setContactCustomField?.(created.body.data.remote_id, cf.id, cf.changedValue);
      await syncAndWait(server, token);
      expect((await server.call('GET', `/crm/contacts/${created.body.data.id}`)).body.data.field_mappings).toEqual({ [name]: cf.changedValue });
      const wrong = await server.call('POST', '/crm/contacts', { headers: headers(), body: contact({ first_name: 'x', field_mappings: { [name]: [1, 2] } }) });
      expect(wrong.status).toBe(400);
      expect(wrong.body.details.field).toBe(`field_mappings.${name}`);
    });

    it('answers a connection token of another project as unknown (401), and its ids as unknown (404)', async () => {
      const other = await server.createTenant('intruder');
      expect((await server.call('GET', '/crm/contacts', { apiKey: other.apiKey, headers: headers() })).status).toBe(401);
      expect((await server.call('GET', `/crm/contacts/${contactId}`, { apiKey: other.apiKey })).status).toBe(404);
      const [deal] = (await server.call('GET', '/crm/deals?limit=1', { headers: headers() })).body.data;
      expect((await server.call('PATCH', `/crm/deals/${deal.id}`, { apiKey: other.apiKey, body: { name: 'hijack' } })).status).toBe(404);
    });

    // Last: the requests of every test above, validated against the provider's description as they were sent.
    it("sent only requests its provider's description has, in the shape it describes (recorded-request check)", (ctx) => {
      expectRecordedRequestsMatch(driver.provider, sim?.traffic, (note) => ctx.skip(note));
    });
  });
}
