/**
 * JSON as Gorgias renders it: ids are integers, datetimes are UTC *without* a zone and with microseconds
 * (`2019-07-05T14:42:00.384938`, as in the reference's examples), nested people are short forms.
 */
import type { GorgiasState, PersonRef, SimCustomer, SimCustomField, SimMessage, SimTag, SimTeam, SimTicket, SimUser } from './state';

export function gorgiasDate(ms: number | null): string | null {
  if (ms === null) return null;
  const whole = Math.floor(ms);
  const micro = Math.min(999, Math.round((ms - whole) * 1000));
  return new Date(whole).toISOString().replace(/Z$/, String(micro).padStart(3, '0'));
}

type Obj = Record<string, unknown>;

export class Serializer {
  constructor(
    private readonly state: GorgiasState,
    private readonly origin: () => string,
  ) {}

  userShort(u: SimUser | undefined): Obj | null {
    if (!u) return null;
    return { id: u.id, email: u.email, name: `${u.firstname} ${u.lastname}`.trim(), firstname: u.firstname, lastname: u.lastname, meta: null };
  }

  user(u: SimUser): Obj {
    return {
      id: u.id,
      active: u.active,
      bio: u.bio,
      country: null,
      created_datetime: gorgiasDate(u.created),
      deactivated_datetime: gorgiasDate(u.deactivated),
      email: u.email,
      external_id: null,
      firstname: u.firstname,
      lastname: u.lastname,
      language: 'en',
      meta: {},
      name: `${u.firstname} ${u.lastname}`.trim(),
      role: { name: u.role },
      timezone: 'UTC',
      updated_datetime: gorgiasDate(u.updated),
    };
  }

  team(t: SimTeam): Obj {
    return {
      id: t.id,
      uri: `/api/teams/${t.id}`,
      name: t.name,
      description: t.description,
      decoration: t.emoji ? { emoji: t.emoji } : null,
      members: t.memberIds.flatMap((id) => {
        const u = this.state.users.get(id);
        return u ? [{ id: u.id, email: u.email, name: `${u.firstname} ${u.lastname}`.trim(), meta: null }] : [];
      }),
      created_datetime: gorgiasDate(t.created),
    };
  }

  customerShort(c: SimCustomer | undefined): Obj | null {
    if (!c) return null;
    return { id: c.id, email: c.email, name: c.name, firstname: c.firstname, lastname: c.lastname, meta: {} };
  }

  customer(c: SimCustomer): Obj {
    return {
      id: c.id,
      created_datetime: gorgiasDate(c.created),
      email: c.email,
      external_id: c.externalId,
      firstname: c.firstname,
      lastname: c.lastname,
      name: c.name,
      language: c.language,
      timezone: c.timezone,
      note: c.note,
      channels: c.channels.map((ch) => ({ id: ch.id, type: ch.type, address: ch.address, preferred: ch.preferred, created_datetime: gorgiasDate(c.created), updated_datetime: gorgiasDate(c.updated) })),
      data: null,
      integrations: {},
      meta: {},
      updated_datetime: gorgiasDate(c.updated),
    };
  }

  tagShort(t: SimTag): Obj {
    return { id: t.id, name: t.name, uri: `/api/tags/${t.id}/`, decoration: t.color ? { color: t.color } : null };
  }

  tag(t: SimTag): Obj {
    return {
      id: t.id,
      uri: `/api/tags/${t.id}/`,
      name: t.name,
      description: t.description,
      decoration: t.color ? { color: t.color } : null,
      usage: this.state.usage(t.id),
      created_datetime: gorgiasDate(t.created),
      deleted_datetime: gorgiasDate(t.deleted),
    };
  }

  customField(f: SimCustomField): Obj {
    return {
      id: f.id,
      external_id: null,
      object_type: f.objectType,
      label: f.label,
      description: f.description,
      priority: f.priority,
      required: false,
      requirement_type: 'visible',
      managed_type: null,
      definition: { data_type: f.dataType, input_settings: { input_type: f.dataType === 'boolean' ? 'dropdown' : 'input', placeholder: null } },
      created_datetime: gorgiasDate(f.created),
      updated_datetime: null,
      deactivated_datetime: gorgiasDate(f.deactivated),
    };
  }

