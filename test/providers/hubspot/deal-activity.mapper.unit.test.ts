import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyDeal, unifyDeal } from '../../../src/providers/hubspot/deal.mapper';
import { desunifyEngagement, emailDirection, hsEmailDirection, unifyEngagement } from '../../../src/providers/hubspot/engagement.mapper';
import { desunifyNote, unifyNote } from '../../../src/providers/hubspot/note.mapper';
import { unifyStage } from '../../../src/providers/hubspot/stage.mapper';
import { desunifyTask, hsTaskStatus, taskStatus, unifyTask } from '../../../src/providers/hubspot/task.mapper';
import { unifyOwner } from '../../../src/providers/hubspot/user.mapper';

const ids = idFactory('conn-1');
const now = new Date('2025-01-02T03:04:05.000Z');

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('deals', () => {
  const deal = {
    id: '9000001',
    properties: {
      dealname: 'Big one',
      description: 'desc',
      amount: '1234.50',
      deal_currency_code: 'EUR',
      dealstage: 'qualifiedtobuy',
      pipeline: 'default',
      closedate: '2025-03-01T00:00:00Z',
      hubspot_owner_id: '101',
    },
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-02T00:00:00Z',
  };

  it('reads the amount exactly, the stage, the primary company and every contact', () => {
    const r = unifyDeal(
      deal,
      {
        companies: [{ id: '5000002', primary: false }, { id: '5000001', primary: true }],
        contacts: [{ id: '1001', primary: false }, { id: '1002', primary: false }],
      },
      ids,
    );
    expect(r.data).toEqual({
      name: 'Big one',
      description: 'desc',
      amount: '1234.50',
      currency: 'EUR',
      stage_id: ids('crm.stage', 'qualifiedtobuy'),
      user_id: ids('crm.user', '101'),
      company_id: ids('crm.company', '5000001'),
      contact_ids: [ids('crm.contact', '1001'), ids('crm.contact', '1002')],
      close_date: '2025-03-01T00:00:00.000Z',
    });
  });

  it('writes every field; a date-only close date is midnight UTC', () => {
    const d = desunifyDeal({
      name: 'N',
      description: 'D',
      amount: '1234.56',
      currency: 'USD',
      stage_id: 'closedwon',
      user_id: '101',
      company_id: '5000001',
      contact_ids: ['1001', '1002', '1001'],
      close_date: '2025-04-01',
    });
    expect(d.properties).toEqual({
      dealname: 'N',
      description: 'D',
      amount: '1234.56',
      deal_currency_code: 'USD',
      dealstage: 'closedwon',
      hubspot_owner_id: '101',
      closedate: '2025-04-01T00:00:00.000Z',
    });
    expect(d.intents).toEqual([
      { field: 'company_id', toType: 'companies', ids: ['5000001'], mode: 'primary' },
      { field: 'contact_ids', toType: 'contacts', ids: ['1001', '1002'], mode: 'replace' },
    ]);
  });
});

describe('notes and tasks', () => {
  it('note: body, owner and first associated records; hs_timestamp set on create', () => {
    const r = unifyNote(
      { id: '20000001', properties: { hs_note_body: '<p>Hi</p>', hubspot_owner_id: '101', hs_createdate: '2024-01-01T00:00:00Z' } },
      { contacts: [{ id: '1001', primary: false }], deals: [{ id: '9000001', primary: false }] },
      ids,
    );
    expect(r.data).toEqual({ content: '<p>Hi</p>', user_id: ids('crm.user', '101'), company_id: null, contact_id: ids('crm.contact', '1001'), deal_id: ids('crm.deal', '9000001') });
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    const d = desunifyNote({ content: 'x', contact_id: '1001', deal_id: '9000001' }, { mode: 'create', now });
    expect(d.properties).toEqual({ hs_note_body: 'x', hs_timestamp: now.toISOString() });
    expect(d.intents.map((i) => [i.toType, i.ids, i.mode])).toEqual([
      ['contacts', ['1001'], 'replace'],
      ['deals', ['9000001'], 'replace'],
    ]);
    expect(desunifyNote({ content: 'y' }, { mode: 'update', now }).properties).toEqual({ hs_note_body: 'y' });
  });

  it('task status both ways', () => {
    expect(['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'DEFERRED', 'COMPLETED'].map((s) => taskStatus(s))).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING', 'COMPLETED']);
    expect(taskStatus(null)).toBeNull();
    expect([hsTaskStatus('PENDING'), hsTaskStatus('COMPLETED')]).toEqual(['NOT_STARTED', 'COMPLETED']);
  });

  it('task: due date is hs_timestamp; finished_date is read-only', () => {
    const r = unifyTask(
      { id: '30000001', properties: { hs_task_subject: 'Call back', hs_task_body: 'b', hs_task_status: 'WAITING', hs_timestamp: '2025-02-01T09:00:00Z', hs_task_completion_date: null } },
      { companies: [{ id: '5000001', primary: false }] },
      ids,
    );
    expect(r.data).toMatchObject({ subject: 'Call back', content: 'b', status: 'PENDING', due_date: '2025-02-01T09:00:00.000Z', finished_date: null, company_id: ids('crm.company', '5000001') });
    expect(desunifyTask({ subject: 's', status: 'COMPLETED', due_date: '2025-02-01T09:00:00+01:00' }, { mode: 'create', now }).properties).toEqual({
      hs_task_subject: 's',
      hs_task_status: 'COMPLETED',
      hs_timestamp: '2025-02-01T08:00:00.000Z',
    });
    expect(desunifyTask({ subject: 's' }, { mode: 'create', now }).properties.hs_timestamp).toBe(now.toISOString());
    expect(refusal(() => desunifyTask({ finished_date: '2025-01-01T00:00:00Z' }, { mode: 'update', now })).details.field).toBe('finished_date');
  });
});

