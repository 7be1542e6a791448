/**
 * Front Core API JSON for the simulator's state: every resource with its `_links` (absolute URLs on the
 * simulator's origin), shaped as the official OpenAPI description and Front's answers.
 */
import type {
  FrontState,
  SimAccount,
  SimAttachment,
  SimChannel,
  SimComment,
  SimContact,
  SimConversation,
  SimCustomField,
  SimEvent,
  SimInbox,
  SimMessage,
  SimRecipient,
  SimStatus,
  SimTag,
  SimTeam,
  SimTeammate,
} from './state';

type Obj = Record<string, unknown>;

export class Serializer {
  constructor(
    private readonly state: FrontState,
    private readonly base: () => string,
  ) {}

  private url(path: string): string {
    return `${this.base()}${path}`;
  }

  identity(): Obj {
    return { _links: { self: this.url('/me') }, id: this.state.companyId, name: this.state.companyName };
  }

  teammate(t: SimTeammate): Obj {
    return {
      _links: {
        self: this.url(`/teammates/${t.id}`),
        related: { inboxes: this.url(`/teammates/${t.id}/inboxes`), conversations: this.url(`/teammates/${t.id}/conversations`) },
      },
      id: t.id,
      email: t.email,
      username: t.username,
      first_name: t.first_name,
      last_name: t.last_name,
      is_admin: t.is_admin,
      is_available: t.is_available,
      is_blocked: t.is_blocked,
      type: t.type,
      license_type: 'full',
      custom_fields: { ...t.custom_fields },
    };
  }

  teamPreview(t: SimTeam): Obj {
    return { _links: { self: this.url(`/teams/${t.id}`) }, id: t.id, name: t.name };
  }

  team(t: SimTeam): Obj {
    return {
      ...this.teamPreview(t),
      inboxes: t.inboxIds.flatMap((id) => {
        const i = this.state.inboxes.get(id);
        return i ? [this.inbox(i)] : [];
      }),
      members: t.memberIds.flatMap((id) => {
        const m = this.state.teammates.get(id);
        return m ? [this.teammate(m)] : [];
      }),
    };
  }

  inbox(i: SimInbox): Obj {
    return {
      _links: {
        self: this.url(`/inboxes/${i.id}`),
        related: {
          teammates: this.url(`/inboxes/${i.id}/teammates`),
          conversations: this.url(`/inboxes/${i.id}/conversations`),
          channels: this.url(`/inboxes/${i.id}/channels`),
          owner: this.url(`/companies/${this.state.companyId}`),
        },
      },
      id: i.id,
      name: i.name,
      is_private: i.is_private,
      is_public: i.is_public,
      custom_fields: { ...i.custom_fields },
    };
  }

  channel(c: SimChannel): Obj {
    return {
      _links: { self: this.url(`/channels/${c.id}`), related: { inbox: this.url(`/inboxes/${c.inboxId}`), owner: this.url(`/inboxes/${c.inboxId}`) } },
      id: c.id,
      name: c.name,
      address: c.address,
      type: c.type,
      send_as: c.send_as,
      settings: { undo_send_time: 0, all_teammates_can_reply: true },
      is_private: c.is_private,
      is_valid: c.is_valid,
    };
  }

  contact(c: SimContact): Obj {
    return {
      _links: {
        self: this.url(`/contacts/${c.id}`),
        related: { notes: this.url(`/contacts/${c.id}/notes`), conversations: this.url(`/contacts/${c.id}/conversations`) },
      },
      id: c.id,
      name: c.name ?? '',
      description: c.description ?? '',
      avatar_url: '',
      links: [],
      lists: [],
      handles: c.handles.map((h) => ({ ...h })),
      custom_fields: { ...c.custom_fields },
      is_private: c.is_private,
    };
  }

  account(a: SimAccount): Obj {
    return {
      _links: { self: this.url(`/accounts/${a.id}`), related: { contacts: this.url(`/accounts/${a.id}/contacts`) } },
      id: a.id,
      name: a.name,
      logo_url: null,
      description: a.description,
      domains: [...a.domains],
      external_id: a.external_id,
      custom_fields: { ...a.custom_fields },
      created_at: a.created_at,
      updated_at: a.updated_at,
    };
  }

  tag(t: SimTag): Obj {
    return {
      _links: {
        self: this.url(`/tags/${t.id}`),
        related: { conversations: this.url(`/tags/${t.id}/conversations`), owner: this.url(`/companies/${this.state.companyId}`), parent_tag: null, children: null },
      },
      id: t.id,
      name: t.name,
      description: t.description,
      highlight: t.highlight,
      is_private: t.is_private,
      is_visible_in_conversation_lists: t.is_visible_in_conversation_lists,
      created_at: t.created_at,
      updated_at: t.updated_at,
    };
  }

  customField(f: SimCustomField): Obj {
    return {
      _links: { self: this.url(`/custom_fields/${f.id}`) },
      id: f.id,
      name: f.name,
      description: f.description,
      type: f.type,
      ...(f.values ? { values: f.values.map((v) => ({ ...v })) } : {}),
    };
  }

  status(s: SimStatus): Obj {
    return {
      _links: { self: this.url(`/company/statuses/${s.id}`) },
      id: s.id,
      name: s.name,
      category: s.category,
      description: s.description,
      created_at: s.created_at,
      updated_at: s.updated_at,
    };
  }

  attachment(a: SimAttachment): Obj {
    return { id: a.id, filename: a.filename, url: this.url(`/download/${a.id}`), content_type: a.contentType, size: a.content.length, metadata: { is_inline: false } };
  }

  recipient(r: SimRecipient): Obj {
    return { _links: { related: { contact: r.contactId ? this.url(`/contacts/${r.contactId}`) : null } }, name: r.name, handle: r.handle, role: r.role };
  }

