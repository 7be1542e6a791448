import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { activityObjectType } from '../../../src/providers/pipedrive/activity';
import { desunifyEngagement, unifyEngagement } from '../../../src/providers/pipedrive/engagement.mapper';
import { desunifyNote, unifyNote } from '../../../src/providers/pipedrive/note.mapper';
import { unifyStage } from '../../../src/providers/pipedrive/stage.mapper';
import { desunifyTask, unifyTask } from '../../../src/providers/pipedrive/task.mapper';
import { unifyUser } from '../../../src/providers/pipedrive/user.mapper';
import type { PdActivity } from '../../../src/providers/pipedrive/types';

const ids = idFactory('conn-1');

function error(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected an error');
}

const base: PdActivity = {
  id: 10,
  subject: 'Call Ada',
  type: 'call',
  owner_id: 1,
  deal_id: 5,
  person_id: 7,
  org_id: 3,
  due_date: '2025-03-01',
  due_time: '09:30',
  duration: '00:45',
  done: false,
  marked_as_done_time: null,
  note: '<p>notes</p>',
  participants: [
    { person_id: 8, primary: false },
    { person_id: 7, primary: true },
  ],
  add_time: '2025-01-01T00:00:00Z',
  update_time: '2025-01-02T00:00:00Z',
  is_deleted: false,
};

describe('pipedrive activities → tasks and engagements', () => {
  it('classifies activity types', () => {
    expect(['call', 'meeting', 'lunch', 'email'].map(activityObjectType)).toEqual(Array(4).fill('crm.engagement'));
    expect(['task', 'deadline', 'custom_type', null].map(activityObjectType)).toEqual(Array(4).fill('crm.task'));
  });

  it('reads an engagement: type, times from due date/time and duration, participants (primary first)', () => {
    const r = unifyEngagement(base, ids);
    expect(r.objectType).toBe('crm.engagement');
    expect(r.data).toEqual({
      type: 'CALL',
      subject: 'Call Ada',
      content: '<p>notes</p>',
      direction: null,
      start_at: '2025-03-01T09:30:00.000Z',
      end_time: '2025-03-01T10:15:00.000Z',
      user_id: ids('crm.user', 1),
      company_id: ids('crm.company', 3),
      contact_ids: [ids('crm.contact', 7), ids('crm.contact', 8)],
    });
    expect(unifyEngagement({ ...base, type: 'lunch', due_time: null, participants: [] }, ids).data).toMatchObject({
      type: 'MEETING',
      start_at: '2025-03-01T00:00:00.000Z',
      end_time: null,
      contact_ids: [ids('crm.contact', 7)],
    });
  });

  it('writes an engagement', () => {
    expect(
      desunifyEngagement(
        { type: 'MEETING', subject: 'Demo', content: 'agenda', start_at: '2025-03-01T11:30:00+02:00', end_time: '2025-03-01T11:00:00Z', user_id: '1', company_id: '3', contact_ids: ['7', '8'] },
        null,
      ),
    ).toEqual({
      type: 'meeting',
      subject: 'Demo',
      note: 'agenda',
      due_date: '2025-03-01',
      due_time: '09:30',
      duration: '01:30',
      owner_id: 1,
      org_id: 3,
      participants: [
        { person_id: 7, primary: true },
        { person_id: 8, primary: false },
      ],
    });
    // a new end time alone: duration from the current start
    expect(desunifyEngagement({ end_time: '2025-03-01T10:00:00Z' }, '2025-03-01T09:30:00.000Z')).toEqual({ duration: '00:30' });
  });

  it('refuses a direction, an end before the start, 24 hours or more, and an end without a start', () => {
    expect(error(() => desunifyEngagement({ direction: 'INBOUND' }, null))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'direction' } });
    expect(error(() => desunifyEngagement({ start_at: '2025-03-01T10:00:00Z', end_time: '2025-03-01T09:00:00Z' }, null))).toMatchObject({ code: 'validation_failed', details: { field: 'end_time' } });
    expect(error(() => desunifyEngagement({ start_at: '2025-03-01T10:00:00Z', end_time: '2025-03-02T10:00:00Z' }, null))).toMatchObject({ code: 'unsupported_by_provider' });
    expect(error(() => desunifyEngagement({ end_time: '2025-03-02T10:00:00Z' }, null))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'end_time' } });
  });

  it('reads and writes a task', () => {
    const done = { ...base, type: 'task', done: true, marked_as_done_time: '2025-03-02T08:00:00Z' };
    expect(unifyTask(done, ids).data).toEqual({
      subject: 'Call Ada',
      content: '<p>notes</p>',
      status: 'COMPLETED',
      due_date: '2025-03-01T09:30:00.000Z',
      finished_date: '2025-03-02T08:00:00.000Z',
      user_id: ids('crm.user', 1),
      company_id: ids('crm.company', 3),
      contact_id: ids('crm.contact', 7),
      deal_id: ids('crm.deal', 5),
    });
    expect(unifyTask({ ...done, done: false, due_date: null }, ids).data).toMatchObject({ status: 'PENDING', due_date: null });
    expect(desunifyTask({ subject: 'Send offer', content: 'x', status: 'PENDING', due_date: '2025-03-05T16:00:00Z', user_id: '1', company_id: '3', contact_id: '7', deal_id: '5' }, true)).toEqual({
      type: 'task',
      subject: 'Send offer',
      note: 'x',
      done: false,
      due_date: '2025-03-05',
      due_time: '16:00',
      owner_id: 1,
      org_id: 3,
      participants: [{ person_id: 7, primary: true }],
      deal_id: 5,
    });
    expect(desunifyTask({ status: 'COMPLETED' }, false)).toEqual({ done: true });
    expect(error(() => desunifyTask({ finished_date: '2025-03-05T16:00:00Z' }, false))).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'finished_date' } });
  });
});

describe('pipedrive notes, users and stages', () => {
  it('maps notes both ways; a new note needs a deal, contact or company', () => {
    const r = unifyNote({ id: 4, content: '<p>Hi</p>', user_id: 1, deal_id: null, person_id: 7, org_id: null, add_time: '2025-01-01 10:00:00', update_time: '2025-01-02 11:00:00', active_flag: true }, ids);
    expect(r.data).toEqual({ content: '<p>Hi</p>', user_id: ids('crm.user', 1), company_id: null, contact_id: ids('crm.contact', 7), deal_id: null });
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2025-01-02T11:00:00.000Z');
    expect(desunifyNote({ content: 'x', contact_id: '7', deal_id: '5', company_id: '3', user_id: '1' }, true)).toEqual({ content: 'x', person_id: 7, deal_id: 5, org_id: 3, user_id: 1 });
    expect(error(() => desunifyNote({ content: 'x' }, true))).toMatchObject({ code: 'validation_failed', details: { field: 'deal_id' } });
    expect(desunifyNote({ content: 'y' }, false)).toEqual({ content: 'y' });
  });

  it('maps users and stages', () => {
    expect(unifyUser({ id: 1, name: 'Ada', email: 'ada@example.com', created: '2024-01-01 00:00:00', modified: null, is_deleted: false })).toMatchObject({
      objectType: 'crm.user',
      remoteId: '1',
      data: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(unifyUser({ id: 2, is_deleted: true }).deleted).toBe(true);
    expect(unifyStage({ id: 3, name: 'Demo', pipeline_id: 1 }, new Map([[1, 'Sales']])).data).toEqual({ name: 'Demo', pipeline_id: '1', pipeline_name: 'Sales' });
  });
});
