import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { dateToIso, desunifyTicket, GITLAB_ISSUE_TYPES, isoToDate, STATUS_TO_UNIFIED, unifyTicket } from '../../../src/providers/gitlab/ticket.mapper';
import type { GlIssue } from '../../../src/providers/gitlab/types';
import { issueRemoteId, parseIssueRemoteId } from '../../../src/providers/gitlab/util';

const ids = idFactory('conn-1');

const issue: GlIssue = {
  id: 76,
  iid: 6,
  project_id: 8,
  title: 'Consequatur vero maxime deserunt laboriosam est voluptas dolorem.',
  description: 'Ratione dolores corrupti mollitia soluta quia.',
  state: 'closed',
  created_at: '2016-01-04T15:31:51.081Z',
  updated_at: '2016-01-05T10:00:00.000Z',
  closed_at: '2016-01-05T09:59:00.123Z',
  closed_by: { id: 1, username: 'root', name: 'Administrator' },
  labels: ['bug', 'customer'],
  assignees: [
    { id: 1, username: 'root' },
    { id: 2, username: 'riley' },
  ],
  assignee: { id: 1, username: 'root' },
  author: { id: 9, username: 'jo' },
  type: 'INCIDENT',
  issue_type: 'incident',
  due_date: '2016-07-22',
  confidential: false,
  user_notes_count: 2,
  web_url: 'http://gitlab.example.com/my-group/my-project/-/issues/6',
};

const err = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected an error');
};

describe('unifyTicket', () => {
  it('maps every field, with the project-scoped remote id', () => {
    const r = unifyTicket(issue, ids);
    expect(r.objectType).toBe('ticketing.ticket');
    expect(r.remoteId).toBe('8#6');
    expect(r.data).toEqual({
      name: issue.title,
      status: 'CLOSED',
      description: [issue.description],
      due_date: '2016-07-22T00:00:00.000Z',
      type: 'incident',
      parent_ticket: null,
      project_id: ids('ticketing.collection', 8),
      tags: ['bug', 'customer'],
      completed_at: '2016-01-05T09:59:00.123Z',
      priority: null,
      assigned_to: [ids('ticketing.user', 1), ids('ticketing.user', 2)],
      account_id: null,
      contact_id: null,
    });
    expect(r.remoteData).toBe(issue);
    expect(r.remoteCreatedAt?.toISOString()).toBe('2016-01-04T15:31:51.081Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2016-01-05T10:00:00.000Z');
  });

  it('reads open issues without completion, empty descriptions, label objects and older shapes', () => {
    const r = unifyTicket(
      {
        ...issue,
        state: 'opened',
        description: '',
        labels: [{ name: 'a' }, { name: 'b' }],
        assignees: undefined,
        assignee: { id: 5 },
        issue_type: undefined,
        type: 'TASK',
        due_date: null,
      },
      ids,
    );
    expect(r.data).toMatchObject({ status: 'OPEN', completed_at: null, description: [], tags: ['a', 'b'], assigned_to: [ids('ticketing.user', 5)], type: 'task', due_date: null });
  });

  it('has a status for both GitLab states and nothing else', () => {
    expect(STATUS_TO_UNIFIED).toEqual({ opened: 'OPEN', closed: 'CLOSED' });
    expect(unifyTicket({ ...issue, state: 'locked' }, ids).data.status).toBeNull();
  });
});

