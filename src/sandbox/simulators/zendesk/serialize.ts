/**
 * Zendesk JSON renderings of the in-memory records (shapes follow real API responses,
 * including fields the official spec omits such as `fields`, `encoded_id`, `generated_timestamp`).
 */
import type {
  AttachmentRecord,
  AuditRecord,
  CommentRecord,
  CustomFieldRecord,
  GroupRecord,
  JobRecord,
  OrganizationRecord,
  TicketFieldRecord,
  TicketRecord,
  UploadRecord,
  UserRecord,
  ZendeskState,
} from './state';

/** `2024-05-01T10:20:30Z` (Zendesk renders whole seconds). */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

const API_VIA = { channel: 'api', source: { from: {}, to: {}, rel: null } };

function via(channel: string) {
  return channel === 'api' ? API_VIA : { channel, source: { from: {}, to: {}, rel: null } };
}

/** How the ticket event export names a channel (`via` of an event is text there, not an object). */
const VIA_NAMES: Record<string, string> = { web: 'Web form', email: 'Mail', api: 'Web service', mobile: 'Mobile', chat: 'Chat' };

function viaName(channel: string): string {
  return VIA_NAMES[channel] ?? channel.charAt(0).toUpperCase() + channel.slice(1);
}

function encodedId(id: number): string {
  const s = id.toString(36).toUpperCase().padStart(6, '0');
  return `${s.slice(0, 3)}${'XYZ'[id % 3]}-${s.slice(3)}${(id % 7).toString()}`;
}

export class Serializer {
  constructor(
    private readonly state: ZendeskState,
    private readonly baseUrl: () => string,
  ) {}

  private url(p: string): string {
    return `${this.baseUrl()}${p}`;
  }

  ticket(t: TicketRecord, opts: { exportStatus?: boolean } = {}): Record<string, unknown> {
    const custom = this.state.customTicketFields().map((f) => ({ id: f.id, value: t.custom_fields.get(f.id) ?? null }));
    return {
      url: this.url(`/api/v2/tickets/${t.id}.json`),
      id: t.id,
      external_id: t.external_id,
      via: via(t.channel),
      created_at: iso(t.created_at),
      updated_at: iso(t.updated_at),
      generated_timestamp: Math.floor(t.updated_at / 1000),
      type: t.type,
      subject: t.subject,
      raw_subject: t.subject,
      description: t.description,
      priority: t.priority,
      status: opts.exportStatus && t.deleted ? 'deleted' : t.status,
      recipient: null,
      requester_id: t.requester_id,
      submitter_id: t.submitter_id,
      assignee_id: t.assignee_id,
      organization_id: t.organization_id,
      group_id: t.group_id,
      collaborator_ids: t.collaborator_ids,
      follower_ids: t.follower_ids,
      email_cc_ids: t.email_cc_ids,
      forum_topic_id: null,
      problem_id: t.problem_id,
      has_incidents: false,
      is_public: t.comments.some((c) => c.public),
      due_at: t.due_at === null ? null : iso(t.due_at),
      tags: t.tags,
      custom_fields: custom,
      satisfaction_rating: null,
      sharing_agreement_ids: [],
      custom_status_id: statusIds[t.status],
      encoded_id: encodedId(t.id),
      fields: custom,
      followup_ids: [],
      ticket_form_id: 1,
      brand_id: 1,
      allow_channelback: false,
      allow_attachments: true,
      from_messaging_channel: false,
    };
  }

  attachment(a: AttachmentRecord): Record<string, unknown> {
    const content = this.url(`/attachments/token/${a.contentToken}/?name=${encodeURIComponent(a.file_name)}`);
    return {
      url: this.url(`/api/v2/attachments/${a.id}.json`),
      id: a.id,
      file_name: a.file_name,
      content_url: content,
      mapped_content_url: content,
      content_type: a.content_type,
      size: a.size,
      width: null,
      height: null,
      inline: false,
      deleted: false,
      malware_access_override: false,
      malware_scan_result: 'malware_not_found',
      thumbnails: [],
    };
  }

