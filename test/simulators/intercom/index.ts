/**
 * Intercom REST API simulator (https://api.intercom.io, version 2.14) for integration tests and
 * benchmarks, built on the shared HTTP kit. When ../shared/provider-specs/intercom/api.intercom.io.2.14.yaml
 * (intercom/Intercom-OpenAPI) exists, every request and every answer (injected faults excepted) is checked
 * against it (`specViolations`, `specUndocumented`), with the known deviations below.
 *
 * Auth: `Authorization: Bearer <token>` of a registered token; otherwise 401. Every request must send
 * `Intercom-Version` (the description's enum).
 * Errors: `{"type": "error.list", "request_id", "errors": [{"code", "message", "field"?}]}`.
 * Rate limit: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (UNIX seconds) per 10-second
 * window (default 1,666: 10,000 a minute); with `rateLimit.enforce` a spent window answers 429.
 *
 * Endpoints: GET /me, /admins, /teams, /tags, /contacts (cursor: per_page, starting_after), /ticket_types;
 * POST /companies/list (page, per_page, order; sorted by `last_request_at`, newest first; companies with users
 * only, at most 10,000), GET /companies/scroll (every company, one scroll per app), GET /companies/{id};
 * POST /tickets, GET/PUT/DELETE /tickets/{id},
 * POST /tickets/{id}/reply, POST /tickets/search (updated_at / created_at filters, cursor pages).
 *
 * App webhooks (`appWebhooks`, set as the Developer Hub would): ticket topics (`ticket.created`,
 * `ticket.state.updated`, `ticket.attribute.updated`, `ticket.admin.assigned`, `ticket.admin.replied`,
 * `ticket.contact.replied`, `ticket.note.created`) sent for changes made through the API or `…Remotely`.
 */
import { randomUUID } from 'node:crypto';
import { specPath } from '../../support/provider-specs';
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { loadOpenApiCheck, type KnownDeviation } from '../shared/openapi-check';
import { IntercomAppWebhooks } from './hooks';

export { IntercomAppWebhooks, intercomHookHeaders, type IntercomAppSettings } from './hooks';

type Obj = Record<string, unknown>;

export const INTERCOM_SPEC_FILE = 'api.intercom.io.2.14.yaml';

const unknownQueryParam = (v: { message: string }) => /^unknown query parameter '(.+)'$/.exec(v.message)?.[1];

export const INTERCOM_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason: 'Error answers (error.list: 400 invalid parameters, 401 bad token, 404 unknown object, 429 rate limit, 5xx) can come from every operation; the description documents few of them.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
  {
    reason: 'List all contacts pages with `per_page` and `starting_after` (REST API → Pagination, and the operation\'s own prose); the description declares no query parameters for it.',
    kind: 'request',
    location: 'query',
    when: (v) => /^(per_page|starting_after)$/.test(unknownQueryParam(v) ?? '') && v.path === '/contacts',
  },
  {
    reason:
      'Search tickets: the request schema cannot be compiled (a `nullable` without a `type` in the search filter value), so the search body is checked by the simulator itself (one updated_at or created_at filter, per_page, starting_after).',
    kind: 'request',
    operationId: 'searchTickets',
    keyword: 'compile',
  },
];

export interface SimAdmin { id: string; name: string; email: string; teamIds: number[] }
export interface SimContact { id: string; name: string; email: string; phone: string | null; companyIds: string[]; createdAt: number; updatedAt: number }
export interface SimCompany { id: string; name: string; website: string | null; createdAt: number; updatedAt: number; lastRequestAt: number }
export interface SimState { id: string; category: 'submitted' | 'in_progress' | 'waiting_on_customer' | 'resolved'; label: string }
export interface SimAttr { id: string; name: string; dataType: 'string' | 'decimal' | 'boolean'; default: boolean }
export interface SimType { id: string; name: string; category: 'Customer' | 'Back-office' | 'Tracker'; attrs: SimAttr[]; states: SimState[]; createdAt: number }
export interface SimPart { id: string; type: 'comment' | 'note'; body: string; author: { type: 'admin' | 'user'; id: string }; attachments: Array<{ name: string; url: string; contentType: string; size: number }>; createdAt: number }
export interface SimTicket { id: string; number: string; typeId: string; stateId: string; attrs: Obj; contactIds: string[]; adminAssigneeId: string; parts: SimPart[]; createdAt: number; updatedAt: number }

