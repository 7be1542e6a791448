import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import {
  descriptionOf,
  planCreate,
  planUpdate,
  recipientContactId,
  statusUpdate,
  unifiedStatus,
  unifyConversation,
} from '../../../src/providers/front/ticket.mapper';
import type { FrConversation, FrTicketStatus } from '../../../src/providers/front/types';

const ids = idFactory('conn-1');

const conversation: FrConversation = {
  _links: { self: 'https://api2.frontapp.com/conversations/cnv_55c8c149' },
  id: 'cnv_55c8c149',
  type: 'conversation',
  subject: 'Where is my order?',
  status: 'assigned',
  status_id: 'sts_1',
  status_category: 'open',
  assignee: { id: 'tea_55c8c149', email: 'sam@acme.example', type: 'user' },
  recipient: { _links: { related: { contact: 'https://acme.api.frontapp.com/contacts/crd_55c8c149' } }, name: 'Casey', handle: 'casey@customer.example', role: 'from' },
  tags: [
    { id: 'tag_1', name: 'billing' },
    { id: 'tag_2', name: 'vip' },
  ],
  custom_fields: { 'Order number': 'ORD-7' },
  created_at: 1714558830.123,
  updated_at: 1714645230.5,
  is_private: false,
};

const statuses: FrTicketStatus[] = [
  { id: 'sts_open', name: 'Open', category: 'open' },
  { id: 'sts_progress', name: 'In progress', category: 'open' },
  { id: 'sts_wait', name: 'Waiting on customer', category: 'waiting' },
  { id: 'sts_done', name: 'Resolved', category: 'resolved' },
];

const expect422 = (fn: () => unknown, field: string) => {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, field).toBeInstanceOf(AppError);
  expect((err as AppError).status, `${field}: ${(err as Error).message}`).toBe(422);
  expect((err as AppError).details.field).toBe(field);
};

describe('unifyConversation', () => {
  it('maps every field and keeps the conversation as remote data', () => {
    const r = unifyConversation(conversation, ids, {
      inboxIds: ['inb_1', 'inb_2'],
      messages: [
        { id: 'msg_2', created_at: 1714558900, text: 'Second', is_inbound: false },
        { id: 'msg_1', created_at: 1714558830, text: 'It has been two weeks.', is_inbound: true },
      ],
      comments: [{ id: 'com_1', body: 'internal', posted_at: 1714558800 }],
    });
    expect(r.objectType).toBe('ticketing.ticket');
    expect(r.remoteId).toBe('cnv_55c8c149');
    expect(r.remoteData).toBe(conversation);
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-05-01T10:20:30.123Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-05-02T10:20:30.500Z');
    expect(r.deleted).toBeUndefined();
    expect(r.data).toEqual({
      name: 'Where is my order?',
      status: 'IN_PROGRESS',
      description: ['It has been two weeks.'],
      due_date: null,
      type: 'conversation',
      parent_ticket: null,
      project_id: ids('ticketing.collection', 'inb_1'),
      tags: ['billing', 'vip'],
      completed_at: null,
      priority: null,
      assigned_to: [ids('ticketing.user', 'tea_55c8c149')],
      account_id: null,
      contact_id: ids('ticketing.contact', 'crd_55c8c149'),
    });
  });

  it('reports a trashed conversation deleted, and leaves out what it does not know', () => {
    const r = unifyConversation({ id: 'cnv_1', status: 'deleted', subject: 'x', type: 'discussion' }, ids);
    expect(r.deleted).toBe(true);
    expect(r.data).toMatchObject({ status: 'CLOSED', project_id: null, assigned_to: [], tags: [], description: [], contact_id: null });
  });

  it('reads a task: its description and due date', () => {
    const r = unifyConversation({ id: 'cnv_t', type: 'task', subject: 'Call back', status: 'unassigned', description: 'Call Casey', due_at: 1893456000 }, ids);
    expect(r.data).toMatchObject({ type: 'task', description: ['Call Casey'], due_date: '2030-01-01T00:00:00.000Z', status: 'OPEN' });
  });
});

describe('unifiedStatus', () => {
  it.each([
    [{ status: 'unassigned' }, 'OPEN'],
    [{ status: 'assigned' }, 'IN_PROGRESS'],
    [{ status: 'archived' }, 'CLOSED'],
    [{ status: 'deleted' }, 'CLOSED'],
    [{ status: 'unassigned', status_category: 'open' }, 'OPEN'],
    [{ status: 'assigned', status_category: 'open' }, 'IN_PROGRESS'],
    [{ status: 'assigned', status_category: 'waiting' }, 'ON_HOLD'],
    [{ status: 'unassigned', status_category: 'waiting' }, 'ON_HOLD'],
    [{ status: 'archived', status_category: 'resolved' }, 'CLOSED'],
    [{ status: 'deleted', status_category: 'waiting' }, 'CLOSED'],
    [{ status: 'spam' }, null],
  ] as const)('%j → %s', (c, expected) => {
    expect(unifiedStatus(c as FrConversation)).toBe(expected);
  });
});

