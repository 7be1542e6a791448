import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyTicket, dueDate, PRIORITY_TO_JIRA, unifyPriority, unifyStatus, unifyTicket } from '../../../src/providers/jira/ticket.mapper';
import { planTransition } from '../../../src/providers/jira/transitions';
import type { JiraIssue, JiraTransition } from '../../../src/providers/jira/types';

const ids = idFactory('c1');
const status = (name: string, key: string) => ({ id: '1', name, statusCategory: { key } });

describe('status and priority tables', () => {
  it('maps status categories, with on-hold names as ON_HOLD', () => {
    expect(unifyStatus(status('To Do', 'new'))).toBe('OPEN');
    expect(unifyStatus(status('Backlog', 'new'))).toBe('OPEN');
    expect(unifyStatus(status('In Review', 'indeterminate'))).toBe('IN_PROGRESS');
    expect(unifyStatus(status('Blocked', 'indeterminate'))).toBe('ON_HOLD');
    expect(unifyStatus(status('Waiting for customer', 'indeterminate'))).toBe('ON_HOLD');
    expect(unifyStatus(status('On Hold', 'new'))).toBe('ON_HOLD');
    expect(unifyStatus(status('Done', 'done'))).toBe('CLOSED');
    expect(unifyStatus(status('Closed - blocked', 'done'))).toBe('CLOSED');
    expect(unifyStatus(status('Odd', 'undefined'))).toBeNull();
    expect(unifyStatus(undefined)).toBeNull();
  });

  it('maps priorities of the default and older schemes', () => {
    expect(['Highest', 'Blocker', 'Critical', 'High', 'Major', 'Medium', 'Low', 'Minor', 'Lowest', 'Trivial', 'P1'].map(unifyPriority)).toEqual([
      'URGENT', 'URGENT', 'URGENT', 'HIGH', 'HIGH', 'MEDIUM', 'LOW', 'LOW', 'LOW', 'LOW', null,
    ]);
    expect(PRIORITY_TO_JIRA).toEqual({ URGENT: 'Highest', HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low' });
  });
});

describe('unifyTicket', () => {
  const issue: JiraIssue = {
    id: '10001',
    key: 'SUP-1',
    fields: {
      summary: 'Printer on fire',
      description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Smoke.' }] }, { type: 'paragraph', content: [] }, { type: 'paragraph', content: [{ type: 'text', text: 'Flames.' }] }] },
      status: status('Done', 'done'),
      priority: { id: '2', name: 'High' },
      issuetype: { id: '10002', name: 'Bug' },
      project: { id: '10000', key: 'SUP' },
      labels: ['hardware'],
      assignee: { accountId: 'acc-1' },
      duedate: '2030-01-15',
      resolutiondate: '2024-05-02T10:00:00.000+0200',
      statuscategorychangedate: '2024-05-01T00:00:00.000+0000',
      parent: { id: '9999' },
      created: '2024-05-01T08:00:00.000+0000',
      updated: '2024-05-02T08:00:00.000+0000',
    },
  };

  it('maps every field and keeps the issue as remote_data', () => {
    const r = unifyTicket(issue, ids);
    expect(r).toMatchObject({ objectType: 'ticketing.ticket', remoteId: '10001', remoteData: issue });
    expect(r.data).toEqual({
      name: 'Printer on fire',
      status: 'CLOSED',
      description: ['Smoke.', 'Flames.'],
      due_date: '2030-01-15T00:00:00.000Z',
      type: 'Bug',
      parent_ticket: ids('ticketing.ticket', '9999'),
      project_id: ids('ticketing.collection', '10000'),
      tags: ['hardware'],
      completed_at: '2024-05-02T08:00:00.000Z',
      priority: 'HIGH',
      assigned_to: [ids('ticketing.user', 'acc-1')],
      account_id: null,
      contact_id: null,
    });
    expect(r.remoteCreatedAt!.toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(r.remoteUpdatedAt!.toISOString()).toBe('2024-05-02T08:00:00.000Z');
  });

  it('uses the status-category change time when a done issue has no resolution date, and none when open', () => {
    const noRes = unifyTicket({ ...issue, fields: { ...issue.fields, resolutiondate: null } }, ids);
    expect(noRes.data.completed_at).toBe('2024-05-01T00:00:00.000Z');
    const open = unifyTicket({ ...issue, fields: { ...issue.fields, status: status('To Do', 'new') } }, ids);
    expect(open.data.completed_at).toBeNull();
  });

  it('reads a sparse issue (only an id) without failing', () => {
    expect(unifyTicket({ id: '5' }, ids).data).toMatchObject({ name: null, status: null, description: [], tags: [], assigned_to: [], project_id: null });
  });
});

describe('desunifyTicket', () => {
  it('builds the fields of a create, with status and comments for afterwards', () => {
    const d = desunifyTicket(
      { name: 'n', description: ['a', ' ', 'b'], due_date: '2030-01-15T23:30:00-02:00', parent_ticket: '77', tags: ['x'], priority: 'urgent', assigned_to: ['acc'], project_id: '10000', type: ' Bug ', status: 'closed', comment: ['c1', ' '] },
      'create',
    );
    expect(d.fields).toEqual({
      summary: 'n',
      description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'b' }] }] },
      duedate: '2030-01-16',
      parent: { id: '77' },
      labels: ['x'],
      priority: { name: 'Highest' },
      assignee: { accountId: 'acc' },
      project: { id: '10000' },
    });
    expect(d).toMatchObject({ projectId: '10000', type: 'Bug', status: 'CLOSED', comments: ['c1'] });
  });

  it('clears description and assignee on update, and never sets the project there', () => {
    const d = desunifyTicket({ description: [], assigned_to: [], project_id: '10000' }, 'update');
    expect(d.fields).toEqual({ description: null, assignee: null });
    expect(d.projectId).toBe('10000');
  });

  it('refuses what Jira has no place for, naming the field', () => {
    const refuse = (input: Parameters<typeof desunifyTicket>[0], field: string, code = 'unsupported_by_provider') => {
      let err: unknown;
      try {
        desunifyTicket(input, 'create');
      } catch (e) {
        err = e;
      }
      expect(err, field).toBeInstanceOf(AppError);
      expect((err as AppError).code, field).toBe(code);
      expect((err as AppError).details.field, field).toBe(field);
    };
    refuse({ project_id: '1', contact_id: 'c' }, 'contact_id');
    refuse({ project_id: '1', account_id: 'a' }, 'account_id');
    refuse({ project_id: '1', completed_at: '2024-01-01T00:00:00Z' }, 'completed_at');
    refuse({ project_id: '1', assigned_to: ['a', 'b'] }, 'assigned_to');
    refuse({ project_id: '1', tags: ['ok', 'not ok'] }, 'tags[1]');
    refuse({ project_id: '1', name: 'x'.repeat(256) }, 'name');
    refuse({ name: 'no project' }, 'project_id', 'validation_failed');
    refuse({ project_id: 'SUP' }, 'project_id', 'unknown_reference');
    refuse({ project_id: '1', priority: 'SOON' }, 'priority', 'validation_failed');
  });

  it('takes the UTC date of a due date', () => {
    expect(dueDate('2030-01-15T10:00:00.000Z')).toBe('2030-01-15');
    expect(() => dueDate('soon')).toThrow(AppError);
  });
});