  fieldValue(t: SimTicket, fieldId: number): Obj | null {
    const v = t.fields.get(fieldId);
    const f = this.state.customFields.get(fieldId);
    if (!v || !f) return null;
    return { id: v.id, field: this.customField(f), prediction: null, value: v.value };
  }

  person(ref: PersonRef | null): Obj | null {
    if (!ref) return null;
    return ref.kind === 'user' ? this.userShort(this.state.users.get(ref.id)) : this.customerShort(this.state.customers.get(ref.id));
  }

  private address(ref: PersonRef | null): Obj | null {
    const p = this.person(ref);
    return p ? { name: p.name ?? '', address: p.email ?? '' } : null;
  }

  message(m: SimMessage): Obj {
    return {
      id: m.id,
      uri: `/api/tickets/${m.ticketId}/messages/${m.id}`,
      message_id: null,
      ticket_id: m.ticketId,
      external_id: m.externalId,
      public: m.public,
      channel: m.channel,
      via: m.via,
      source: { type: m.channel, from: this.address(m.sender), to: m.receiver ? [this.address(m.receiver)] : [], cc: null, bcc: null, extra: null },
      sender: this.person(m.sender),
      receiver: this.person(m.receiver),
      integration_id: null,
      rule_id: null,
      from_agent: m.fromAgent,
      subject: m.subject,
      body_text: m.bodyText,
      body_html: m.bodyHtml,
      stripped_text: m.bodyText,
      stripped_html: m.bodyHtml,
      stripped_signature: null,
      attachments: m.attachments.map((a) => ({ url: a.url, name: a.name, size: a.size, content_type: a.contentType, public: a.public, extra: null })),
      actions: null,
      macros: [],
      meta: null,
      headers: null,
      created_datetime: gorgiasDate(m.created),
      opened_datetime: null,
      sent_datetime: gorgiasDate(m.sent),
      failed_datetime: null,
      deleted_datetime: gorgiasDate(m.deleted),
      last_sending_error: null,
    };
  }

  ticket(t: SimTicket, o: { messages?: boolean } = {}): Obj {
    const team = t.assigneeTeamId !== null ? this.state.teams.get(t.assigneeTeamId) : undefined;
    const messages = this.state.messagesOf(t.id);
    return {
      id: t.id,
      uri: `/api/tickets/${t.id}/`,
      external_id: t.externalId,
      language: t.language,
      status: t.status,
      priority: t.priority,
      channel: t.channel,
      via: t.via,
      from_agent: t.fromAgent,
      spam: t.spam,
      customer: t.customerId !== null ? this.customerShort(this.state.customers.get(t.customerId)) : null,
      assignee_user: t.assigneeUserId !== null ? this.userShort(this.state.users.get(t.assigneeUserId)) : null,
      assignee_user_id: t.assigneeUserId,
      assignee_team: team ? { id: team.id, name: team.name, decoration: team.emoji ? { emoji: team.emoji } : null } : null,
      assignee_team_id: t.assigneeTeamId,
      subject: t.subject,
      meta: t.meta,
      tags: t.tagIds.flatMap((id) => {
        const tag = this.state.tags.get(id);
        return tag ? [this.tagShort(tag)] : [];
      }),
      custom_fields: t.fields.size ? Object.fromEntries([...t.fields.entries()].map(([fid, v]) => [String(fid), { id: fid, value: v.value }])) : null,
      ...(o.messages === false ? {} : { messages: messages.map((m) => this.message(m)) }),
      messages_count: messages.length,
      is_unread: false,
      created_datetime: gorgiasDate(t.created),
      opened_datetime: gorgiasDate(t.opened),
      last_received_message_datetime: gorgiasDate(t.lastReceivedMessage),
      last_message_datetime: gorgiasDate(t.lastMessage),
      updated_datetime: gorgiasDate(t.updated),
      closed_datetime: gorgiasDate(t.closed),
      snooze_datetime: gorgiasDate(t.snooze),
      trashed_datetime: gorgiasDate(t.trashed),
    };
  }

  fileUrl(hash: string, name: string, type: string): string {
    return `${this.origin()}/api/${type === 'public_attachment' ? 'public-attachments' : 'attachments'}/download/${this.state.domainHash}/${hash}-${encodeURIComponent(name)}`;
  }
}