describe('descriptionOf', () => {
  it('is the first message of a conversation (text, else its HTML as text), ignoring drafts', () => {
    const c = { id: 'cnv_1', type: 'conversation' } as FrConversation;
    expect(
      descriptionOf(c, {
        messages: [
          { id: 'msg_d', created_at: 1, text: 'draft', draft_mode: 'private' },
          { id: 'msg_1', created_at: 2, body: '<p>Hello <b>there</b></p><p>Line&nbsp;2 &amp; more</p>' },
        ],
      }),
    ).toEqual(['Hello there\n\nLine 2 & more']);
  });
  it('is the opening comment of a discussion', () => {
    const c = { id: 'cnv_1', type: 'discussion' } as FrConversation;
    expect(
      descriptionOf(c, {
        comments: [
          { id: 'com_2', posted_at: 20, body: 'later' },
          { id: 'com_1', posted_at: 10, body: 'first' },
        ],
      }),
    ).toEqual(['first']);
  });
  it('is empty when there is nothing to read', () => {
    expect(descriptionOf({ id: 'cnv_1', type: 'conversation' }, {})).toEqual([]);
  });
});

describe('recipientContactId', () => {
  it('reads the contact id from the link, on any Front host', () => {
    expect(recipientContactId({ _links: { related: { contact: 'https://api2.frontapp.com/contacts/crd_abc' } } })).toBe('crd_abc');
    expect(recipientContactId({ _links: { related: { contact: null } } })).toBeNull();
    expect(recipientContactId(null)).toBeNull();
  });
});

describe('planCreate', () => {
  it('plans a discussion in an inbox: the description is the opening comment, later comments follow', () => {
    const plan = planCreate({
      name: 'Printer',
      description: ['It smokes.', 'Then flames.'],
      comment: ['first follow-up', 'second'],
      project_id: 'inb_1',
      tags: ['hardware'],
      assigned_to: ['tea_1'],
      status: 'closed',
    });
    expect(plan).toMatchObject({
      type: 'discussion',
      subject: 'Printer',
      inboxId: 'inb_1',
      starter: 'It smokes.\n\nThen flames.',
      laterComments: ['first follow-up', 'second'],
      assigneeId: 'tea_1',
      tags: ['hardware'],
      status: 'CLOSED',
    });
    expect(plan.teammateIds).toBeUndefined();
  });

  it('shares a discussion without an inbox with its assignee', () => {
    expect(planCreate({ name: 'x', description: ['y'], assigned_to: ['tea_1'] })).toMatchObject({ teammateIds: ['tea_1'], inboxId: undefined });
  });

  it('plans a message to a contact when contact_id is given', () => {
    const plan = planCreate({ name: 'Hi', description: ['Hello Casey'], contact_id: 'crd_1', project_id: 'inb_1', comment: ['internal note'] });
    expect(plan).toMatchObject({ type: 'conversation', contactId: 'crd_1', inboxId: 'inb_1', messageText: 'Hello Casey', laterComments: ['internal note'] });
  });

  it('plans a task with its description and due date', () => {
    const due = new Date(Date.now() + 86_400_000).toISOString();
    const plan = planCreate({ name: 'Call back', type: 'Task', description: ['Call Casey'], due_date: due, project_id: 'inb_1' });
    expect(plan).toMatchObject({ type: 'task', taskDescription: 'Call Casey', dueAt: Date.parse(due) / 1000, starter: undefined });
  });

  it('refuses what Front conversations do not have, naming the field', () => {
    const base = { name: 'x', description: ['y'], project_id: 'inb_1' };
    expect422(() => planCreate({ ...base, priority: 'HIGH' }), 'priority');
    expect422(() => planCreate({ ...base, parent_ticket: 'cnv_1' }), 'parent_ticket');
    expect422(() => planCreate({ ...base, account_id: 'acc_1' }), 'account_id');
    expect422(() => planCreate({ ...base, completed_at: '2024-01-01T00:00:00Z' }), 'completed_at');
    expect422(() => planCreate({ ...base, due_date: '2030-01-01T00:00:00Z' }), 'due_date');
    expect422(() => planCreate({ ...base, type: 'incident' }), 'type');
    expect422(() => planCreate({ ...base, type: 'discussion', contact_id: 'crd_1' }), 'contact_id');
    expect422(() => planCreate({ ...base, type: 'conversation' }), 'contact_id');
    expect422(() => planCreate({ name: 'x', description: ['y'], contact_id: 'crd_1' }), 'project_id');
    expect422(() => planCreate({ name: 'x', description: ['y'] }), 'project_id');
    expect422(() => planCreate({ ...base, assigned_to: ['tea_1', 'tea_2'] }), 'assigned_to');
    expect422(() => planCreate({ ...base, status: 'IN_PROGRESS' }), 'status');
    expect422(() => planCreate({ ...base, type: 'task', due_date: '2001-01-01T00:00:00Z' }), 'due_date');
  });

  it('answers 400 for a discussion without subject or opening comment, and for an unknown status', () => {
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as AppError;
      }
      throw new Error('no error');
    };
    expect(err(() => planCreate({ description: ['y'], project_id: 'inb_1' })).details.field).toBe('name');
    expect(err(() => planCreate({ name: 'x', project_id: 'inb_1' })).details.field).toBe('description');
    expect(err(() => planCreate({ name: 'x', contact_id: 'crd_1', project_id: 'inb_1' })).details.field).toBe('description');
    expect(err(() => planCreate({ name: 'x', description: ['y'], project_id: 'inb_1', status: 'NOPE' })).status).toBe(400);
    expect(err(() => planCreate({ name: 'x', description: ['y'], project_id: 'not an id' })).status).toBe(422);
  });
});