describe('planTransition', () => {
  const to = (name: string, key: string) => ({ id: name, name, statusCategory: { key } });
  const transitions: JiraTransition[] = [
    { id: '11', name: 'Reopen', to: to('To Do', 'new') },
    { id: '21', name: 'Review', to: to('In Review', 'indeterminate') },
    { id: '22', name: 'Start', to: to('In Progress', 'indeterminate') },
    { id: '31', name: 'Block', to: to('Blocked', 'indeterminate') },
    { id: '41', name: 'Won’t fix', to: to('Rejected', 'done') },
    {
      id: '42',
      name: 'Resolve',
      to: to('Done', 'done'),
      fields: { resolution: { required: true, hasDefaultValue: false, allowedValues: [{ id: '2', name: "Won't Do" }, { id: '1', name: 'Done' }] } },
    },
  ];

  it('prefers the canonical status of the category and fills a required resolution', () => {
    expect(planTransition(transitions, 'IN_PROGRESS', undefined).transition.id).toBe('22');
    expect(planTransition(transitions, 'ON_HOLD', undefined).transition.id).toBe('31');
    expect(planTransition(transitions, 'OPEN', undefined).transition.id).toBe('11');
    expect(planTransition(transitions, 'CLOSED', undefined)).toEqual({ transition: transitions[5], fields: { resolution: { id: '1' } } });
  });

  it('skips transitions needing fields it cannot fill, and says why when none is left', () => {
    const onlyScreen: JiraTransition[] = [{ id: '51', name: 'Escalate', to: to('Waiting on vendor', 'indeterminate'), fields: { customfield_1: { required: true } } }];
    expect(() => planTransition(onlyScreen, 'ON_HOLD', to('To Do', 'new'))).toThrow(/need fields Omniport cannot fill \("Escalate" needs customfield_1\)/);
    try {
      planTransition(transitions.slice(0, 2), 'CLOSED', to('To Do', 'new'));
    } catch (e) {
      expect(e).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'status', available_transitions: ['Reopen → To Do', 'Review → In Review'] } });
      expect((e as Error).message).toContain('from "To Do"');
    }
  });
});