describe('desunifyTicket', () => {
  it('builds the create body with every writable field, closing afterwards when asked', () => {
    const d = desunifyTicket(
      {
        name: 'Printer on fire',
        project_id: '8',
        description: ['It started smoking.', '', 'Then flames.'],
        tags: ['hardware', ' urgent ', 'hardware'],
        assigned_to: ['1', '2'],
        due_date: '2030-01-15T23:30:00-05:00',
        type: 'Incident',
        status: 'CLOSED',
        comment: ['first', ' ', 'second'],
      },
      'create',
    );
    expect(d).toEqual({
      projectId: 8,
      body: {
        title: 'Printer on fire',
        description: 'It started smoking.\n\nThen flames.',
        labels: ['hardware', 'urgent'],
        assignee_ids: [1, 2],
        due_date: '2030-01-15',
        issue_type: 'incident',
      },
      closeAfterCreate: true,
      comments: ['first', 'second'],
    });
  });

  it('needs a project and a title on create (422 naming them)', () => {
    const noProject = err(() => desunifyTicket({ name: 'x' }, 'create'));
    expect(noProject.status).toBe(422);
    expect(noProject.details.field).toBe('project_id');
    const noTitle = err(() => desunifyTicket({ project_id: '1' }, 'create'));
    expect(noTitle.status).toBe(422);
    expect(noTitle.details.field).toBe('name');
  });

  it('writes status as state_event on update, and clears labels and assignees with empty lists', () => {
    expect(desunifyTicket({ status: 'CLOSED' }, 'update', 8).body).toEqual({ state_event: 'close' });
    expect(desunifyTicket({ status: 'open' }, 'update', 8).body).toEqual({ state_event: 'reopen' });
    expect(desunifyTicket({ tags: [], assigned_to: [], description: [] }, 'update', 8).body).toEqual({ labels: [], assignee_ids: [], description: '' });
    expect(desunifyTicket({ project_id: '8', name: 'same project' }, 'update', 8).body).toEqual({ title: 'same project' });
  });

  it.each([
    ['priority', { priority: 'HIGH' }],
    ['parent_ticket', { parent_ticket: '8#1' }],
    ['account_id', { account_id: '3' }],
    ['contact_id', { contact_id: '3' }],
    ['completed_at', { completed_at: '2030-01-01T00:00:00Z' }],
    ['field_mappings', { customFields: [{ remoteFieldId: 'x', value: 1 }] }],
    ['status', { status: 'IN_PROGRESS' }],
    ['status', { status: 'ON_HOLD' }],
    ['type', { type: 'bug' }],
  ])('refuses %s with 422 naming it', (field, patch) => {
    const e = err(() => desunifyTicket({ name: 'x', project_id: '1', ...patch }, 'create'));
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('unsupported_by_provider');
    expect(e.status).toBe(422);
    expect(e.details).toMatchObject({ field, provider: 'gitlab' });
  });

  it('refuses moving an issue to another project', () => {
    const e = err(() => desunifyTicket({ project_id: '9' }, 'update', 8));
    expect(e.code).toBe('unsupported_by_provider');
    expect(e.details.field).toBe('project_id');
  });

  it('refuses ids that are not GitLab ids', () => {
    expect(err(() => desunifyTicket({ name: 'x', project_id: 'abc' }, 'create')).details.field).toBe('project_id');
    expect(err(() => desunifyTicket({ assigned_to: ['1', 'x'] }, 'update', 1)).details.field).toBe('assigned_to');
  });

  it('lists the issue types it writes', () => {
    expect(GITLAB_ISSUE_TYPES).toEqual(['issue', 'incident', 'test_case', 'task']);
  });
});

describe('dates and remote ids', () => {
  it('keeps the calendar date as written and reads dates back at midnight UTC', () => {
    expect(isoToDate('2030-01-15T10:00:00.000Z', 'due_date')).toBe('2030-01-15');
    expect(isoToDate('2030-01-15T23:30:00+09:00', 'due_date')).toBe('2030-01-15');
    expect(isoToDate('2030-01-15', 'due_date')).toBe('2030-01-15');
    expect(err(() => isoToDate('15/01/2030', 'due_date')).details.field).toBe('due_date');
    expect(dateToIso('2030-01-15')).toBe('2030-01-15T00:00:00.000Z');
    expect(dateToIso('soon')).toBeNull();
    expect(dateToIso(null)).toBeNull();
  });

  it('formats and parses <project id>#<iid>', () => {
    expect(issueRemoteId(8, 6)).toBe('8#6');
    expect(parseIssueRemoteId('8#6', 'id')).toEqual({ projectId: 8, iid: 6 });
    for (const bad of ['8', '#6', '8#', 'a#1', '8#6#1', '76']) {
      const e = err(() => parseIssueRemoteId(bad, 'ticket_id'));
      expect(e.status).toBe(422);
      expect(e.details.field).toBe('ticket_id');
    }
  });
});