export interface IntercomSeed { apiAdmin: string; sam: string; robin: string; team: string; casey: string; jordan: string; northwind: string; customerType: string; incidentType: string; ticket: string }

export interface IntercomSimulatorOptions {
  tokens?: string[];
  seedDefaults?: boolean;
  rateLimit?: { per10s?: number; enforce?: boolean; /** Window length (default 10 s; shorter for scaled budget runs). */ windowSeconds?: number };
  /** Check traffic against the OpenAPI description when present (default true). */
  validateSpec?: boolean;
  now?: () => number;
  recordBodies?: boolean;
  /** Companies `POST /companies/list` can return at most (Intercom: 10,000; smaller to test the cap). */
  companyListCap?: number;
  /** Companies per `GET /companies/scroll` page (default 100). */
  companyScrollPage?: number;
}

function err(status: number, code: string, message: string, field?: string): never {
  throw new SimHttpError({ status, body: { type: 'error.list', request_id: randomUUID(), errors: [{ code, message, ...(field ? { field } : {}) }] } });
}

export async function startIntercomSimulator(opts: IntercomSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.tokens?.length ? opts.tokens : ['intercom-test-token']);
  const spec = await loadOpenApiCheck(specPath('intercom', INTERCOM_SPEC_FILE), INTERCOM_KNOWN_DEVIATIONS, opts.validateSpec !== false);
  const unix = (ms = clock.now()) => Math.floor(ms / 1000);
  let origin = '';
  let seq = 100;
  const nextId = () => String(++seq);
  let ticketNumber = 0;

  const admins = new Map<string, SimAdmin>();
  const teams = new Map<string, { id: string; name: string }>();
  const tags = new Map<string, { id: string; name: string }>();
  const contacts = new Map<string, SimContact>();
  const companies = new Map<string, SimCompany>();
  const types = new Map<string, SimType>();
  const tickets = new Map<string, SimTicket>();
  // The workspace's id (`app.id_code` of GET /me, `app_id` of its notifications).
  const appWebhooks = new IntercomAppWebhooks('acme');
  const notify = (topic: string, t: SimTicket) => appWebhooks.notify(topic, ticketJson(t, true));

  const addAdmin = (name: string, email: string, teamIds: number[] = []) => {
    const a = { id: nextId(), name, email, teamIds };
    admins.set(a.id, a);
    return a;
  };
  const addContact = (name: string, email: string, companyIds: string[] = [], phone: string | null = null) => {
    const c = { id: randomUUID().replace(/-/g, '').slice(0, 24), name, email, phone, companyIds, createdAt: unix(), updatedAt: unix() };
    contacts.set(c.id, c);
    return c;
  };
  const addType = (name: string, category: SimType['category'], custom: Array<[string, SimAttr['dataType']]>) => {
    const attrs: SimAttr[] = [
      { id: nextId(), name: '_default_title_', dataType: 'string', default: true },
      { id: nextId(), name: '_default_description_', dataType: 'string', default: true },
      ...custom.map(([n, d]) => ({ id: nextId(), name: n, dataType: d, default: false })),
    ];
    const states: SimState[] = [
      { id: nextId(), category: 'submitted', label: 'Submitted' },
      { id: nextId(), category: 'in_progress', label: 'In progress' },
      { id: nextId(), category: 'waiting_on_customer', label: 'Waiting on customer' },
      { id: nextId(), category: 'resolved', label: 'Resolved' },
    ];
    const t = { id: nextId(), name, category, attrs, states, createdAt: unix() };
    types.set(t.id, t);
    return t;
  };
  const createTicket = (typeId: string, contactIds: string[], attrs: Obj, adminAssigneeId = '0', at = unix()) => {
    const type = types.get(typeId)!;
    const t: SimTicket = { id: nextId(), number: String(++ticketNumber), typeId, stateId: type.states[0]!.id, attrs, contactIds, adminAssigneeId, parts: [], createdAt: at, updatedAt: at };
    tickets.set(t.id, t);
    return t;
  };
  const addPart = (t: SimTicket, p: Omit<SimPart, 'id' | 'createdAt'>) => {
    const part = { ...p, id: nextId(), createdAt: unix() };
    t.parts.push(part);
    t.updatedAt = unix();
    return part;
  };

  const apiAdmin = addAdmin('Alex Admin', 'alex@acme.example');
  let seed: IntercomSeed | undefined;
  if (opts.seedDefaults !== false) {
    const team = { id: nextId(), name: 'Tier 1' };
    teams.set(team.id, team);
    const sam = addAdmin('Sam Agent', 'sam@acme.example', [Number(team.id)]);
    const robin = addAdmin('Robin Lead', 'robin@acme.example', [Number(team.id)]);
    for (const name of ['billing', 'vip']) {
      const tag = { id: nextId(), name };
      tags.set(tag.id, tag);
    }
    const northwind = { id: randomUUID().replace(/-/g, '').slice(0, 24), name: 'Northwind Traders', website: 'https://northwind.example', createdAt: unix(), updatedAt: unix(), lastRequestAt: unix() };
    companies.set(northwind.id, northwind);
    const casey = addContact('Casey Customer', 'casey@northwind.example', [northwind.id], '+15550100');
    const jordan = addContact('Jordan Buyer', 'jordan@buyer.example');
    const customer = addType('Customer request', 'Customer', [['Order number', 'string'], ['Refund amount', 'decimal']]);
    const incident = addType('Incident', 'Back-office', [['Severity note', 'string']]);
    const ticket = createTicket(customer.id, [casey.id], { _default_title_: 'Where is my order?', _default_description_: 'It has been two weeks.', 'Order number': 'ORD-7', 'Refund amount': null }, sam.id);
    addPart(ticket, { type: 'comment', body: '<p>Any news?</p>', author: { type: 'user', id: casey.id }, attachments: [] });
    addPart(ticket, { type: 'comment', body: '<p>Checking with the warehouse.</p>', author: { type: 'admin', id: sam.id }, attachments: [{ name: 'label.txt', url: 'https://downloads.intercomcdn.com/i/o/1/label.txt', contentType: 'text/plain', size: 14 }] });
    addPart(ticket, { type: 'note', body: '<p>Carrier lost it, refund?</p>', author: { type: 'admin', id: sam.id }, attachments: [] });
    seed = { apiAdmin: apiAdmin.id, sam: sam.id, robin: robin.id, team: team.id, casey: casey.id, jordan: jordan.id, northwind: northwind.id, customerType: customer.id, incidentType: incident.id, ticket: ticket.id };
  }

  // ---------------------------------------------------------------- serialisation
  const stateJson = (s: SimState) => ({ type: 'ticket_state', id: s.id, category: s.category, internal_label: s.label, external_label: s.label });
  const typeJson = (t: SimType, full: boolean): Obj => ({
    type: 'ticket_type', id: t.id, category: t.category, name: t.name, icon: '🎟️', workspace_id: 'acme', archived: false, created_at: t.createdAt, updated_at: t.createdAt,
    ...(full
      ? {
          ticket_type_attributes: {
            type: 'list',
            ticket_type_attributes: t.attrs.map((a, i) => ({ type: 'ticket_type_attribute', id: a.id, workspace_id: 'acme', name: a.name, data_type: a.dataType, input_options: {}, order: i, required_to_create: false, required_to_create_for_contacts: false, visible_on_create: true, visible_to_contacts: true, default: a.default, ticket_type_id: Number(t.id), archived: false, created_at: t.createdAt, updated_at: t.createdAt })),
          },
          ticket_states: { type: 'list', data: t.states.map(stateJson) },
        }
      : {}),
  });
  const partJson = (p: SimPart): Obj => {
    const who = p.author.type === 'admin' ? admins.get(p.author.id) : contacts.get(p.author.id);
    return {
      type: 'ticket_part', id: p.id, part_type: p.type, body: p.body, created_at: p.createdAt, updated_at: p.createdAt,
      author: { type: p.author.type, id: p.author.id, name: who?.name ?? null, email: who?.email ?? 'unknown@example.com' },
      attachments: p.attachments.map((a) => ({ type: 'upload', name: a.name, url: a.url, content_type: a.contentType, filesize: a.size })), redacted: false,
    };
  };
  const ticketJson = (t: SimTicket, withParts: boolean): Obj => {
    const type = types.get(t.typeId)!;
    const state = type.states.find((s) => s.id === t.stateId)!;
    return {
      type: 'ticket', id: t.id, ticket_id: t.number, category: type.category, ticket_attributes: { ...t.attrs }, ticket_state: stateJson(state), ticket_type: typeJson(type, false),
      contacts: { type: 'contact.list', contacts: t.contactIds.map((id) => ({ type: 'contact', id, external_id: null })) },
      admin_assignee_id: t.adminAssigneeId, team_assignee_id: '0', created_at: t.createdAt, updated_at: t.updatedAt, open: state.category !== 'resolved',
      linked_objects: { type: 'list', total_count: 0, has_more: false, data: [] },
      ...(withParts ? { ticket_parts: { type: 'ticket_part.list', ticket_parts: t.parts.map(partJson), total_count: t.parts.length } } : {}),
      is_shared: false,
    };
  };
  const adminJson = (a: SimAdmin): Obj => ({ type: 'admin', id: a.id, name: a.name, email: a.email, job_title: 'Support', away_mode_enabled: false, away_mode_reassign: false, away_status_reason_id: null, has_inbox_seat: true, team_ids: [...a.teamIds], avatar: null });
  const contactJson = (c: SimContact): Obj => ({
    type: 'contact', id: c.id, external_id: null, workspace_id: 'acme', role: 'user', email: c.email, phone: c.phone, name: c.name, owner_id: null,
    has_hard_bounced: false, marked_email_as_spam: false, unsubscribed_from_emails: false, created_at: c.createdAt, updated_at: c.updatedAt, custom_attributes: {},
    companies: { type: 'list', data: c.companyIds.map((id) => ({ id, type: 'company', url: `${origin}/companies/${id}` })), url: `${origin}/contacts/${c.id}/companies`, total_count: c.companyIds.length, has_more: false },
  });
  const companyJson = (c: SimCompany): Obj => ({ type: 'company', id: c.id, name: c.name, app_id: 'acme', company_id: c.id, created_at: c.createdAt, updated_at: c.updatedAt, last_request_at: c.lastRequestAt, ...(c.website ? { website: c.website } : {}), custom_attributes: {} });

  // ---------------------------------------------------------------- cursors
  const page = <T>(items: T[], perPage: number, after: string | null) => {
    const start = after ? Number(Buffer.from(after, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0) err(400, 'parameter_invalid', 'starting_after is invalid', 'starting_after');
    const slice = items.slice(start, start + perPage);
    const more = start + perPage < items.length;
    return {
      slice,
      pages: { type: 'pages', page: Math.floor(start / perPage) + 1, per_page: perPage, total_pages: Math.max(1, Math.ceil(items.length / perPage)), ...(more ? { next: { per_page: perPage, starting_after: Buffer.from(String(start + perPage)).toString('base64url') } } : {}) },
    };
  };

  const body = (req: SimRequest): Obj => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Obj) : err(400, 'parameter_invalid', 'a JSON object body is required'));
  const ticketOf = (id: string) => tickets.get(id) ?? err(404, 'not_found', 'Ticket not found');
  const checkAttrs = (type: SimType, attrs: unknown) => {
    if (attrs === undefined) return {};
    if (!attrs || typeof attrs !== 'object') err(400, 'parameter_invalid', 'ticket_attributes must be an object', 'ticket_attributes');
    for (const [k, v] of Object.entries(attrs as Obj)) {
      const a = type.attrs.find((x) => x.name === k);
      if (!a) err(400, 'parameter_invalid', `Invalid ticket attribute: ${k}`, 'ticket_attributes');
      const ok = v === null || (a.dataType === 'boolean' ? typeof v === 'boolean' : a.dataType === 'decimal' ? typeof v === 'number' : typeof v === 'string');
      if (!ok) err(400, 'parameter_invalid', `Invalid value for ticket attribute ${k}`, 'ticket_attributes');
    }
    return attrs as Obj;
  };

  // ---------------------------------------------------------------- company scroll
  // Scroll over all companies (API 2.14 / 2.17 reference, scrollOverAllCompanies): the first page is a GET without
  // scroll_param, the next ones send the answer's scroll_param. "Each app can only have 1 scroll open at a time":
  // starting a second one is a 400 with code scroll_exists; a scroll not used for 1 minute expires, and its
  // scroll_param then gets a 404 with code not_found; at the end `data` is empty and the scroll expires. Answers
  // have `pages` and `total_count` null. (2.17: https://developers.intercom.com/docs/references/2.17/rest-api/api.intercom.io/companies/scrolloverallcompanies)
  const SCROLL_IDLE_MS = 60_000;
  let scroll: { param: string; ids: string[]; at: number; usedAt: number } | null = null;
  const scrollPage = opts.companyScrollPage ?? 100;
  const scrollCompanies = (param: string | null): SimResponse => {
    const now = clock.now();
    if (scroll && now - scroll.usedAt > SCROLL_IDLE_MS) scroll = null;
    if (param === null || param === '') {
      if (scroll) err(400, 'scroll_exists', 'scroll already exists for this workspace');
      scroll = { param: randomUUID(), ids: [...companies.keys()], at: 0, usedAt: now };
    } else if (!scroll || scroll.param !== param) {
      err(404, 'not_found', 'scroll parameter not found');
    }
    const s = scroll!;
    const ids = s.ids.slice(s.at, s.at + scrollPage);
    s.at += ids.length;
    s.usedAt = now;
    const data = ids.map((id) => companies.get(id)).filter((c): c is SimCompany => c !== undefined).map(companyJson);
    if (ids.length === 0) scroll = null;
    return { status: 200, body: { type: 'list', data, pages: null, total_count: null, scroll_param: s.param } };
  };

  // ---------------------------------------------------------------- routes
  const handle = (req: SimRequest): SimResponse => {
    const m = req.method;
    const p = req.path;
    let r: RegExpExecArray | null;
    if (m === 'GET' && p === '/me') return { status: 200, body: { ...adminJson(apiAdmin), avatar: { type: 'avatar', image_url: null }, email_verified: true, app: { type: 'app', id_code: 'acme', name: 'Acme', region: 'US', timezone: 'UTC', created_at: 0, identity_verification: false } } };
    if (m === 'GET' && p === '/admins') return { status: 200, body: { type: 'admin.list', admins: [...admins.values()].map(adminJson) } };
    if (m === 'GET' && p === '/teams') return { status: 200, body: { type: 'team.list', teams: [...teams.values()].map((t) => ({ type: 'team', id: t.id, name: t.name, admin_ids: [...admins.values()].filter((a) => a.teamIds.includes(Number(t.id))).map((a) => Number(a.id)) })) } };
    if (m === 'GET' && p === '/tags') return { status: 200, body: { type: 'list', data: [...tags.values()].map((t) => ({ type: 'tag', id: t.id, name: t.name })) } };
    if (m === 'GET' && p === '/ticket_types') return { status: 200, body: { type: 'list', data: [...types.values()].map((t) => typeJson(t, true)) } };
    if (m === 'GET' && p === '/contacts') {
      const per = Math.min(150, Number(req.query.get('per_page') ?? 50));
      const { slice, pages } = page([...contacts.values()], per, req.query.get('starting_after'));
      return { status: 200, body: { type: 'list', data: slice.map(contactJson), total_count: contacts.size, pages } };
    }
    if (m === 'GET' && p === '/companies/scroll') return scrollCompanies(req.query.get('scroll_param'));
    if (m === 'GET' && (r = /^\/companies\/([^/]+)$/.exec(p))) {
      const c = companies.get(decodeURIComponent(r[1]!));
      if (!c) err(404, 'company_not_found', 'Company Not Found');
      return { status: 200, body: companyJson(c) };
    }
    if (m === 'POST' && p === '/companies/list') {
      const per = Math.min(60, Number(req.query.get('per_page') ?? 15));
      const n = Number(req.query.get('page') ?? 1);
      // List all companies (API 2.14 reference, listAllCompanies): "sorted by the `last_request_at` field and by
      // default is ordered descending"; "the API does not include companies who have no associated users in list
      // responses"; "there is a limit of 10,000 Companies that can be returned" (beyond: the Scroll API).
      const dir = req.query.get('order') === 'asc' ? 1 : -1;
      const withUsers = new Set([...contacts.values()].flatMap((c) => c.companyIds));
      const listed = [...companies.values()].filter((c) => withUsers.has(c.id)).sort((a, b) => dir * (a.lastRequestAt - b.lastRequestAt) || dir * a.id.localeCompare(b.id));
      const all = listed.slice(0, opts.companyListCap ?? 10_000);
      return { status: 200, body: { type: 'list', data: all.slice((n - 1) * per, n * per).map(companyJson), total_count: all.length, pages: { type: 'pages', page: n, per_page: per, total_pages: Math.max(1, Math.ceil(all.length / per)) } } };
    }
    if (m === 'POST' && p === '/tickets/search') {
      const b = body(req);
      const q = b.query as { field?: string; operator?: string; value?: unknown } | undefined;
      if (!q || (q.field !== 'updated_at' && q.field !== 'created_at') || !['>', '<', '=', '>=', '<='].includes(q.operator ?? '') || typeof q.value !== 'number') {
        err(400, 'parameter_invalid', 'the simulator searches one updated_at or created_at filter', 'query');
      }
      const pg = (b.pagination ?? {}) as { per_page?: number; starting_after?: string | null };
      const key = (t: SimTicket) => (q.field === 'updated_at' ? t.updatedAt : t.createdAt);
      // Intercom matches timestamps in a search by calendar day of the workspace's zone (UTC here): `>` from
      // the start of the next day, `<` before the start of that day, `=` the whole day (Search contacts →
      // "Searching for Timestamp Fields", OpenAPI 2.14 and 2.16; the ticket search is taken to share it).
      const day = Math.floor((q.value as number) / 86_400) * 86_400;
      const test = {
        '>': (x: number) => x >= day + 86_400,
        '<': (x: number) => x < day,
        '=': (x: number) => x >= day && x < day + 86_400,
        '>=': (x: number) => x >= day,
        '<=': (x: number) => x < day + 86_400,
      }[q.operator as '>'];
      const hits = [...tickets.values()].filter((t) => test(key(t))).sort((a, b2) => a.updatedAt - b2.updatedAt || Number(a.id) - Number(b2.id));
      const { slice, pages } = page(hits, Math.min(150, pg.per_page ?? 20), pg.starting_after ?? null);
      return { status: 200, body: { type: 'ticket.list', tickets: slice.map((t) => ticketJson(t, false)), total_count: hits.length, pages } };
    }
    if (m === 'POST' && p === '/tickets') {
      const b = body(req);
      const type = types.get(String(b.ticket_type_id)) ?? err(400, 'parameter_invalid', 'Ticket type not found', 'ticket_type_id');
      const refs = Array.isArray(b.contacts) ? (b.contacts as Array<{ id?: string; email?: string }>) : [];
      if (refs.length === 0) err(400, 'parameter_not_found', 'contacts must be provided', 'contacts');
      const contactIds = refs.map((ref) => {
        if (ref.id !== undefined) return (contacts.get(ref.id) ?? err(404, 'not_found', 'User Not Found', 'contacts')).id;
        const found = [...contacts.values()].find((c) => c.email === ref.email);
        return (found ?? addContact(ref.email ?? 'unknown', ref.email ?? 'unknown@example.com')).id;
      });
      const assignment = b.assignment as { admin_assignee_id?: string } | undefined;
      if (assignment?.admin_assignee_id !== undefined && !admins.has(assignment.admin_assignee_id)) err(400, 'parameter_invalid', 'Admin not found', 'assignment.admin_assignee_id');
      const attrs = checkAttrs(type, b.ticket_attributes);
      const t = createTicket(type.id, contactIds, { ...Object.fromEntries(type.attrs.map((a) => [a.name, null])), ...attrs }, assignment?.admin_assignee_id ?? '0');
      notify('ticket.created', t);
      return { status: 200, body: ticketJson(t, true) };
    }
    if ((r = /^\/tickets\/([^/]+)$/.exec(p))) {
      const t = ticketOf(r[1]!);
      if (m === 'GET') return { status: 200, body: ticketJson(t, true) };
      if (m === 'DELETE') {
        tickets.delete(t.id);
        return { status: 200, body: { id: t.id, object: 'ticket', deleted: true } };
      }
      if (m === 'PUT') {
        const b = body(req);
        const type = types.get(t.typeId)!;
        const attrs = checkAttrs(type, b.ticket_attributes);
        if (b.ticket_state_id !== undefined && !type.states.some((s) => s.id === b.ticket_state_id)) err(400, 'parameter_invalid', 'Ticket state not found for this ticket type', 'ticket_state_id');
        if (b.assignee_id !== undefined) {
          if (b.admin_id === undefined) err(400, 'parameter_not_found', 'admin_id is required to assign', 'admin_id');
          if (b.assignee_id !== '0' && !admins.has(String(b.assignee_id))) err(400, 'parameter_invalid', 'Admin not found', 'assignee_id');
        }
        Object.assign(t.attrs, attrs);
        const before = { stateId: t.stateId, assignee: t.adminAssigneeId };
        if (typeof b.ticket_state_id === 'string') t.stateId = b.ticket_state_id;
        if (typeof b.assignee_id === 'string') t.adminAssigneeId = b.assignee_id;
        t.updatedAt = unix();
        if (Object.keys(attrs).length) notify('ticket.attribute.updated', t);
        if (t.stateId !== before.stateId) notify('ticket.state.updated', t);
        if (t.adminAssigneeId !== before.assignee) notify('ticket.admin.assigned', t);
        return { status: 200, body: ticketJson(t, true) };
      }
    }
    if (m === 'POST' && (r = /^\/tickets\/([^/]+)\/reply$/.exec(p))) {
      const t = ticketOf(r[1]!);
      const b = body(req);
      if (typeof b.body !== 'string' || b.body === '') err(400, 'parameter_not_found', 'body is required', 'body');
      let author: SimPart['author'];
      if (b.type === 'admin') {
        if (!admins.has(String(b.admin_id))) err(400, 'parameter_invalid', 'Admin not found', 'admin_id');
        author = { type: 'admin', id: String(b.admin_id) };
      } else {
        const c = contacts.get(String(b.intercom_user_id)) ?? err(404, 'not_found', 'User Not Found', 'intercom_user_id');
        author = { type: 'user', id: c.id };
      }
      const part = addPart(t, { type: b.message_type === 'note' ? 'note' : 'comment', body: b.body as string, author, attachments: [] });
      notify(part.type === 'note' ? 'ticket.note.created' : author.type === 'admin' ? 'ticket.admin.replied' : 'ticket.contact.replied', t);
      return { status: 200, body: partJson(part) };
    }
    return err(404, 'not_found', 'Resource Not Found');
  };

  // ---------------------------------------------------------------- server
  const per10s = opts.rateLimit?.per10s ?? 1666;
  const windowMs = (opts.rateLimit?.windowSeconds ?? 10) * 1000;
  let windowStart = clock.now();
  let used = 0;
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest: (req) => spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: req.body }),
    describeAuth: (req) => {
      const m = /^bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      return m ? { scheme: 'bearer', label: tokens.has(m[1]!) ? 'token' : null, valid: tokens.has(m[1]!) } : null;
    },
    faultResponse: (fault) => ({
      status: fault.status!,
      body: { type: 'error.list', request_id: randomUUID(), errors: [{ code: fault.status === 429 ? 'rate_limit_exceeded' : 'server_error', message: fault.status === 429 ? 'Rate limit exceeded' : 'Server error' }] },
    }),
    handle(req) {
      const m = /^bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      if (!m || !tokens.has(m[1]!)) err(401, 'unauthorized', 'Access Token Invalid');
      const now = clock.now();
      if (now - windowStart >= windowMs) {
        windowStart = now;
        used = 0;
      }
      used += 1;
      const headers = { 'x-ratelimit-limit': String(per10s), 'x-ratelimit-remaining': String(Math.max(0, per10s - used)), 'x-ratelimit-reset': String(Math.ceil((windowStart + windowMs) / 1000)) };
      if (opts.rateLimit?.enforce && used > per10s) return { status: 429, headers, body: { type: 'error.list', request_id: randomUUID(), errors: [{ code: 'rate_limit_exceeded', message: 'Rate limit exceeded' }] } };
      const res = handle(req);
      res.headers = { ...headers, ...(res.headers ?? {}) };
      spec.checkResponse({ method: req.method, path: req.path }, res.status, res.body);
      return res;
    },
    internalError: (e) => ({ status: 500, body: { type: 'error.list', request_id: randomUUID(), errors: [{ code: 'server_error', message: String(e) }] } }),
  });

  origin = server.url;
  return {
    url: server.url,
    seed,
    tokens: [...tokens],
    requests,
    faults,
    clock,
    tickets,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specUndocumented: spec.undocumented,
    appWebhooks,
    ticketJson: (id: string) => {
      const t = tickets.get(id);
      return t ? ticketJson(t, true) : undefined;
    },
    companies,
    /** Companies with no activity yet (`last_request_at` their creation), a second apart; `withUsers`: each with a user. */
    seedCompanies(n: number, o: { withUsers?: boolean } = {}): string[] {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const at = unix() - n + i;
        const c = { id: randomUUID().replace(/-/g, '').slice(0, 24), name: `Company ${i + 1}`, website: null, createdAt: at, updatedAt: at, lastRequestAt: at };
        companies.set(c.id, c);
        if (o.withUsers) addContact(`User of ${c.name}`, `user-${c.id}@example.com`, [c.id]);
        out.push(c.id);
      }
      return out;
    },
    /** The open scroll breaks (Intercom's "internal network error"): its scroll_param is not found any more. */
    dropScroll() {
      scroll = null;
    },
    /** The open company scroll (at most one per app), or null. */
    openScroll: () => (scroll && clock.now() - scroll.usedAt <= SCROLL_IDLE_MS ? scroll.param : null),
    /** A user of the company uses the product: its `last_request_at` moves to now, the top of the list. */
    touchCompanyRemotely(id: string) {
      const c = companies.get(id);
      if (!c) throw new Error(`no company ${id}`);
      c.lastRequestAt = unix() + 1;
    },
    /** A change made in the Intercom inbox (bumps `updated_at`). */
    updateTicketRemotely(id: string, attrs: Obj) {
      const t = ticketOf(id);
      Object.assign(t.attrs, attrs);
      t.updatedAt = unix() + 1;
      notify('ticket.attribute.updated', t);
    },
    /** Accepts an access token issued elsewhere (the OAuth simulator standing in for app.intercom.com). */
    acceptToken(token: string) {
      tokens.add(token);
    },
    deleteTicketRemotely(id: string) {
      tickets.delete(id);
    },
    /** `n` tickets of one contact, each with `partsPerTicket` admin comments, a second apart and a day old. */
    seedTickets(n: number, o: { partsPerTicket?: number } = {}) {
      const c = addContact('Bulk Contact', `bulk${nextId()}@example.com`);
      const type = [...types.values()][0]!;
      const start = unix() - 86_400 - n;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const t = createTicket(type.id, [c.id], { _default_title_: `Ticket ${i + 1}`, _default_description_: `Body ${i + 1}` }, '0', start + i);
        for (let j = 0; j < (o.partsPerTicket ?? 0); j++) t.parts.push({ id: nextId(), type: 'comment', body: `<p>Reply ${j + 1}</p>`, author: { type: 'admin', id: apiAdmin.id }, attachments: [], createdAt: t.createdAt });
        ids.push(t.id);
      }
      return ids;
    },
    async close() {
      appWebhooks.sender.enabled = false;
      await appWebhooks.sender.settle();
      await server.close();
    },
  };
}

export type IntercomSimulator = Awaited<ReturnType<typeof startIntercomSimulator>>;
