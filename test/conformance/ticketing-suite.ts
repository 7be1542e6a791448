/**
 * The ticketing adapter conformance suite: one scenario every ticketing provider must pass, driven only
 * through Omniport's HTTP API against the provider's simulator. A provider is done when its driver
 * (test/conformance/drivers/<name>.ts) passes it on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';
import { startTestServer, type TestServer } from '../support/harness';
import { expectRecordedRequestsMatch, type RecordedTraffic } from './recorded-requests';
import { syncAndWait, waitForSync } from '../support/sync-wait';
import { expectStoredViewsAsBuilt, TICKETING_READ_PATHS } from '../support/stored-views';

/** What the suite may do to the simulator behind the provider. */
export interface SimulatorControl {
  /** The next `times` provider calls answer 429 (with the provider's Retry-After). */
  rateLimit(times: number): void;
  /** The next `times` provider calls answer this status. */
  fail(status: number, times: number): void;
  /** The next `times` provider calls take this long to answer. */
  delay(ms: number, times: number): void;
  clearFaults(): void;
  /** The provider's current object of a ticket (as its API would answer it). */
  ticket(remoteId: string): Promise<Record<string, unknown> | undefined>;
  /** Renames a ticket in the provider, as a person would in its UI. */
  renameTicket(remoteId: string, name: string): Promise<void>;
  deleteTicket(remoteId: string): Promise<void>;
  /** The raw value of a custom field of a ticket in the provider. */
  ticketCustomField?(remoteId: string, fieldId: string): unknown;
  setTicketCustomField?(remoteId: string, fieldId: string, value: unknown): Promise<void>;
}

export interface TicketingDriverInstance {
  adapter: ProviderAdapter;
  /** Body of POST /connections, without provider and linked_user_origin_id. */
  connection: { credentials: Record<string, string>; base_url?: string };
  control: SimulatorControl;
  /** Remote ids of objects the simulator holds before the first sync. */
  fixtures: {
    userRemoteId: string;
    contactRemoteId?: string;
    accountRemoteId?: string;
    collectionRemoteId?: string;
    /** A ticket type the provider accepts. */
    ticketType?: string;
  };
  /** What the provider supports (unsupported fields must be refused with 422 naming them). */
  supports: {
    priority: boolean;
    tags: boolean;
    assignees: boolean;
    contact: boolean;
    account: boolean;
    collection: boolean;
    /** Creating a ticket requires a collection (project, repository, team). */
    collectionRequired?: boolean;
    attachments: boolean;
    dueDate: boolean;
    /** The ticket's name can be changed after creation (default true; Front cannot). */
    rename?: boolean;
    /** Deletion arrives through incremental sync; otherwise only a full run detects it. */
    deletionsInIncremental: boolean;
    /** A custom ticket field id and a value of its type, for field mapping. */
    customField?: { id: string; dataType: 'string' | 'number' | 'boolean' | 'date'; value: unknown; changedValue: unknown };
  };
  /** The simulator's check of the requests and answers against the provider's description (recorded-requests.ts). */
  traffic?: RecordedTraffic;
  close(): Promise<void>;
}

/** A provider's adapter, simulator and capabilities. Its ticket sync stream must be named `ticketing.ticket`. */
export interface TicketingDriver {
  provider: string;
  start(): Promise<TicketingDriverInstance>;
}

