import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { AppError } from '../../../src/core/errors';
import {
  PRIORITY_TO_UNIFIED,
  PRIORITY_TO_ZENDESK,
  STATUS_TO_UNIFIED,
  STATUS_TO_ZENDESK,
  desunifyTicket,
  unifyTicket,
} from '../../../src/providers/zendesk/ticket.mapper';
import type { ZdTicket } from '../../../src/providers/zendesk/types';

const ids = idFactory('conn-1');

const full: ZdTicket = {
  id: 35436,
  subject: 'Help, my printer is on fire!',
  raw_subject: 'Help, my printer is on fire!',
  description: 'The fire is very colorful.',
  status: 'open',
  priority: 'high',
  type: 'incident',
  requester_id: 20978392,
  submitter_id: 76872,
  assignee_id: 235323,
  organization_id: 509974,
  group_id: 98738,
  problem_id: 9873764,
  due_at: '2024-05-20T22:00:00Z',
  tags: ['enterprise', 'other_tag'],
  custom_fields: [{ id: 27642, value: '745' }],
  created_at: '2024-05-01T10:20:30Z',
  updated_at: '2024-05-02T11:00:00Z',
};

describe('unifyTicket', () => {
  it('maps every field and keeps the Zendesk object as remote data', () => {
    const r = unifyTicket(full, ids);
    expect(r.objectType).toBe('ticketing.ticket');
    expect(r.remoteId).toBe('35436');
    expect(r.remoteData).toBe(full);
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-05-01T10:20:30.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-05-02T11:00:00.000Z');
    expect(r.deleted).toBeUndefined();
    expect(r.data).toEqual({
      name: 'Help, my printer is on fire!',
      status: 'OPEN',
      description: ['The fire is very colorful.'],
      due_date: '2024-05-20T22:00:00.000Z',
      type: 'incident',
      parent_ticket: ids('ticketing.ticket', 9873764),
      project_id: null,
      tags: ['enterprise', 'other_tag'],
      completed_at: null,
      priority: 'HIGH',
      assigned_to: [ids('ticketing.user', 235323)],
      account_id: ids('ticketing.account', 509974),
      contact_id: ids('ticketing.contact', 20978392),
    });
  });

  it('maps nulls and missing fields to null / empty arrays', () => {
    const r = unifyTicket({ id: 1, status: null, priority: null, type: null, tags: null, description: '', requester_id: null }, ids);
    expect(r.data).toEqual({
      name: null,
      status: null,
      description: [],
      due_date: null,
      type: null,
      parent_ticket: null,
      project_id: null,
      tags: [],
      completed_at: null,
      priority: null,
      assigned_to: [],
      account_id: null,
      contact_id: null,
    });
    expect(r.remoteCreatedAt).toBeNull();
  });

  it.each([
    ['new', 'OPEN'],
    ['open', 'OPEN'],
    ['pending', 'IN_PROGRESS'],
    ['hold', 'ON_HOLD'],
    ['solved', 'CLOSED'],
    ['closed', 'CLOSED'],
    ['something-else', null],
  ])('status %s → %s', (zd, unified) => {
    expect(unifyTicket({ id: 1, status: zd }, ids).data.status).toBe(unified);
  });

  it.each([
    ['urgent', 'URGENT'],
    ['high', 'HIGH'],
    ['normal', 'MEDIUM'],
    ['low', 'LOW'],
  ])('priority %s → %s', (zd, unified) => {
    expect(unifyTicket({ id: 1, priority: zd }, ids).data.priority).toBe(unified);
  });

  it('marks tickets the export reports deleted', () => {
    const r = unifyTicket({ id: 7, status: 'deleted' }, ids);
    expect(r.deleted).toBe(true);
    expect(r.data.status).toBeNull();
  });

  it('leaves contact_id empty when the requester is known to be an agent', () => {
    expect(unifyTicket(full, ids, { roleOf: () => 'agent' }).data.contact_id).toBeNull();
    expect(unifyTicket(full, ids, { roleOf: () => 'end-user' }).data.contact_id).toBe(ids('ticketing.contact', 20978392));
  });

  it('takes completed_at from the solved time of a closed ticket only', () => {
    expect(unifyTicket({ ...full, status: 'solved' }, ids, { solvedAt: '2024-05-03T08:00:00Z' }).data.completed_at).toBe('2024-05-03T08:00:00.000Z');
    expect(unifyTicket({ ...full, status: 'open' }, ids, { solvedAt: '2024-05-03T08:00:00Z' }).data.completed_at).toBeNull();
  });
});