describe('planUpdate', () => {
  const current: FrConversation = { id: 'cnv_1', type: 'discussion', subject: 'Printer', status: 'unassigned', assignee: null };

  it('plans assignee, inbox, tags and status', () => {
    expect(planUpdate({ assigned_to: ['tea_1'], project_id: 'inb_2', tags: ['a'], status: 'IN_PROGRESS' }, current)).toEqual({
      assigneeId: 'tea_1',
      inboxId: 'inb_2',
      tags: ['a'],
      status: 'IN_PROGRESS',
      customFields: [],
    });
    expect(planUpdate({ assigned_to: [] }, { ...current, assignee: { id: 'tea_1' } })).toMatchObject({ assigneeId: null });
    // The same name is not a change.
    expect(planUpdate({ name: 'Printer' }, current)).toEqual({ customFields: [] });
  });

  it('changes the description and due date of a task', () => {
    const due = new Date(Date.now() + 86_400_000).toISOString();
    expect(planUpdate({ description: ['New'], due_date: due }, { ...current, type: 'task' })).toMatchObject({ taskDescription: 'New', dueAt: Date.parse(due) / 1000 });
    expect(planUpdate({ description: [] }, { ...current, type: 'task' })).toMatchObject({ taskDescription: null });
  });

  it('refuses what cannot change, naming the field', () => {
    expect422(() => planUpdate({ name: 'Renamed' }, current), 'name');
    expect422(() => planUpdate({ type: 'task' }, current), 'type');
    expect422(() => planUpdate({ contact_id: 'crd_9' }, current), 'contact_id');
    expect422(() => planUpdate({ description: ['x'] }, current), 'description');
    expect422(() => planUpdate({ due_date: '2031-01-01T00:00:00Z' }, current), 'due_date');
    expect422(() => planUpdate({ status: 'IN_PROGRESS' }, current), 'status');
    expect422(() => planUpdate({ status: 'IN_PROGRESS', assigned_to: [] }, { ...current, assignee: { id: 'tea_1' } }), 'status');
    expect422(() => planUpdate({ priority: 'LOW' }, current), 'priority');
  });

  it('accepts IN_PROGRESS on a conversation that is already assigned', () => {
    expect(planUpdate({ status: 'in_progress' }, { ...current, assignee: { id: 'tea_1' } })).toMatchObject({ status: 'IN_PROGRESS' });
  });
});

describe('statusUpdate', () => {
  it('uses ticketing statuses when the company has them', () => {
    expect(statusUpdate('OPEN', statuses)).toEqual({ status_id: 'sts_open' });
    expect(statusUpdate('IN_PROGRESS', statuses)).toEqual({ status_id: 'sts_open' });
    expect(statusUpdate('ON_HOLD', statuses)).toEqual({ status_id: 'sts_wait' });
    expect(statusUpdate('CLOSED', statuses)).toEqual({ status_id: 'sts_done' });
  });
  it('reopens and archives without ticketing, and refuses ON_HOLD', () => {
    expect(statusUpdate('OPEN', null)).toEqual({ status: 'open' });
    expect(statusUpdate('IN_PROGRESS', null)).toEqual({ status: 'open' });
    expect(statusUpdate('CLOSED', null)).toEqual({ status: 'archived' });
    expect422(() => statusUpdate('ON_HOLD', null), 'status');
    expect422(() => statusUpdate('ON_HOLD', [{ id: 'sts_open', category: 'open' }]), 'status');
  });
});