  private attachmentsOf(ids: number[]): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const id of ids) {
      const a = this.state.attachments.get(id);
      if (a) out.push(this.attachment(a));
    }
    return out;
  }

  comment(c: CommentRecord): Record<string, unknown> {
    return {
      id: c.id,
      type: 'Comment',
      author_id: c.author_id,
      body: c.body,
      html_body: c.html_body,
      plain_body: c.plain_body,
      public: c.public,
      attachments: this.attachmentsOf(c.attachmentIds),
      audit_id: c.audit_id,
      via: via(c.channel),
      created_at: iso(c.created_at),
      metadata: { system: { client: 'omniport-zendesk-simulator', ip_address: '127.0.0.1', location: null, latitude: null, longitude: null }, custom: {} },
    };
  }

  audit(a: AuditRecord): Record<string, unknown> {
    return {
      id: a.id,
      ticket_id: a.ticket_id,
      created_at: iso(a.created_at),
      author_id: a.author_id,
      metadata: { system: { client: 'omniport-zendesk-simulator', ip_address: '127.0.0.1' }, custom: {} },
      via: via(a.channel),
      events: a.events.map((e) =>
        e.type === 'Comment' ? { ...e, attachments: this.attachmentsOf((e.attachments as number[]) ?? []) } : e,
      ),
    };
  }

  /**
   * One event of GET /api/v2/incremental/ticket_events: a ticket audit with its changes as
   * `child_events`. With the `comment_events` sideload a comment is a full `Comment` child (body,
   * attachments, ...); without it only `comment_present` / `comment_public` tell of it.
   */
  ticketEvent(a: AuditRecord, opts: { comments: boolean }): Record<string, unknown> {
    const name = viaName(a.channel);
    const system = { client: 'omniport-zendesk-simulator', ip_address: '127.0.0.1', location: null, latitude: null, longitude: null };
    return {
      id: a.id,
      ticket_id: a.ticket_id,
      timestamp: Math.floor(a.created_at / 1000),
      created_at: iso(a.created_at),
      updater_id: a.author_id,
      via: name,
      system,
      metadata: { system, custom: {} },
      event_type: 'Audit',
      child_events: a.events.map((e) => {
        if (e.type === 'Comment') {
          if (!opts.comments) return { id: e.id, via: name, via_reference_id: null, comment_present: true, comment_public: e.public, event_type: 'Comment' };
          return {
            id: e.id,
            via: via(a.channel),
            via_reference_id: null,
            type: 'Comment',
            author_id: e.author_id,
            body: e.body,
            html_body: e.html_body,
            plain_body: e.plain_body,
            public: e.public,
            attachments: this.attachmentsOf((e.attachments as number[]) ?? []),
            audit_id: a.id,
            created_at: iso(a.created_at),
            event_type: 'Comment',
          };
        }
        if (e.type === 'CommentRedactionEvent') return { id: e.id, via: name, via_reference_id: null, comment_id: e.comment_id, event_type: e.type };
        // Field events name the field as the key: {"status": "open", "previous_value": "new", "event_type": "Change"}.
        const field = String(e.field_name);
        const out: Record<string, unknown> = { id: e.id, via: name, via_reference_id: null, [field]: e.value };
        if (field === 'tags') {
          const now = Array.isArray(e.value) ? (e.value as string[]) : [];
          const before = Array.isArray(e.previous_value) ? (e.previous_value as string[]) : [];
          out.added_tags = now.filter((x) => !before.includes(x));
          out.removed_tags = before.filter((x) => !now.includes(x));
        }
        if (e.type === 'Change') out.previous_value = e.previous_value;
        out.event_type = e.type;
        return out;
      }),
    };
  }

  /** An element of GET /api/v2/deleted_tickets. */
  deletedTicket(t: TicketRecord): Record<string, unknown> {
    const actor = t.deleted_by != null ? this.state.users.get(t.deleted_by) : undefined;
    return {
      id: t.id,
      subject: t.subject,
      description: t.description,
      actor: actor ? { id: actor.id, name: actor.name } : { id: null, name: 'Zendesk' },
      deleted_at: iso(t.deleted_at ?? t.updated_at),
      previous_state: t.status,
    };
  }

  user(u: UserRecord): Record<string, unknown> {
    const agent = u.role !== 'end-user';
    return {
      id: u.id,
      url: this.url(`/api/v2/users/${u.id}.json`),
      name: u.name,
      email: u.email,
      created_at: iso(u.created_at),
      updated_at: iso(u.updated_at),
      time_zone: u.time_zone,
      iana_time_zone: u.iana_time_zone,
      phone: u.phone,
      shared_phone_number: null,
      photo: null,
      locale_id: u.locale_id,
      locale: u.locale,
      organization_id: u.organization_id,
      role: u.role,
      verified: u.verified,
      external_id: u.external_id,
      tags: u.tags,
      alias: '',
      active: u.active,
      shared: false,
      shared_agent: false,
      last_login_at: null,
      two_factor_auth_enabled: null,
      signature: '',
      details: u.details,
      notes: u.notes,
      role_type: null,
      custom_role_id: null,
      moderator: agent,
      ticket_restriction: agent ? null : 'requested',
      only_private_comments: false,
      restricted_agent: false,
      suspended: u.suspended,
      default_group_id: agent ? u.default_group_id : null,
      report_csv: agent,
      user_fields: u.user_fields,
    };
  }

  /** What GET /users/me returns without credentials. */
  anonymousUser(): Record<string, unknown> {
    return {
      id: null,
      url: null,
      name: 'Anonymous user',
      email: 'invalid@example.com',
      created_at: null,
      updated_at: null,
      time_zone: 'UTC',
      iana_time_zone: 'Etc/UTC',
      phone: null,
      shared_phone_number: null,
      photo: null,
      locale_id: 1,
      locale: 'en-US',
      organization_id: null,
      role: 'end-user',
      verified: false,
      authenticity_token: null,
    };
  }

  organization(o: OrganizationRecord): Record<string, unknown> {
    return {
      url: this.url(`/api/v2/organizations/${o.id}.json`),
      id: o.id,
      name: o.name,
      shared_tickets: o.shared_tickets,
      shared_comments: o.shared_comments,
      external_id: o.external_id,
      created_at: iso(o.created_at),
      updated_at: iso(o.updated_at),
      domain_names: o.domain_names,
      details: o.details,
      notes: o.notes,
      group_id: o.group_id,
      tags: o.tags,
      organization_fields: o.organization_fields,
    };
  }

  group(g: GroupRecord): Record<string, unknown> {
    return {
      url: this.url(`/api/v2/groups/${g.id}.json`),
      id: g.id,
      is_public: g.is_public,
      name: g.name,
      description: g.description,
      default: g.default,
      deleted: g.deleted,
      created_at: iso(g.created_at),
      updated_at: iso(g.updated_at),
    };
  }

  ticketField(f: TicketFieldRecord): Record<string, unknown> {
    const out: Record<string, unknown> = {
      url: this.url(`/api/v2/ticket_fields/${f.id}.json`),
      id: f.id,
      type: f.type,
      title: f.title,
      raw_title: f.title,
      description: f.description,
      raw_description: f.description,
      position: f.position,
      active: f.active,
      required: f.required,
      collapsed_for_agents: false,
      regexp_for_validation: f.regexp_for_validation,
      title_in_portal: f.title,
      raw_title_in_portal: f.title,
      visible_in_portal: !f.removable,
      editable_in_portal: !f.removable,
      required_in_portal: f.type === 'description' || f.type === 'subject',
      agent_can_edit: true,
      tag: f.tag,
      created_at: iso(f.created_at),
      updated_at: iso(f.updated_at),
      removable: f.removable,
      key: null,
      agent_description: null,
    };
    if (f.custom_field_options) {
      out.custom_field_options = f.custom_field_options.map((o) => ({
        id: o.id,
        name: o.name,
        raw_name: o.name,
        value: o.value,
        default: o.default ?? false,
        url: this.url(`/api/v2/ticket_fields/${f.id}/options/${o.id}.json`),
      }));
    }
    if (f.system_field_options) out.system_field_options = f.system_field_options;
    return out;
  }

  customField(f: CustomFieldRecord, kind: 'user_fields' | 'organization_fields'): Record<string, unknown> {
    const out: Record<string, unknown> = {
      url: this.url(`/api/v2/${kind}/${f.id}.json`),
      id: f.id,
      type: f.type,
      key: f.key,
      title: f.title,
      description: f.description,
      raw_title: f.title,
      raw_description: f.description,
      position: f.position,
      active: f.active,
      system: false,
      regexp_for_validation: f.regexp_for_validation,
      created_at: iso(f.created_at),
      updated_at: iso(f.updated_at),
    };
    if (f.custom_field_options) {
      out.custom_field_options = f.custom_field_options.map((o) => ({ id: o.id, name: o.name, raw_name: o.name, value: o.value, position: 0, url: this.url(`/api/v2/${kind}/${f.id}/options/${o.id}.json`) }));
    }
    return out;
  }

  upload(u: UploadRecord, latest: AttachmentRecord): Record<string, unknown> {
    return {
      token: u.token,
      expires_at: iso(u.expires_at),
      attachments: this.attachmentsOf(u.attachmentIds),
      attachment: this.attachment(latest),
    };
  }

  job(j: JobRecord): Record<string, unknown> {
    return {
      id: j.id,
      url: this.url(`/api/v2/job_statuses/${j.id}.json`),
      total: j.total,
      progress: j.progress,
      status: j.status,
      message: j.message,
      results: j.results,
    };
  }
}

/** Default custom ticket status ids per status category. */
const statusIds: Record<string, number> = { new: 1, open: 2, pending: 3, hold: 4, solved: 5, closed: 6 };
