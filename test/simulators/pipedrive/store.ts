/**
 * In-memory Pipedrive company: entities, users, pipelines/stages and field definitions,
 * with input validation and the v1 / v2 renderings of each entity.
 */
import type { SimClock } from '../shared/http-kit';
import {
  ACTIVITY_TYPES,
  ENTITY_FIELD_SETS,
  type FieldEntity,
  type PdActivity,
  type PdAddress,
  type PdContact,
  type PdDeal,
  type PdField,
  type PdFieldType,
  type PdNote,
  type PdOrganization,
  type PdPerson,
  type PdPipeline,
  type PdStage,
  type PdUser,
} from './model';

export type EntityKind = 'persons' | 'organizations' | 'deals' | 'activities' | 'notes';
export type EntityOf<K extends EntityKind> = K extends 'persons'
  ? PdPerson
  : K extends 'organizations'
    ? PdOrganization
    : K extends 'deals'
      ? PdDeal
      : K extends 'activities'
        ? PdActivity
        : PdNote;

export const FIELD_ENTITY: Partial<Record<EntityKind, FieldEntity>> = { persons: 'person', organizations: 'organization', deals: 'deal', activities: 'activity' };

/** A 400/404 the API answers with `{success:false, error, ...}`. */
export class PdInputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** Further fields of the error answer (e.g. v2's `code`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** RFC 3339 without milliseconds, as API v2 renders times. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** `YYYY-MM-DD HH:MM:SS` (UTC), as API v1 renders times. */
export const v1Time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

type Obj = Record<string, unknown>;

export class PipedriveStore {
  readonly persons = new Map<number, PdPerson>();
  readonly organizations = new Map<number, PdOrganization>();
  readonly deals = new Map<number, PdDeal>();
  readonly activities = new Map<number, PdActivity>();
  readonly notes = new Map<number, PdNote>();
  readonly users: PdUser[] = [];
  readonly pipelines: PdPipeline[] = [];
  readonly stages: PdStage[] = [];
  readonly fields: Record<FieldEntity, PdField[]> = { person: [], organization: [], deal: [], activity: [] };
  private readonly nextId: Record<EntityKind | 'user' | 'pipeline' | 'stage' | 'field' | 'option', number> = {
    persons: 1,
    organizations: 1,
    deals: 1,
    activities: 1,
    notes: 1,
    user: 1,
    pipeline: 1,
    stage: 1,
    field: 1,
    option: 1,
  };

  constructor(
    readonly clock: SimClock,
    private readonly rand: () => number,
  ) {
    const t = this.now();
    for (const entity of Object.keys(ENTITY_FIELD_SETS) as FieldEntity[]) {
      ENTITY_FIELD_SETS[entity].forEach(([key, name, type, options], i) => {
        this.fields[entity].push({
          id: this.nextId.field++,
          key,
          name,
          field_type: type,
          options: options ? options.map((label) => ({ id: this.nextId.option++, label })) : null,
          order_nr: i,
          add_time: t,
          update_time: t,
          custom: false,
          mandatory: key === 'name' || key === 'title',
          active: true,
        });
      });
    }
  }

  /** Current time, rounded down to whole seconds (Pipedrive stores second precision). */
  now(): number {
    return Math.floor(this.clock.now() / 1000) * 1000;
  }

  map<K extends EntityKind>(kind: K): Map<number, EntityOf<K>> {
    return this[kind] as unknown as Map<number, EntityOf<K>>;
  }

  allocateId(kind: EntityKind): number {
    return this.nextId[kind]++;
  }

  // ------------------------------------------------------------- users etc.

  addUser(u: Partial<PdUser> = {}): PdUser {
    const id = u.id ?? this.nextId.user++;
    const t = this.now();
    const user: PdUser = {
      id,
      name: u.name ?? `User ${id}`,
      email: u.email ?? `user${id}@example.com`,
      default_currency: u.default_currency ?? 'USD',
      locale: u.locale ?? 'en_US',
      lang: u.lang ?? 1,
      phone: u.phone ?? null,
      activated: u.activated ?? true,
      last_login: u.last_login ?? t,
      created: u.created ?? t - 86_400_000 * 30,
      modified: u.modified ?? null,
      has_created_company: u.has_created_company ?? id === 1,
      is_admin: u.is_admin ?? id === 1,
      role_id: u.role_id ?? 1,
      timezone_name: u.timezone_name ?? 'Europe/Tallinn',
      timezone_offset: u.timezone_offset ?? '+02:00',
      icon_url: u.icon_url ?? null,
      active_flag: u.active_flag ?? true,
      is_deleted: u.is_deleted ?? false,
    };
    this.users.push(user);
    return user;
  }

  addPipeline(name: string, stageNames: string[], probability = 100): { pipeline: PdPipeline; stages: PdStage[] } {
    const t = this.now();
    const pipeline: PdPipeline = { id: this.nextId.pipeline++, name, order_nr: this.pipelines.length, is_deleted: false, is_deal_probability_enabled: false, add_time: t, update_time: t };
    this.pipelines.push(pipeline);
    const stages = stageNames.map((n, i) => {
      const s: PdStage = {
        id: this.nextId.stage++,
        order_nr: i + 1,
        name: n,
        is_deleted: false,
        deal_probability: probability,
        pipeline_id: pipeline.id,
        is_deal_rot_enabled: false,
        days_to_rotten: null,
        add_time: t,
        update_time: t,
      };
      this.stages.push(s);
      return s;
    });
    return { pipeline, stages };
  }

  addField(entity: FieldEntity, f: { name: string; field_type: PdFieldType; options?: (string | { label: string })[]; key?: string }): PdField {
    const t = this.now();
    const field: PdField = {
      id: this.nextId.field++,
      key: f.key ?? this.hashKey(),
      name: f.name,
      field_type: f.field_type,
      options:
        f.field_type === 'enum' || f.field_type === 'set'
          ? (f.options ?? []).map((o) => ({ id: this.nextId.option++, label: typeof o === 'string' ? o : o.label }))
          : null,
      order_nr: this.fields[entity].length,
      add_time: t,
      update_time: t,
      custom: true,
      mandatory: false,
      active: true,
    };
    this.fields[entity].push(field);
    return field;
  }

  /** 40 hex characters, like Pipedrive's custom field keys. */
  private hashKey(): string {
    let s = '';
    while (s.length < 40) s += Math.floor(this.rand() * 0x1_0000_0000).toString(16).padStart(8, '0');
    return s.slice(0, 40);
  }

  customFields(entity: FieldEntity): PdField[] {
    return this.fields[entity].filter((f) => f.custom && f.active);
  }

  // --------------------------------------------------------------- checks

  user(id: unknown, what = 'owner_id'): number {
    const n = int(id, what);
    if (!this.users.some((u) => u.id === n && !u.is_deleted)) throw new PdInputError(`User with id ${n} not found`);
    return n;
  }

  refPerson(id: unknown): number | null {
    if (id === null) return null;
    const n = int(id, 'person_id');
    const p = this.persons.get(n);
    if (!p || p.is_deleted) throw new PdInputError(`Person with id ${n} not found`);
    return n;
  }

  refOrg(id: unknown): number | null {
    if (id === null) return null;
    const n = int(id, 'org_id');
    const o = this.organizations.get(n);
    if (!o || o.is_deleted) throw new PdInputError(`Organization with id ${n} not found`);
    return n;
  }

  refDeal(id: unknown): number | null {
    if (id === null) return null;
    const n = int(id, 'deal_id');
    const d = this.deals.get(n);
    if (!d || d.is_deleted) throw new PdInputError(`Deal with id ${n} not found`);
    return n;
  }

  /** Validates a `custom_fields` object against the entity's custom field definitions. */
  customValues(entity: FieldEntity, input: unknown, current: Record<string, unknown> = {}): Record<string, unknown> {
    if (input === undefined) return current;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new PdInputError('Validation failed: custom_fields: must be an object');
    const out = { ...current };
    const defs = new Map(this.customFields(entity).map((f) => [f.key, f]));
    for (const [key, raw] of Object.entries(input as Obj)) {
      const f = defs.get(key);
      if (!f) throw new PdInputError(`Validation failed: custom_fields: unknown custom field '${key}'`);
      if (raw === null) {
        delete out[key];
        continue;
      }
      out[key] = this.customValue(f, raw);
    }
    return out;
  }

  private customValue(f: PdField, v: unknown): unknown {
    const bad = (what: string): never => {
      throw new PdInputError(`Validation failed: custom_fields.${f.key}: ${what}`);
    };
    switch (f.field_type) {
      case 'double':
        return typeof v === 'number' && Number.isFinite(v) ? v : bad('must be a number');
      case 'int':
        return typeof v === 'number' && Number.isInteger(v) ? v : bad('must be an integer');
      case 'monetary': {
        // v2: an object `{ value, currency }`
        const o = v as { value?: unknown; currency?: unknown };
        if (!o || typeof o !== 'object' || typeof o.value !== 'number') return bad('must be an object with numeric "value" and "currency"');
        return { value: o.value, currency: typeof o.currency === 'string' ? o.currency : 'USD' };
      }
      case 'date':
        return typeof v === 'string' && DATE_RE.test(v) ? v : bad('must be a date in YYYY-MM-DD format');
      case 'time':
        return typeof v === 'string' && HHMM_RE.test(v) ? v : bad('must be a time in HH:MM format');
      case 'enum': {
        const ids = (f.options ?? []).map((o) => o.id);
        return typeof v === 'number' && ids.includes(v) ? v : bad(`must be one of the option ids [${ids.join(', ')}]`);
      }
      case 'set': {
        const ids = (f.options ?? []).map((o) => o.id);
        // an empty array is rejected (the documents: use null to clear a multi-option field)
        if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number' || !ids.includes(x))) return bad(`must be a non-empty array of option ids [${ids.join(', ')}]`);
        return [...v];
      }
      case 'user':
        return this.user(v, `custom_fields.${f.key}`);
      case 'org':
        return this.refOrg(v);
      case 'people':
        return this.refPerson(v);
      case 'address':
        if (typeof v === 'string') return { value: v };
        return v && typeof v === 'object' && typeof (v as Obj).value === 'string' ? { ...(v as Obj) } : bad('must be an address object with "value"');
      case 'boolean':
        return typeof v === 'boolean' ? v : bad('must be a boolean');
      default:
        return typeof v === 'string' ? v : bad('must be a string');
    }
  }

  renderCustom(entity: FieldEntity, values: Record<string, unknown>, opts: { only?: string[]; optionLabels?: boolean } = {}): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of this.customFields(entity)) {
      if (opts.only && !opts.only.includes(f.key)) continue;
      let v = values[f.key] ?? null;
      if (v !== null && opts.optionLabels && (f.field_type === 'enum' || f.field_type === 'set')) {
        const label = (id: unknown) => ({ id, label: f.options?.find((o) => o.id === id)?.label ?? null });
        v = Array.isArray(v) ? v.map(label) : label(v);
      }
      out[f.key] = v;
    }
    return out;
  }

  // ------------------------------------------------------------ renderers

  renderPerson(p: PdPerson, o: RenderOpts = {}): Obj {
    return {
      id: p.id,
      name: p.name,
      first_name: p.first_name,
      last_name: p.last_name,
      owner_id: p.owner_id,
      org_id: p.org_id,
      add_time: rfc3339(p.add_time),
      update_time: rfc3339(p.update_time),
      emails: p.emails.map((e) => ({ ...e })),
      phones: p.phones.map((e) => ({ ...e })),
      is_deleted: p.is_deleted,
      visible_to: p.visible_to,
      label_ids: [...p.label_ids],
      picture_id: p.picture_id,
      custom_fields: this.renderCustom('person', p.custom, o),
    };
  }

  renderOrganization(org: PdOrganization, o: RenderOpts = {}): Obj {
    return {
      id: org.id,
      name: org.name,
      owner_id: org.owner_id,
      add_time: rfc3339(org.add_time),
      update_time: rfc3339(org.update_time),
      is_deleted: org.is_deleted,
      visible_to: org.visible_to,
      address: org.address ? { ...org.address } : null,
      label_ids: [...org.label_ids],
      website: org.website,
      linkedin: org.linkedin,
      industry: org.industry,
      annual_revenue: org.annual_revenue,
      employee_count: org.employee_count,
      custom_fields: this.renderCustom('organization', org.custom, o),
    };
  }

  renderDeal(d: PdDeal, o: RenderOpts = {}): Obj {
    const t = (ms: number | null) => (ms === null ? null : rfc3339(ms));
    return {
      id: d.id,
      title: d.title,
      owner_id: d.owner_id,
      person_id: d.person_id,
      org_id: d.org_id,
      pipeline_id: d.pipeline_id,
      stage_id: d.stage_id,
      value: d.value,
      currency: d.currency,
      add_time: rfc3339(d.add_time),
      update_time: rfc3339(d.update_time),
      stage_change_time: t(d.stage_change_time),
      is_deleted: d.is_deleted,
      is_archived: d.is_archived,
      archive_time: t(d.archive_time),
      status: d.status,
      probability: d.probability,
      lost_reason: d.lost_reason,
      visible_to: d.visible_to,
      close_time: t(d.close_time),
      won_time: t(d.won_time),
      lost_time: t(d.lost_time),
      expected_close_date: d.expected_close_date,
      label_ids: [...d.label_ids],
      origin: d.origin,
      origin_id: null,
      channel: null,
      channel_id: null,
      source_lead_id: null,
      arr: null,
      mrr: null,
      acv: null,
      custom_fields: this.renderCustom('deal', d.custom, o),
    };
  }

  renderActivity(a: PdActivity): Obj {
    return {
      id: a.id,
      subject: a.subject,
      type: a.type,
      owner_id: a.owner_id,
      creator_user_id: a.creator_user_id,
      is_deleted: a.is_deleted,
      add_time: rfc3339(a.add_time),
      update_time: rfc3339(a.update_time),
      deal_id: a.deal_id,
      lead_id: a.lead_id,
      person_id: a.person_id,
      org_id: a.org_id,
      project_id: a.project_id,
      due_date: a.due_date,
      due_time: a.due_time,
      duration: a.duration,
      busy: a.busy,
      done: a.done,
      marked_as_done_time: a.marked_as_done_time === null ? null : rfc3339(a.marked_as_done_time),
      location: a.location ? { ...a.location } : null,
      participants: a.participants.map((p) => ({ ...p })),
      attendees: null,
      conference_meeting_client: null,
      conference_meeting_url: null,
      conference_meeting_id: null,
      public_description: a.public_description,
      priority: a.priority,
      note: a.note,
    };
  }

  /** The deprecated v1 activity shape (`GET /v1/activities`). */
  renderActivityV1(a: PdActivity): Obj {
    const owner = this.users.find((u) => u.id === a.owner_id);
    return {
      id: a.id,
      company_id: 1,
      user_id: a.owner_id,
      done: a.done,
      type: a.type,
      reference_type: null,
      reference_id: null,
      due_date: a.due_date,
      due_time: a.due_time ?? '',
      duration: a.duration ?? '',
      busy_flag: a.busy,
      add_time: v1Time(a.add_time),
      marked_as_done_time: a.marked_as_done_time === null ? '' : v1Time(a.marked_as_done_time),
      subject: a.subject,
      public_description: a.public_description,
      location: a.location?.value ?? null,
      org_id: a.org_id,
      person_id: a.person_id,
      deal_id: a.deal_id,
      lead_id: a.lead_id,
      project_id: a.project_id,
      active_flag: !a.is_deleted,
      update_time: v1Time(a.update_time),
      update_user_id: null,
      note: a.note,
      created_by_user_id: a.creator_user_id,
      person_name: a.person_id ? (this.persons.get(a.person_id)?.name ?? null) : null,
      org_name: a.org_id ? (this.organizations.get(a.org_id)?.name ?? null) : null,
      deal_title: a.deal_id ? (this.deals.get(a.deal_id)?.title ?? null) : null,
      owner_name: owner?.name ?? null,
      assigned_to_user_id: a.owner_id,
      participants: a.participants.length ? a.participants.map((p) => ({ person_id: p.person_id, primary_flag: p.primary })) : null,
    };
  }

  renderNote(n: PdNote): Obj {
    const user = this.users.find((u) => u.id === n.user_id);
    const deal = n.deal_id ? this.deals.get(n.deal_id) : undefined;
    const org = n.org_id ? this.organizations.get(n.org_id) : undefined;
    const person = n.person_id ? this.persons.get(n.person_id) : undefined;
    return {
      id: n.id,
      active_flag: !n.is_deleted,
      add_time: v1Time(n.add_time),
      content: n.content,
      deal: deal ? { title: deal.title } : null,
      lead_id: n.lead_id,
      deal_id: n.deal_id,
      last_update_user_id: n.last_update_user_id,
      org_id: n.org_id,
      organization: org ? { name: org.name } : null,
      person: person ? { name: person.name } : null,
      person_id: n.person_id,
      project_id: n.project_id,
      project: null,
      task_id: null,
      task: null,
      pinned_to_deal_flag: n.pinned_to_deal_flag,
      pinned_to_organization_flag: n.pinned_to_organization_flag,
      pinned_to_person_flag: n.pinned_to_person_flag,
      pinned_to_lead_flag: n.pinned_to_lead_flag,
      pinned_to_project_flag: n.pinned_to_project_flag,
      pinned_to_task_flag: false,
      update_time: v1Time(n.update_time),
      user: user ? { email: user.email, icon_url: user.icon_url ?? '', is_you: user.id === 1, name: user.name } : null,
      user_id: n.user_id,
    };
  }

  renderUser(u: PdUser, currentUserId: number): Obj {
    return {
      id: u.id,
      name: u.name,
      default_currency: u.default_currency,
      locale: u.locale,
      lang: u.lang,
      email: u.email,
      phone: u.phone,
      activated: u.activated,
      last_login: v1Time(u.last_login),
      created: v1Time(u.created),
      modified: u.modified === null ? null : v1Time(u.modified),
      has_created_company: u.has_created_company,
      access: [{ app: 'sales', admin: u.is_admin, permission_set_id: '62cc4d7f-4038-4352-abf3-a8c1c822b631' }],
      active_flag: u.active_flag,
      timezone_name: u.timezone_name,
      timezone_offset: u.timezone_offset,
      role_id: u.role_id,
      icon_url: u.icon_url,
      is_you: u.id === currentUserId,
      is_deleted: u.is_deleted,
    };
  }

  renderFieldV1(f: PdField): Obj {
    return {
      id: f.id,
      key: f.key,
      name: f.name,
      order_nr: f.order_nr,
      field_type: f.field_type,
      add_time: v1Time(f.add_time),
      update_time: v1Time(f.update_time),
      last_updated_by_user_id: f.custom ? 1 : null,
      created_by_user_id: f.custom ? 1 : null,
      active_flag: f.active,
      edit_flag: f.custom,
      index_visible_flag: true,
      details_visible_flag: true,
      add_visible_flag: true,
      important_flag: false,
      bulk_edit_allowed: true,
      searchable_flag: f.field_type === 'varchar' || f.field_type === 'phone',
      filtering_allowed: true,
      sortable_flag: true,
      mandatory_flag: f.mandatory,
      options: f.options ? f.options.map((o) => ({ ...o })) : null,
    };
  }

  renderFieldV2(f: PdField): Obj {
    return {
      field_name: f.name,
      field_code: f.key,
      field_type: f.field_type === 'boolean' ? 'boolean' : f.field_type,
      options: f.options ? f.options.map((o) => ({ id: o.id, label: o.label, color: null, update_time: null, add_time: null })) : null,
      subfields: f.field_type === 'monetary' ? [{ field_code: `${f.key}_currency`, field_name: 'Currency', field_type: 'varchar' }] : null,
      is_custom_field: f.custom,
      is_optional_response_field: false,
    };
  }

  // ----------------------------------------------------------- inputs

  personInput(b: Obj, current?: PdPerson): Partial<PdPerson> {
    const out: Partial<PdPerson> = {};
    if ('name' in b || !current) {
      if (typeof b.name !== 'string' || b.name.trim() === '') throw new PdInputError('Validation failed: name: Parameter is required and must be a non-empty string');
      out.name = b.name;
      const [first, ...rest] = b.name.trim().split(/\s+/);
      out.first_name = first ?? null;
      out.last_name = rest.length ? rest.join(' ') : null;
    }
    if ('owner_id' in b) out.owner_id = this.user(b.owner_id);
    if ('org_id' in b) out.org_id = this.refOrg(b.org_id);
    if ('emails' in b) out.emails = contacts(b.emails, 'emails');
    if ('phones' in b) out.phones = contacts(b.phones, 'phones');
    if ('visible_to' in b) out.visible_to = visibleTo(b.visible_to);
    if ('label_ids' in b) out.label_ids = intArray(b.label_ids, 'label_ids');
    if ('custom_fields' in b) out.custom = this.customValues('person', b.custom_fields, current?.custom);
    return out;
  }

  organizationInput(b: Obj, current?: PdOrganization): Partial<PdOrganization> {
    const out: Partial<PdOrganization> = {};
    if ('name' in b || !current) {
      if (typeof b.name !== 'string' || b.name.trim() === '') throw new PdInputError('Validation failed: name: Parameter is required and must be a non-empty string');
      out.name = b.name;
    }
    if ('owner_id' in b) out.owner_id = this.user(b.owner_id);
    if ('address' in b) out.address = address(b.address);
    if ('visible_to' in b) out.visible_to = visibleTo(b.visible_to);
    if ('label_ids' in b) out.label_ids = intArray(b.label_ids, 'label_ids');
    for (const k of ['website', 'linkedin'] as const) if (k in b) out[k] = nullableString(b[k], k);
    for (const k of ['industry', 'annual_revenue', 'employee_count'] as const) if (k in b) out[k] = b[k] === null ? null : int(b[k], k);
    if ('custom_fields' in b) out.custom = this.customValues('organization', b.custom_fields, current?.custom);
    return out;
  }

  dealInput(b: Obj, current?: PdDeal): Partial<PdDeal> {
    const out: Partial<PdDeal> = {};
    if ('title' in b || !current) {
      if (typeof b.title !== 'string' || b.title.trim() === '') throw new PdInputError('Validation failed: title: Parameter is required and must be a non-empty string');
      out.title = b.title;
    }
    if ('owner_id' in b) out.owner_id = this.user(b.owner_id);
    if ('person_id' in b) out.person_id = this.refPerson(b.person_id);
    if ('org_id' in b) out.org_id = this.refOrg(b.org_id);
    if ('value' in b) {
      if (typeof b.value !== 'number' || !Number.isFinite(b.value)) throw new PdInputError('Validation failed: value: must be a number');
      out.value = b.value;
    }
    if ('currency' in b) {
      if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency)) throw new PdInputError('Validation failed: currency: must be a 3-letter currency code');
      out.currency = b.currency;
    }
    // pipeline / stage
    const pipelineId = 'pipeline_id' in b ? int(b.pipeline_id, 'pipeline_id') : undefined;
    if (pipelineId !== undefined && !this.pipelines.some((p) => p.id === pipelineId && !p.is_deleted)) throw new PdInputError(`Pipeline with id ${pipelineId} not found`);
    if ('stage_id' in b) {
      const stageId = int(b.stage_id, 'stage_id');
      const stage = this.stages.find((s) => s.id === stageId && !s.is_deleted);
      if (!stage) throw new PdInputError(`Stage with id ${stageId} not found`);
      if (pipelineId !== undefined && stage.pipeline_id !== pipelineId) throw new PdInputError(`Stage ${stageId} does not belong to pipeline ${pipelineId}`);
      out.stage_id = stage.id;
      out.pipeline_id = stage.pipeline_id;
    } else if (pipelineId !== undefined && pipelineId !== current?.pipeline_id) {
      const first = this.stages.filter((s) => s.pipeline_id === pipelineId && !s.is_deleted).sort((a, c) => a.order_nr - c.order_nr)[0];
      if (!first) throw new PdInputError(`Pipeline ${pipelineId} has no stages`);
      out.pipeline_id = pipelineId;
      out.stage_id = first.id;
    }
    if ('status' in b) {
      if (b.status !== 'open' && b.status !== 'won' && b.status !== 'lost') throw new PdInputError('Validation failed: status: must be one of [open, won, lost]');
      out.status = b.status;
    }
    if ('probability' in b) out.probability = b.probability === null ? null : num(b.probability, 'probability');
    if ('lost_reason' in b) out.lost_reason = nullableString(b.lost_reason, 'lost_reason');
    if ('visible_to' in b) out.visible_to = visibleTo(b.visible_to);
    if ('expected_close_date' in b) {
      if (b.expected_close_date !== null && (typeof b.expected_close_date !== 'string' || !DATE_RE.test(b.expected_close_date))) {
        throw new PdInputError('Validation failed: expected_close_date: must be a date in YYYY-MM-DD format');
      }
      out.expected_close_date = b.expected_close_date as string | null;
    }
    if ('label_ids' in b) out.label_ids = intArray(b.label_ids, 'label_ids');
    if ('custom_fields' in b) out.custom = this.customValues('deal', b.custom_fields, current?.custom);
    return out;
  }

  activityInput(b: Obj, current?: PdActivity): Partial<PdActivity> {
    const out: Partial<PdActivity> = {};
    if ('type' in b) {
      if (typeof b.type !== 'string' || !ACTIVITY_TYPES.includes(b.type)) throw new PdInputError(`Validation failed: type: must be one of [${ACTIVITY_TYPES.join(', ')}]`);
      out.type = b.type;
    }
    if ('subject' in b) out.subject = nullableString(b.subject, 'subject') ?? '';
    if ('owner_id' in b) out.owner_id = this.user(b.owner_id);
    if ('deal_id' in b) out.deal_id = this.refDeal(b.deal_id);
    if ('person_id' in b) out.person_id = this.refPerson(b.person_id);
    if ('org_id' in b) out.org_id = this.refOrg(b.org_id);
    if ('lead_id' in b) out.lead_id = nullableString(b.lead_id, 'lead_id');
    if ('due_date' in b) {
      if (b.due_date !== null && (typeof b.due_date !== 'string' || !DATE_RE.test(b.due_date))) throw new PdInputError('Validation failed: due_date: must be a date in YYYY-MM-DD format');
      out.due_date = b.due_date as string | null;
    }
    for (const k of ['due_time', 'duration'] as const) {
      if (k in b) {
        if (b[k] !== null && b[k] !== '' && (typeof b[k] !== 'string' || !HHMM_RE.test(b[k] as string))) throw new PdInputError(`Validation failed: ${k}: must be in HH:MM format`);
        out[k] = (b[k] as string | null) || null;
      }
    }
    if ('busy' in b) out.busy = bool(b.busy, 'busy');
    if ('done' in b) out.done = bool(b.done, 'done');
    for (const k of ['note', 'public_description'] as const) if (k in b) out[k] = nullableString(b[k], k);
    if ('priority' in b) out.priority = b.priority === null ? null : int(b.priority, 'priority');
    if ('location' in b) out.location = address(b.location);
    if ('participants' in b) {
      if (!Array.isArray(b.participants)) throw new PdInputError('Validation failed: participants: must be an array');
      out.participants = b.participants.map((p: Obj) => ({ person_id: this.refPerson(p?.person_id) ?? 0, primary: p?.primary === true }));
    }
    if (!current && out.subject === undefined) out.subject = '';
    return out;
  }
}