describe('engagements', () => {
  it('calls: direction as is, end = start + duration, and back', () => {
    const r = unifyEngagement(
      { id: '40000001', properties: { hs_call_title: 'Intro', hs_call_body: 'notes', hs_call_direction: 'INBOUND', hs_timestamp: '2025-01-01T10:00:00Z', hs_call_duration: '90000' } },
      'calls',
      { contacts: [{ id: '1001', primary: false }], companies: [{ id: '5000001', primary: false }] },
      ids,
    );
    expect(r.data).toEqual({
      type: 'CALL',
      subject: 'Intro',
      content: 'notes',
      direction: 'INBOUND',
      start_at: '2025-01-01T10:00:00.000Z',
      end_time: '2025-01-01T10:01:30.000Z',
      user_id: null,
      company_id: ids('crm.company', '5000001'),
      contact_ids: [ids('crm.contact', '1001')],
    });
    const d = desunifyEngagement(
      { type: 'CALL', subject: 'S', direction: 'OUTBOUND', start_at: '2025-01-01T10:00:00Z', end_time: '2025-01-01T10:05:00Z', contact_ids: ['1001'] },
      'calls',
      { mode: 'create', now },
    );
    expect(d.properties).toEqual({ hs_timestamp: '2025-01-01T10:00:00.000Z', hs_call_title: 'S', hs_call_direction: 'OUTBOUND', hs_call_duration: '300000' });
    // an update of the end uses the stored start
    const u = desunifyEngagement({ end_time: '2025-01-01T10:00:10Z' }, 'calls', { mode: 'update', now, current: { id: '1', properties: { hs_timestamp: '2025-01-01T10:00:00.000Z' } } });
    expect(u.properties).toEqual({ hs_call_duration: '10000' });
    expect(refusal(() => desunifyEngagement({ start_at: '2025-01-01T10:00:00Z', end_time: '2025-01-01T09:00:00Z' }, 'calls', { mode: 'create', now })).details.field).toBe('end_time');
  });

  it('meetings: start and end times; no direction', () => {
    const r = unifyEngagement({ id: '50000001', properties: { hs_meeting_title: 'Demo', hs_meeting_start_time: '2025-01-01T10:00:00Z', hs_meeting_end_time: '2025-01-01T11:00:00Z' } }, 'meetings', {}, ids);
    expect(r.data).toMatchObject({ type: 'MEETING', subject: 'Demo', direction: null, start_at: '2025-01-01T10:00:00.000Z', end_time: '2025-01-01T11:00:00.000Z', contact_ids: [] });
    expect(desunifyEngagement({ type: 'MEETING', subject: 'x', start_at: '2025-01-01T10:00:00Z', end_time: '2025-01-01T11:00:00Z' }, 'meetings', { mode: 'create', now }).properties).toEqual({
      hs_timestamp: '2025-01-01T10:00:00.000Z',
      hs_meeting_title: 'x',
      hs_meeting_start_time: '2025-01-01T10:00:00.000Z',
      hs_meeting_end_time: '2025-01-01T11:00:00.000Z',
    });
    expect(refusal(() => desunifyEngagement({ direction: 'INBOUND' }, 'meetings', { mode: 'create', now })).details.field).toBe('direction');
  });

  it('emails: direction both ways; no end time', () => {
    expect([emailDirection('EMAIL'), emailDirection('INCOMING_EMAIL'), emailDirection('FORWARDED_EMAIL'), emailDirection(null)]).toEqual(['OUTBOUND', 'INBOUND', 'OUTBOUND', null]);
    expect([hsEmailDirection('INBOUND'), hsEmailDirection('OUTBOUND')]).toEqual(['INCOMING_EMAIL', 'EMAIL']);
    const r = unifyEngagement({ id: '60000001', properties: { hs_email_subject: 'Hello', hs_email_html: '<b>hi</b>', hs_email_direction: 'INCOMING_EMAIL', hs_timestamp: '2025-01-01T10:00:00Z' } }, 'emails', {}, ids);
    expect(r.data).toMatchObject({ type: 'EMAIL', subject: 'Hello', content: '<b>hi</b>', direction: 'INBOUND', end_time: null });
    expect(refusal(() => desunifyEngagement({ end_time: '2025-01-01T10:00:00Z' }, 'emails', { mode: 'create', now })).details.field).toBe('end_time');
    expect(desunifyEngagement({ content: 'c', direction: 'INBOUND' }, 'emails', { mode: 'update', now }).properties).toEqual({ hs_email_text: 'c', hs_email_direction: 'INCOMING_EMAIL' });
  });
});

describe('stages and owners', () => {
  it('a stage carries its pipeline', () => {
    const r = unifyStage({ id: 'closedwon', label: 'Closed Won', archived: false }, { id: 'default', label: 'Sales Pipeline' });
    expect(r).toMatchObject({ objectType: 'crm.stage', remoteId: 'closedwon', data: { name: 'Closed Won', pipeline_id: 'default', pipeline_name: 'Sales Pipeline' } });
    expect(unifyStage({ id: 's', archived: true }, { id: 'p' }).deleted).toBe(true);
  });

  it('an owner is a user; archived owners are deleted', () => {
    const r = unifyOwner({ id: '101', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', archived: false });
    expect(r).toMatchObject({ objectType: 'crm.user', remoteId: '101', data: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    expect(r.deleted).toBeUndefined();
    expect(unifyOwner({ id: '102', archived: true }).data).toEqual({ name: null, email: null });
    expect(unifyOwner({ id: '102', archived: true }).deleted).toBe(true);
  });
});
