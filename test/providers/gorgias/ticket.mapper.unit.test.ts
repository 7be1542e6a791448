import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import {
  GORGIAS_CHANNELS,
  PRIORITY_TO_GORGIAS,
  PRIORITY_TO_UNIFIED,
  STATUS_TO_GORGIAS,
  STATUS_TO_UNIFIED,
  desunifyTicket,
  unifyTicket,
} from '../../../src/providers/gorgias/ticket.mapper';
import type { GgTicket } from '../../../src/providers/gorgias/types';
import type { TicketWrite } from '../../../src/providers/types';

const ids = idFactory('conn-1');

/** Shaped after the reference's Ticket example object. */
const full: GgTicket = {
  id: 123,
  uri: '/api/tickets/123/',
  external_id: 'RETURN#4213',
  status: 'closed',
  priority: 'high',
  channel: 'email',
  via: 'email',
  from_agent: false,
  spam: false,
  customer: { id: 3924, email: 'john@example.com', name: 'John Smith' },
  assignee_user: { id: 4, email: 'steve@company.com', name: 'Steve Frazelli' },
  assignee_team: { id: 2, name: 'Tier 1' },
  subject: 'Refund request',
  tags: [
    { id: 1, name: 'refund', uri: '/api/tags/1/' },
    { id: 2, name: 'vip', uri: '/api/tags/2/' },
  ],
  custom_fields: { '17': { id: 17, value: 'ORD-7' } },
  messages: [
    { id: 502, ticket_id: 123, from_agent: true, body_text: 'We are on it.', created_datetime: '2019-07-05T15:00:00.000000' },
    { id: 501, ticket_id: 123, from_agent: false, body_text: 'My parcel never arrived.', created_datetime: '2019-07-05T14:42:00.384938' },
  ],
  created_datetime: '2019-07-05T14:42:00.384938',
  updated_datetime: '2019-07-06T09:00:00.000000',
  closed_datetime: '2019-07-06T09:00:00.000000',
  snooze_datetime: null,
  trashed_datetime: null,
};

describe('unifyTicket', () => {
  it('maps every field and keeps the Gorgias object as remote data', () => {
    const r = unifyTicket(full, ids);
    expect(r.objectType).toBe('ticketing.ticket');
    expect(r.remoteId).toBe('123');
    expect(r.remoteData).toBe(full);
    // Zoneless Gorgias datetimes are UTC, not local time.
    expect(r.remoteCreatedAt?.toISOString()).toBe('2019-07-05T14:42:00.384Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2019-07-06T09:00:00.000Z');
    expect(r.deleted).toBeUndefined();
    expect(r.data).toEqual({
      name: 'Refund request',
      status: 'CLOSED',
      // The first message by creation time, whatever the array order.
      description: ['My parcel never arrived.'],
      due_date: null,
      type: 'email',
      parent_ticket: null,
      project_id: null,
      tags: ['refund', 'vip'],
      completed_at: '2019-07-06T09:00:00.000Z',
      priority: 'HIGH',
      assigned_to: [ids('ticketing.user', 4)],
      account_id: null,
      contact_id: ids('ticketing.contact', 3924),
    });
  });

  it('reads a snoozed ticket as ON_HOLD, a trashed one as deleted, and flat ids when objects are absent', () => {
    const r = unifyTicket(
      { id: 9, status: 'closed', snooze_datetime: '2030-01-01T00:00:00', trashed_datetime: '2024-01-01T00:00:00', customer_id: 5, assignee_user_id: 6 },
      ids,
    );
    expect(r.data).toMatchObject({
      status: 'ON_HOLD',
      completed_at: null,
      description: [],
      assigned_to: [ids('ticketing.user', 6)],
      contact_id: ids('ticketing.contact', 5),
    });
    expect(r.deleted).toBe(true);
  });

  it('answers unknown enumerations and missing values with null, never a guess', () => {
    const r = unifyTicket({ id: 1, status: 'weird', priority: 'meh', customer: null, assignee_user: null, tags: null }, ids);
    expect(r.data).toMatchObject({ status: null, priority: null, contact_id: null, assigned_to: [], tags: [], name: null, type: null });
  });

  it('takes the text of an HTML-only first message', () => {
    const r = unifyTicket({ id: 1, messages: [{ id: 1, body_html: '<p>Hello <b>there</b></p><p>Bye</p>' }] }, ids);
    expect(r.data.description).toEqual(['Hello there\n\nBye']);
  });

  it('maps the status and priority tables both ways', () => {
    expect(STATUS_TO_UNIFIED).toEqual({ open: 'OPEN', closed: 'CLOSED' });
    expect(STATUS_TO_GORGIAS).toEqual({ OPEN: 'open', CLOSED: 'closed' });
    for (const [g, u] of Object.entries(PRIORITY_TO_UNIFIED)) expect(PRIORITY_TO_GORGIAS[u]).toBe(g);
    expect(PRIORITY_TO_GORGIAS).toEqual({ URGENT: 'critical', HIGH: 'high', MEDIUM: 'normal', LOW: 'low' });
  });
});

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