  conversation(c: SimConversation): Obj {
    const st = this.state;
    const status = c.statusId ? st.statuses.get(c.statusId) : undefined;
    const assignee = c.assigneeId ? st.teammates.get(c.assigneeId) : undefined;
    const lastMessage = st
      .messagesOf(c.id)
      .sort((a, b) => b.created_at - a.created_at)[0];
    return {
      _links: {
        self: this.url(`/conversations/${c.id}`),
        related: {
          events: this.url(`/conversations/${c.id}/events`),
          followers: this.url(`/conversations/${c.id}/followers`),
          messages: this.url(`/conversations/${c.id}/messages`),
          comments: this.url(`/conversations/${c.id}/comments`),
          inboxes: this.url(`/conversations/${c.id}/inboxes`),
          ...(lastMessage ? { last_message: this.url(`/messages/${lastMessage.id}`) } : {}),
        },
      },
      id: c.id,
      type: c.type,
      subject: c.subject,
      status: st.statusOf(c),
      ...(st.ticketing && status ? { status_id: status.id, status_category: status.category } : {}),
      ticket_ids: [],
      assignee: assignee ? this.teammate(assignee) : null,
      recipient: c.recipient ? this.recipient(c.recipient) : null,
      tags: c.tagIds.flatMap((id) => {
        const t = st.tags.get(id);
        return t ? [this.tag(t)] : [];
      }),
      links: [],
      custom_fields: { ...c.custom_fields },
      created_at: c.created_at,
      updated_at: c.updated_at,
      is_private: c.is_private,
      scheduled_reminders: [],
      metadata: {},
      ...(c.type === 'task' ? { description: c.description, due_at: c.due_at } : {}),
    };
  }

  comment(c: SimComment): Obj {
    const author = c.authorId ? this.state.teammates.get(c.authorId) : undefined;
    return {
      _links: {
        self: this.url(`/comments/${c.id}`),
        related: { conversation: this.url(`/conversations/${c.conversationId}`), mentions: this.url(`/comments/${c.id}/mentions`), comment_replied_to: null },
      },
      id: c.id,
      // Comments posted by an API token are authored by the token's API bot.
      author: author ? this.teammate(author) : this.apiBot(),
      body: c.body,
      posted_at: c.posted_at,
      attachments: c.attachmentIds.flatMap((id) => {
        const a = this.state.attachments.get(id);
        return a ? [this.attachment(a)] : [];
      }),
      is_pinned: c.is_pinned,
    };
  }

  /** The bot teammate Front shows as the author of what an API token writes. */
  apiBot(): Obj {
    return {
      _links: { self: this.url('/teammates/tea_api') },
      id: 'tea_api',
      email: 'api@front.bot',
      username: 'api',
      first_name: 'API',
      last_name: 'Token',
      is_admin: false,
      is_available: false,
      is_blocked: false,
      type: 'api',
      license_type: 'full',
      custom_fields: {},
    };
  }

  message(m: SimMessage): Obj {
    const author = m.authorId ? this.state.teammates.get(m.authorId) : undefined;
    return {
      _links: {
        self: this.url(`/messages/${m.id}`),
        related: { conversation: this.url(`/conversations/${m.conversationId}`), message_seen: this.url(`/messages/${m.id}/seen`) },
      },
      id: m.id,
      message_uid: m.uid,
      type: m.type,
      is_inbound: m.is_inbound,
      draft_mode: null,
      created_at: m.created_at,
      subject: m.subject,
      blurb: m.text.slice(0, 100),
      author: author ? this.teammate(author) : null,
      recipients: m.recipients.map((r) => this.recipient(r)),
      body: m.body,
      text: m.text,
      attachments: m.attachmentIds.flatMap((id) => {
        const a = this.state.attachments.get(id);
        return a ? [this.attachment(a)] : [];
      }),
      metadata: {},
    };
  }

  event(e: SimEvent): Obj {
    const st = this.state;
    const c = st.conversations.get(e.conversationId) ?? st.tombstones.get(e.conversationId);
    const actor = e.sourceTeammateId ? st.teammates.get(e.sourceTeammateId) : undefined;
    let target: Obj | undefined;
    const t = e.target;
    if (t?.kind === 'teammate' && t.id && st.teammates.get(t.id)) target = { _meta: { type: 'teammate' }, data: this.teammate(st.teammates.get(t.id)!) };
    else if (t?.kind === 'tag' && t.id && st.tags.get(t.id)) target = { _meta: { type: 'tag' }, data: this.tag(st.tags.get(t.id)!) };
    else if (t?.kind === 'comment' && t.id && st.comments.get(t.id)) target = { _meta: { type: 'comment' }, data: this.comment(st.comments.get(t.id)!) };
    else if (t?.kind === 'message' && t.id && st.messages.get(t.id)) target = { _meta: { type: 'message' }, data: this.message(st.messages.get(t.id)!) };
    else if (t?.kind === 'inboxes') target = { _meta: { type: 'inboxes' }, data: (t.ids ?? []).flatMap((id) => (st.inboxes.get(id) ? [this.inbox(st.inboxes.get(id)!)] : [])) };
    else if (t?.kind === 'custom_field') target = { _meta: { type: 'custom_field' } };
    return {
      _links: { self: this.url(`/events/${e.id}`) },
      id: e.id,
      type: e.type,
      emitted_at: e.emitted_at,
      source: actor ? { _meta: { type: 'teammate' }, data: this.teammate(actor) } : { _meta: { type: 'api' } },
      ...(target ? { target } : {}),
      ...(c ? { conversation: this.conversation(c) } : {}),
    };
  }
}