describe('desunifyTicket', () => {
  it('maps every writable field on create, with the description as opening comment', () => {
    const { body, laterComments } = desunifyTicket(
      {
        name: 'Subject',
        status: 'ON_HOLD',
        description: ['First paragraph.', 'Second paragraph.'],
        due_date: '2024-06-01T12:00:00Z',
        type: 'Task',
        parent_ticket: '42',
        tags: ['a', 'b'],
        priority: 'MEDIUM',
        assigned_to: ['1001'],
        comment: ['a follow-up', 'another one'],
        account_id: '2002',
        contact_id: '3003',
        customFields: [{ remoteFieldId: '4004', value: 'x' }],
      },
      'create',
    );
    expect(body).toEqual({
      subject: 'Subject',
      status: 'hold',
      priority: 'normal',
      type: 'task',
      due_at: '2024-06-01T12:00:00Z',
      problem_id: 42,
      tags: ['a', 'b'],
      assignee_id: 1001,
      organization_id: 2002,
      requester_id: 3003,
      custom_fields: [{ id: 4004, value: 'x' }],
      comment: { body: 'First paragraph.\n\nSecond paragraph.' },
    });
    expect(laterComments).toEqual(['a follow-up', 'another one']);
  });

  it('uses the first comment as opening comment when there is no description', () => {
    const { body, laterComments } = desunifyTicket({ name: 'x', comment: ['one', 'two'] }, 'create');
    expect(body.comment).toEqual({ body: 'one' });
    expect(laterComments).toEqual(['two']);
  });

  it.each(Object.entries(STATUS_TO_ZENDESK))('status %s → %s, and back to the same unified value', (unified, zd) => {
    expect(desunifyTicket({ status: unified }, 'update').body.status).toBe(zd);
    expect(STATUS_TO_UNIFIED[zd]).toBe(unified);
  });

  it.each(Object.entries(PRIORITY_TO_ZENDESK))('priority %s → %s and back', (unified, zd) => {
    expect(desunifyTicket({ priority: unified }, 'update').body.priority).toBe(zd);
    expect(PRIORITY_TO_UNIFIED[zd]).toBe(unified);
  });

  it('sends only the fields given on update; an empty assigned_to unassigns', () => {
    expect(desunifyTicket({ priority: 'LOW' }, 'update')).toEqual({ body: { priority: 'low' }, laterComments: [] });
    expect(desunifyTicket({ assigned_to: [] }, 'update').body).toEqual({ assignee_id: null });
    expect(desunifyTicket({}, 'update')).toEqual({ body: {}, laterComments: [] });
  });

  it('refuses what Zendesk cannot take, naming the field', () => {
    const refused = (input: Parameters<typeof desunifyTicket>[0], mode: 'create' | 'update', field: string) => {
      try {
        desunifyTicket(input, mode);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).status).toBe(422);
        expect((e as AppError).code).toBe('unsupported_by_provider');
        expect((e as AppError).details.field).toBe(field);
        return;
      }
      throw new Error(`expected ${field} to be refused`);
    };
    refused({ project_id: 'p' }, 'create', 'project_id');
    refused({ completed_at: '2024-01-01T00:00:00Z' }, 'update', 'completed_at');
    refused({ assigned_to: ['1', '2'] }, 'create', 'assigned_to');
    refused({ description: ['new text'] }, 'update', 'description');
    refused({ type: 'bug' }, 'create', 'type');
  });

  it('refuses unknown enum values and non-Zendesk ids', () => {
    expect(() => desunifyTicket({ status: 'DONE' }, 'update')).toThrow(/status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED/);
    expect(() => desunifyTicket({ priority: 'P1' }, 'update')).toThrow(/priority must be one of/);
    expect(() => desunifyTicket({ contact_id: 'abc' }, 'update')).toThrow(/contact_id/);
  });
});

describe('desunifyTicket without an opening comment', () => {
  it('refuses a new ticket with neither description nor comment, naming description', () => {
    expect(() => desunifyTicket({ name: 'x' }, 'create')).toThrow(expect.objectContaining({ status: 400, details: expect.objectContaining({ field: 'description' }) }));
    expect(desunifyTicket({ name: 'x', comment: ['first'] }, 'create').body.comment).toEqual({ body: 'first' });
  });
});