describe('desunifyTicket', () => {
  const agent = { agent: { email: 'api@acme.example' } };

  it('creates a ticket whose first message is the description, from the contact, followed by agent comments', () => {
    const input: TicketWrite = {
      name: 'Printer on fire',
      status: 'OPEN',
      priority: 'URGENT',
      type: 'Chat',
      description: ['It started smoking.', 'Then flames.'],
      comment: ['On our way', '  '],
      tags: ['hardware', 'hardware', 'urgent'],
      assigned_to: ['4'],
      contact_id: '3924',
      customFields: [{ remoteFieldId: '17', value: 'ORD-1' }],
    };
    const { body, customFields, laterComments } = desunifyTicket(input, 'create', agent);
    expect(laterComments).toEqual([]);
    expect(customFields).toEqual([{ id: 17, value: 'ORD-1' }]);
    expect(body).toEqual({
      subject: 'Printer on fire',
      status: 'open',
      priority: 'critical',
      channel: 'chat',
      via: 'api',
      from_agent: false,
      customer: { id: 3924 },
      assignee_user: { id: 4 },
      tags: [{ name: 'hardware' }, { name: 'urgent' }],
      custom_fields: [{ id: 17, value: 'ORD-1' }],
      messages: [
        {
          channel: 'api',
          via: 'api',
          from_agent: false,
          public: true,
          sender: { id: 3924 },
          body_text: 'It started smoking.\n\nThen flames.',
          body_html: '<p>It started smoking.</p><p>Then flames.</p>',
        },
        {
          channel: 'api',
          via: 'api',
          from_agent: true,
          public: true,
          sender: { email: 'api@acme.example' },
          receiver: { id: 3924 },
          body_text: 'On our way',
          body_html: '<p>On our way</p>',
        },
      ],
    });
  });

  it('without a contact, the connection user opens the ticket on the api channel; a first comment can stand in for the description', () => {
    const { body } = desunifyTicket({ name: 'x', comment: ['First <words>', 'Second'] }, 'create', agent);
    expect(body.channel).toBe('api');
    expect(body.from_agent).toBe(true);
    expect(body.customer).toBeUndefined();
    expect(body.messages?.map((m) => [m.from_agent, m.body_text, m.sender])).toEqual([
      [true, 'First <words>', { email: 'api@acme.example' }],
      [true, 'Second', { email: 'api@acme.example' }],
    ]);
    expect(body.messages?.[0]?.body_html).toBe('<p>First &lt;words&gt;</p>');
  });

  it('refuses a ticket without any message', () => {
    const e = refusal(() => desunifyTicket({ name: 'x', description: ['  '] }, 'create', agent));
    expect(e.code).toBe('validation_failed');
    expect(e.details.field).toBe('description');
  });

  it('refuses, naming the field, everything Gorgias has no place for', () => {
    const cases: Array<[keyof TicketWrite, unknown]> = [
      ['project_id', '1'],
      ['account_id', '1'],
      ['parent_ticket', '1'],
      ['due_date', '2030-01-01T00:00:00Z'],
      ['completed_at', '2030-01-01T00:00:00Z'],
    ];
    for (const [field, value] of cases) {
      const e = refusal(() => desunifyTicket({ description: ['d'], [field]: value }, 'create', agent));
      expect(e.code, field).toBe('unsupported_by_provider');
      expect(e.status).toBe(422);
      expect(e.details.field).toBe(field);
    }
  });

  it('refuses statuses Gorgias does not have, a second assignee, an unknown channel and a non-Gorgias id', () => {
    for (const status of ['IN_PROGRESS', 'ON_HOLD']) {
      const e = refusal(() => desunifyTicket({ status }, 'update'));
      expect(e.details).toMatchObject({ field: 'status', allowed: ['OPEN', 'CLOSED'] });
    }
    expect(refusal(() => desunifyTicket({ assigned_to: ['1', '2'] }, 'update')).details.field).toBe('assigned_to');
    const type = refusal(() => desunifyTicket({ type: 'incident' }, 'update'));
    expect(type.details.field).toBe('type');
    expect(type.details.allowed).toEqual([...GORGIAS_CHANNELS]);
    const id = refusal(() => desunifyTicket({ contact_id: 'abc' }, 'update'));
    expect(id).toMatchObject({ code: 'unknown_reference', details: { field: 'contact_id' } });
  });

  it('updates only what is given: unassigns with an empty list, keeps custom fields apart, refuses a new description', () => {
    const { body, customFields, laterComments } = desunifyTicket(
      { name: 'New', status: 'CLOSED', assigned_to: [], tags: [], customFields: [{ remoteFieldId: '3', value: null }], comment: ['Done'] },
      'update',
    );
    expect(body).toEqual({ subject: 'New', status: 'closed', assignee_user: null, tags: [] });
    expect(customFields).toEqual([{ id: 3, value: null }]);
    expect(laterComments).toEqual(['Done']);
    expect(refusal(() => desunifyTicket({ description: ['x'] }, 'update')).details.field).toBe('description');
  });
});