export function runTicketingConformance(driver: TicketingDriver) {
  describe(`ticketing conformance: ${driver.provider}`, () => {
    let sim: TicketingDriverInstance;
    let server: TestServer;
    let token: string;
    const ids: Record<string, string> = {};
    let ticketId: string;
    let ticketRemoteId: string;
    const headers = () => ({ 'x-connection-token': token });

    beforeAll(async () => {
      sim = await driver.start();
      server = await startTestServer({
        providers: new ProviderRegistry([sim.adapter]),
        httpTuning: { retryBaseMs: 10, maxRetries: 3, timeoutMs: 1_500, maxRetryAfterMs: 3_000 },
      });
      const startedAt = Date.now();
      const created = await server.call('POST', '/connections', {
        body: { provider: driver.provider, linked_user_origin_id: 'conformance', ...sim.connection },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      token = created.body.data.connection_token;
      // The first sync is queued by the connection's creation.
      await waitForSync(server, token, startedAt);
      const find = async (path: string, remoteId: string | undefined) => {
        if (!remoteId) return undefined;
        const res = await server.call('GET', `${path}?limit=1000`, { headers: headers() });
        return (res.body.data as { id: string; remote_id: string }[]).find((o) => o.remote_id === remoteId)?.id;
      };
      ids.user = (await find('/ticketing/users', sim.fixtures.userRemoteId))!;
      ids.contact = (await find('/ticketing/contacts', sim.fixtures.contactRemoteId)) ?? '';
      ids.account = (await find('/ticketing/accounts', sim.fixtures.accountRemoteId)) ?? '';
      ids.collection = (await find('/ticketing/collections', sim.fixtures.collectionRemoteId)) ?? '';
    });
    afterAll(async () => {
      await server?.close();
      await sim?.close();
    });

    const baseTicket = () => ({
      name: `Printer on fire ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Created by the conformance suite.',
      ...(sim.supports.collectionRequired ? { project_id: ids.collection } : {}),
    });

    it('synced the directory on connection: users (and contacts, accounts, collections where the provider has them)', () => {
      expect(ids.user, 'the fixture user was synced').toBeTruthy();
      if (sim.fixtures.contactRemoteId) expect(ids.contact).toBeTruthy();
      if (sim.fixtures.accountRemoteId) expect(ids.account).toBeTruthy();
      if (sim.fixtures.collectionRemoteId) expect(ids.collection).toBeTruthy();
    });

    it('creates a ticket with every supported field, answers it with remote_data, and lists it at once', async () => {
      const s = sim.supports;
      const body = {
        ...baseTicket(),
        description: ['It started smoking.', 'Then flames.'],
        ...(s.priority ? { priority: 'HIGH' } : {}),
        ...(s.tags ? { tags: ['hardware', 'urgent'] } : {}),
        ...(s.assignees ? { assigned_to: [ids.user] } : {}),
        ...(s.contact && ids.contact ? { contact_id: ids.contact } : {}),
        ...(s.account && ids.account ? { account_id: ids.account } : {}),
        ...(s.collection && ids.collection ? { project_id: ids.collection } : {}),
        ...(sim.fixtures.ticketType ? { type: sim.fixtures.ticketType } : {}),
        ...(s.dueDate ? { due_date: '2030-01-15T10:00:00.000Z' } : {}),
      };
      const res = await server.call('POST', '/ticketing/tickets?remote_data=true', { headers: headers(), body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const t = res.body.data;
      ticketId = t.id;
      ticketRemoteId = t.remote_id;
      expect(t).toMatchObject({ name: body.name, remote_was_deleted: false });
      expect(t.description.join('\n')).toContain('It started smoking.');
      if (s.priority) expect(t.priority).toBe('HIGH');
      if (s.tags) expect(t.tags).toEqual(expect.arrayContaining(['hardware', 'urgent']));
      if (s.assignees) expect(t.assigned_to).toEqual([ids.user]);
      if (s.contact && ids.contact) expect(t.contact_id).toBe(ids.contact);
      if (s.account && ids.account) expect(t.account_id).toBe(ids.account);
      if (s.collection && ids.collection) expect(t.project_id).toBe(ids.collection);
      if (sim.fixtures.ticketType) expect(t.type).toBe(sim.fixtures.ticketType);
      expect(t.remote_data).toBeTypeOf('object');

      const remote = await sim.control.ticket(ticketRemoteId);
      expect(remote, 'the ticket exists in the provider').toBeDefined();

      const byId = await server.call('GET', `/ticketing/tickets/${ticketId}`); // API key only
      expect(byId.status).toBe(200);
      expect(byId.body.data.name).toBe(body.name);
      expect(byId.body.data.remote_data).toBeUndefined();
      const list = await server.call('GET', '/ticketing/tickets?limit=1000', { headers: headers() });
      expect(list.body.data.map((x: { id: string }) => x.id)).toContain(ticketId);
    });

    it('refuses what the provider cannot do with a 422 naming the field, never a silent drop', async () => {
      const s = sim.supports;
      const unsupported: [string, unknown][] = [];
      if (!s.priority) unsupported.push(['priority', 'HIGH']);
      if (!s.tags) unsupported.push(['tags', ['x']]);
      if (!s.collection && ids.collection === '') unsupported.push(['project_id', ids.user]);
      for (const [field, value] of unsupported) {
        const res = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), [field]: value } });
        expect(res.status, field).toBeGreaterThanOrEqual(400);
        expect(res.status, field).toBeLessThan(500);
        expect(JSON.stringify(res.body.details), field).toContain(field);
      }
      const unknownUser = await server.call('POST', '/ticketing/tickets', {
        headers: headers(),
        body: { ...baseTicket(), assigned_to: ['00000000-0000-4000-8000-000000000000'] },
      });
      expect(unknownUser.status).toBe(422);
      expect(unknownUser.body.details.field).toBe('assigned_to');
    });

    it('patches a ticket by ?id= with the API key alone, in the provider then the store', async () => {
      const canRename = sim.supports.rename !== false;
      if (!canRename) {
        const refused = await server.call('PATCH', `/ticketing/tickets?id=${ticketId}`, { body: { name: 'Printer extinguished' } });
        expect(refused.status).toBe(422);
        expect(refused.body.details.field).toBe('name');
      }
      const body = canRename
        ? { name: 'Printer extinguished', ...(sim.supports.priority ? { priority: 'LOW' } : {}) }
        : { tags: ['patched'] };
      const res = await server.call('PATCH', `/ticketing/tickets?id=${ticketId}`, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.id).toBe(ticketId);
      expect(res.body.statusCode).toBeUndefined(); // endpoint 6 answers the bare ticket
      if (canRename) {
        expect(res.body.name).toBe('Printer extinguished');
        if (sim.supports.priority) expect(res.body.priority).toBe('LOW');
        expect(JSON.stringify(await sim.control.ticket(ticketRemoteId))).toContain('Printer extinguished');
      } else {
        expect(res.body.tags).toEqual(['patched']);
        expect(JSON.stringify(await sim.control.ticket(ticketRemoteId))).toContain('patched');
      }
      const alias = await server.call('PATCH', `/ticketing/tickets/${ticketId}`, { body: canRename ? { name: 'Printer fine' } : { tags: ['patched', 'twice'] } });
      expect(alias.status).toBe(200);
      const mismatch = await server.call('PATCH', `/ticketing/tickets/${ticketId}`, { body: { id: ticketRemoteId, name: 'x' } });
      expect(mismatch.status).toBe(400);
    });

    it('comments on a ticket, with two attachments where the provider has them', async () => {
      const attachments = [
        'data:text/plain;name=notes.txt;base64,' + Buffer.from('hello').toString('base64'),
        'data:application/json;name=log.json;base64,' + Buffer.from('{"a":1}').toString('base64'),
      ];
      const body = { ticket_id: ticketId, body: 'We sent a technician.', is_private: false, user_id: ids.user, attachments };
      const res = await server.call('POST', '/ticketing/comments?remote_data=true', { headers: headers(), body });
      if (!sim.supports.attachments) {
        expect(res.status).toBe(422);
        expect(JSON.stringify(res.body.details)).toContain('attachments');
        const plain = await server.call('POST', '/ticketing/comments', { headers: headers(), body: { ...body, attachments: undefined } });
        expect(plain.status, JSON.stringify(plain.body)).toBe(201);
        return;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const c = res.body.data;
      expect(c).toMatchObject({ body: expect.stringContaining('We sent a technician.'), ticket_id: ticketId });
      expect(c.attachments.map((a: { file_name: string }) => a.file_name).sort()).toEqual(['log.json', 'notes.txt']);
      const listed = await server.call('GET', `/ticketing/comments?ticket_id=${ticketId}`, { headers: headers() });
      expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(c.id);
      expect(listed.body.data.find((x: { id: string }) => x.id === c.id).attachments).toHaveLength(2);
    });

    it('creates a batch with one bad element: 207, the others created in order', async () => {
      const res = await server.call('POST', '/ticketing/tickets/batch', {
        headers: headers(),
        body: [{ ...baseTicket(), name: 'batch one' }, { ...baseTicket(), priority: 'NOPE' }, { ...baseTicket(), name: 'batch three' }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(207);
      expect(res.body.data).toHaveLength(3);
      expect(res.body.data[0].name).toBe('batch one');
      expect(res.body.data[1]).toMatchObject({ statusCode: 400 });
      expect(res.body.data[2].name).toBe('batch three');
    });

    it('picks up a change made in the provider with an incremental sync', async () => {
      await sim.control.renameTicket(ticketRemoteId, 'Renamed in the provider');
      const status = await syncAndWait(server, token);
      // Convention: the stream of tickets is named after its object type.
      expect(status.streams.find((s) => s.stream === 'ticketing.ticket')?.mode).toBe('incremental');
      const res = await server.call('GET', `/ticketing/tickets/${ticketId}`);
      expect(res.body.data.name).toBe('Renamed in the provider');
    });

    it('answers the same views from the stored JSON text as built in JavaScript', async () => {
      await expectStoredViewsAsBuilt(server, headers(), TICKETING_READ_PATHS);
    });

    it('marks a ticket deleted in the provider as remote_was_deleted', async () => {
      const victim = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), name: 'to delete' } });
      await sim.control.deleteTicket(victim.body.data.remote_id);
      await syncAndWait(server, token, { full: !sim.supports.deletionsInIncremental });
      const res = await server.call('GET', `/ticketing/tickets/${victim.body.data.id}`);
      expect(res.body.data.remote_was_deleted).toBe(true);
      const listed = await server.call('GET', '/ticketing/tickets?limit=1000', { headers: headers() });
      expect(listed.body.data.map((x: { id: string }) => x.id)).not.toContain(victim.body.data.id);
      const withDeleted = await server.call('GET', '/ticketing/tickets?limit=1000&include_deleted=true', { headers: headers() });
      expect(withDeleted.body.data.map((x: { id: string }) => x.id)).toContain(victim.body.data.id);
    });

    it('a deletion check marks a ticket deleted in the provider without a full sync, with its event (where runs cannot see deletions)', async () => {
      const checkOf = async () =>
        (await server.call('GET', '/sync/status', { headers: headers() })).body.data.streams.find((x: { stream: string }) => x.stream === 'ticketing.ticket').deletion_check;
      const check = await checkOf();
      // Only a provider whose incremental runs see deletions may do without.
      if (check === null) {
        expect(sim.supports.deletionsInIncremental).toBe(true);
        return;
      }
      expect(check).toMatchObject({ next_at: expect.any(String) });
      const victim = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), name: 'to delete, found by the check' } });
      await sim.control.deleteTicket(victim.body.data.remote_id);
      const started = Date.now();
      expect((await server.call('POST', '/sync', { headers: headers(), body: { check_deletions: true } })).status).toBe(202);
      const deadline = Date.now() + 90_000;
      for (;;) {
        const c = await checkOf();
        if (c.status === 'idle' && c.last_success_at && Date.parse(c.last_success_at) >= started - 5) break;
        if (Date.now() > deadline) throw new Error(`the deletion check did not end: ${JSON.stringify(c)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await server.call("GET", `/ticketing/tickets/${victim.body.data.id}`)).body.data.remote_was_deleted).toBe(true);
      const events = (await server.call('GET', '/events?type=ticketing.ticket.deleted&limit=1000')).body.data as { data: { object: { id: string } } }[];
      expect(events.map((e) => e.data.object.id)).toContain(victim.body.data.id);
    });

    it('retries a rate-limited provider, then answers 503 with Retry-After when it stays limited', async () => {
      sim.control.rateLimit(1);
      const ok = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: baseTicket() });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      sim.control.rateLimit(100);
      const limited = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: baseTicket() });
      sim.control.clearFaults();
      expect(limited.status).toBe(503);
      expect(limited.body.details).toMatchObject({ code: 'provider_rate_limited', provider: driver.provider, provider_status: 429 });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('answers a write that failed or went unanswered at the provider with 502 outcome_unknown, never sending it twice blindly', async () => {
      sim.control.fail(500, 100);
      const failed = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: baseTicket() });
      sim.control.clearFaults();
      expect(failed.status).toBe(502);
      expect(failed.body.details).toMatchObject({ code: 'outcome_unknown', provider_status: 500 });
      for (const secret of Object.values(sim.connection.credentials)) expect(JSON.stringify(failed.body)).not.toContain(secret);

      sim.control.delay(2_500, 100);
      const slow = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: baseTicket() });
      sim.control.clearFaults();
      expect(slow.status).toBe(502);
      expect(slow.body.details.code).toBe('outcome_unknown');
      expect(slow.body.message).toMatch(/no answer within/);
    });

    it('carries mapped custom field values through create, read and sync', async () => {
      const cf = sim.supports.customField;
      if (!cf) {
        // No custom fields: a value for a defined and mapped attribute is refused, never dropped.
        const attr = await server.call('POST', '/field-mapping/define', {
          body: { object_type_owner: 'ticketing.ticket', name: 'unmappable', data_type: 'string' },
        });
        await server.call('POST', '/field-mapping/map', {
          body: { attributeId: attr.body.data.id_attribute, source_custom_field_id: 'x', source_provider: driver.provider, linked_user_id: 'conformance' },
        });
        const refused = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), field_mappings: { unmappable: 'v' } } });
        expect(refused.status).toBe(422);
        expect(refused.body.details.field).toBe('field_mappings.unmappable');
        expect((await server.call('GET', '/field-mapping/remote-fields', { headers: headers() })).status).toBe(422);
        return;
      }
      const name = `cf_${driver.provider.replace(/\W/g, '_')}`;
      const attr = await server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'ticketing.ticket', name, data_type: cf.dataType } });
      expect(attr.status).toBe(201);
      const map = await server.call('POST', '/field-mapping/map', {
        body: { attributeId: attr.body.data.id_attribute, source_custom_field_id: cf.id, source_provider: driver.provider, linked_user_id: 'conformance' },
      });
      expect(map.status).toBe(201);

      const remoteFields = await server.call('GET', '/field-mapping/remote-fields?object_type=ticketing.ticket', { headers: headers() });
      expect(remoteFields.status).toBe(200);
      expect(remoteFields.body.data.map((f: { id: string }) => f.id)).toContain(cf.id);

      const created = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), field_mappings: { [name]: cf.value } } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.field_mappings).toEqual({ [name]: cf.value });
      expect(sim.control.ticketCustomField?.(created.body.data.remote_id, cf.id)).toEqual(cf.value);

      // Mapped values also appear on objects stored before the mapping, without a resync.
      const earlier = await server.call('GET', `/ticketing/tickets/${ticketId}`);
      expect(Object.keys(earlier.body.data.field_mappings)).toEqual([name]);

      await sim.control.setTicketCustomField?.(created.body.data.remote_id, cf.id, cf.changedValue);
      await syncAndWait(server, token);
      const after = await server.call('GET', `/ticketing/tickets/${created.body.data.id}`);
      expect(after.body.data.field_mappings).toEqual({ [name]: cf.changedValue });

      const wrongType = await server.call('POST', '/ticketing/tickets', {
        headers: headers(),
        body: { ...baseTicket(), field_mappings: { [name]: { not: 'a scalar' } } },
      });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.details.field).toBe(`field_mappings.${name}`);
      const unmapped = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { ...baseTicket(), field_mappings: { nope: 1 } } });
      expect(unmapped.status).toBe(422);
      expect(unmapped.body.details.field).toBe('field_mappings.nope');
    });

    it('answers a connection token of another project as unknown (401)', async () => {
      const other = await server.createTenant('intruder');
      const res = await server.call('GET', '/ticketing/tickets', { apiKey: other.apiKey, headers: headers() });
      expect(res.status).toBe(401);
      expect(res.body.details.code).toBe('invalid_connection_token');
      const byId = await server.call('GET', `/ticketing/tickets/${ticketId}`, { apiKey: other.apiKey });
      expect(byId.status).toBe(404);
      const patch = await server.call('PATCH', `/ticketing/tickets?id=${ticketId}`, { apiKey: other.apiKey, body: { name: 'hijacked' } });
      expect(patch.status).toBe(404);
    });

    // Last: the requests of every test above, validated against the provider's description as they were sent.
    it("sent only requests its provider's description has, in the shape it describes (recorded-request check)", (ctx) => {
      expectRecordedRequestsMatch(driver.provider, sim?.traffic, (note) => ctx.skip(note));
    });
  });
}