export interface RenderOpts {
  only?: string[];
  optionLabels?: boolean;
}

// ------------------------------------------------------------------ coercion

export function int(v: unknown, what: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new PdInputError(`Validation failed: ${what}: must be an integer`);
}

function num(v: unknown, what: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new PdInputError(`Validation failed: ${what}: must be a number`);
}

function bool(v: unknown, what: string): boolean {
  if (typeof v === 'boolean') return v;
  throw new PdInputError(`Validation failed: ${what}: must be a boolean`);
}

function nullableString(v: unknown, what: string): string | null {
  if (v === null || typeof v === 'string') return v;
  throw new PdInputError(`Validation failed: ${what}: must be a string`);
}

function intArray(v: unknown, what: string): number[] {
  if (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x))) return [...(v as number[])];
  throw new PdInputError(`Validation failed: ${what}: must be an array of integers`);
}

function visibleTo(v: unknown): number {
  if (v === 1 || v === 3 || v === 5 || v === 7) return v;
  throw new PdInputError('Validation failed: visible_to: must be one of [1, 3, 5, 7]');
}

function address(v: unknown): PdAddress | null {
  if (v === null) return null;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Obj;
    if (o.value !== undefined && o.value !== null && typeof o.value !== 'string') throw new PdInputError('Validation failed: address.value: must be a string');
    return { value: (o.value as string | undefined) ?? null, ...Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'value')) } as PdAddress;
  }
  throw new PdInputError('Validation failed: address: must be an object');
}

/** `emails` / `phones`: `[{ value, primary?, label? }]`; the first entry becomes primary when none is. */
function contacts(v: unknown, what: string): PdContact[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw new PdInputError(`Validation failed: ${what}: must be an array of objects`);
  const out = v.map((x: Obj, i) => {
    if (!x || typeof x !== 'object' || typeof x.value !== 'string') throw new PdInputError(`Validation failed: ${what}[${i}].value: must be a string`);
    if (x.primary !== undefined && typeof x.primary !== 'boolean') throw new PdInputError(`Validation failed: ${what}[${i}].primary: must be a boolean`);
    if (x.label !== undefined && typeof x.label !== 'string') throw new PdInputError(`Validation failed: ${what}[${i}].label: must be a string`);
    return { value: x.value, primary: x.primary === true, label: (x.label as string | undefined) ?? 'work' };
  });
  if (out.length && !out.some((c) => c.primary)) out[0]!.primary = true;
  return out;
}
