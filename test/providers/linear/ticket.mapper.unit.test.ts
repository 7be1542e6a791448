import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { AppError } from '../../../src/core/errors';
import {
  desunifyIssue,
  dueDateToIso,
  dueDateToLinear,
  PRIORITY_TO_LINEAR,
  PRIORITY_TO_UNIFIED,
  STATE_TYPES_OF_STATUS,
  statusOfStateType,
  unifyIssue,
} from '../../../src/providers/linear/ticket.mapper';
import type { LnIssue } from '../../../src/providers/linear/types';

const ids = idFactory('conn-1');
const TEAM = '6f1c2a4e-1111-4aaa-8bbb-000000000001';
const USER = '6f1c2a4e-2222-4aaa-8bbb-000000000002';
const PARENT = '6f1c2a4e-3333-4aaa-8bbb-000000000003';

function issue(over: Partial<LnIssue> = {}): LnIssue {
  return {
    id: '6f1c2a4e-4444-4aaa-8bbb-000000000004',
    identifier: 'ENG-12',
    title: 'Printer on fire',
    description: 'It **started** smoking.\n\nThen flames.',
    priority: 2,
    dueDate: '2030-01-15',
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-02T11:00:00.000Z',
    completedAt: null,
    canceledAt: null,
    archivedAt: null,
    trashed: null,
    team: { id: TEAM, key: 'ENG', name: 'Engineering' },
    state: { id: 's1', name: 'In Progress', type: 'started' },
    assignee: { id: USER, name: 'Sam' },
    parent: { id: PARENT },
    labels: { nodes: [{ id: 'l1', name: 'Bug' }, { id: 'l2', name: 'hardware' }], pageInfo: { hasNextPage: false, endCursor: null } },
    ...over,
  };
}

const expectUnsupported = (fn: () => unknown, field: string) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('unsupported_by_provider');
    expect((e as AppError).details.field).toBe(field);
    return;
  }
  throw new Error(`expected ${field} to be refused`);
};

describe('linear ticket mapper: unify', () => {
  it('maps every field, with the team as collection and labels as tags', () => {
    const r = unifyIssue(issue(), ids);
    expect(r).toMatchObject({ objectType: 'ticketing.ticket', remoteId: issue().id });
    expect(r.data).toEqual({
      name: 'Printer on fire',
      status: 'IN_PROGRESS',
      description: ['It **started** smoking.\n\nThen flames.'],
      due_date: '2030-01-15T00:00:00.000Z',
      type: null,
      parent_ticket: ids('ticketing.ticket', PARENT),
      project_id: ids('ticketing.collection', TEAM),
      tags: ['Bug', 'hardware'],
      completed_at: null,
      priority: 'HIGH',
      assigned_to: [ids('ticketing.user', USER)],
      account_id: null,
      contact_id: null,
    });
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-05-02T11:00:00.000Z');
    expect(r.deleted).toBeUndefined();
  });

  it('maps state types to statuses', () => {
    expect(['triage', 'backlog', 'unstarted'].map(statusOfStateType)).toEqual(['OPEN', 'OPEN', 'OPEN']);
    expect(statusOfStateType('started')).toBe('IN_PROGRESS');
    expect(['completed', 'canceled', 'duplicate'].map(statusOfStateType)).toEqual(['CLOSED', 'CLOSED', 'CLOSED']);
    expect(statusOfStateType('something-new')).toBeNull();
    expect(statusOfStateType(undefined)).toBeNull();
  });

  it('maps priorities 0–4 (0 is none)', () => {
    expect([0, 1, 2, 3, 4].map((p) => unifyIssue(issue({ priority: p }), ids).data.priority)).toEqual([null, 'URGENT', 'HIGH', 'MEDIUM', 'LOW']);
    expect(PRIORITY_TO_UNIFIED[PRIORITY_TO_LINEAR.MEDIUM]).toBe('MEDIUM');
  });

  it('takes completed_at from completion or cancellation', () => {
    expect(unifyIssue(issue({ state: { id: 's', type: 'completed' }, completedAt: '2024-06-01T00:00:00Z' }), ids).data.completed_at).toBe('2024-06-01T00:00:00.000Z');
    expect(unifyIssue(issue({ state: { id: 's', type: 'canceled' }, canceledAt: '2024-06-02T00:00:00Z' }), ids).data.completed_at).toBe('2024-06-02T00:00:00.000Z');
  });

  it('reports a trashed issue deleted, an archived one not', () => {
    expect(unifyIssue(issue({ trashed: true, archivedAt: '2024-06-01T00:00:00Z' }), ids).deleted).toBe(true);
    expect(unifyIssue(issue({ trashed: null, archivedAt: '2024-06-01T00:00:00Z' }), ids).deleted).toBeUndefined();
  });

  it('copes with empty and missing fields', () => {
    const r = unifyIssue({ id: 'x', title: 't', description: '   ', priority: 0, dueDate: null, labels: null, assignee: null, parent: null, team: null, state: null }, ids);
    expect(r.data).toMatchObject({ description: [], due_date: null, tags: [], assigned_to: [], parent_ticket: null, project_id: null, status: null, priority: null });
  });

  it('deduplicates tag names', () => {
    const labels = { nodes: [{ id: 'a', name: 'Bug' }, { id: 'b', name: 'Bug' }], pageInfo: { hasNextPage: false, endCursor: null } };
    expect(unifyIssue(issue({ labels }), ids).data.tags).toEqual(['Bug']);
  });
});

describe('linear ticket mapper: desunify', () => {
  it('maps a create with every supported field', () => {
    const d = desunifyIssue(
      {
        name: 'Printer on fire',
        project_id: TEAM,
        description: ['It started smoking.', 'Then flames.'],
        priority: 'URGENT',
        status: 'IN_PROGRESS',
        assigned_to: [USER],
        due_date: '2030-01-15T22:30:00.000Z',
        parent_ticket: PARENT,
        tags: [' hardware ', 'urgent', 'hardware', ''],
        comment: ['first', '  ', 'second'],
      },
      'create',
    );
    expect(d.input).toEqual({
      teamId: TEAM,
      title: 'Printer on fire',
      description: 'It started smoking.\n\nThen flames.',
      priority: 1,
      assigneeId: USER,
      dueDate: '2030-01-15',
      parentId: PARENT,
    });
    expect(d.status).toBe('IN_PROGRESS');
    expect(d.tags).toEqual(['hardware', 'urgent']);
    expect(d.comments).toEqual(['first', 'second']);
  });

  it('requires a team and a title on create', () => {
    expect(() => desunifyIssue({ name: 'x' }, 'create')).toThrow(/project_id/);
    expect(() => desunifyIssue({ project_id: TEAM }, 'create')).toThrow(/name/);
    expect(() => desunifyIssue({ project_id: TEAM, name: '  ' }, 'create')).toThrow(/name/);
  });

  it('maps a partial update, unassigning with an empty list and moving teams with project_id', () => {
    expect(desunifyIssue({ name: 'Renamed' }, 'update').input).toEqual({ title: 'Renamed' });
    expect(desunifyIssue({ assigned_to: [] }, 'update').input).toEqual({ assigneeId: null });
    expect(desunifyIssue({ project_id: TEAM }, 'update').input).toEqual({ teamId: TEAM });
    expect(desunifyIssue({ tags: [] }, 'update').tags).toEqual([]);
  });

  it('refuses what Linear cannot take, naming the field', () => {
    const base = { name: 'x', project_id: TEAM };
    expectUnsupported(() => desunifyIssue({ ...base, type: 'bug' }, 'create'), 'type');
    expectUnsupported(() => desunifyIssue({ ...base, account_id: 'a' }, 'create'), 'account_id');
    expectUnsupported(() => desunifyIssue({ ...base, contact_id: 'c' }, 'create'), 'contact_id');
    expectUnsupported(() => desunifyIssue({ ...base, customFields: [{ remoteFieldId: 'f', value: 1 }] }, 'create'), 'field_mappings');
    expectUnsupported(() => desunifyIssue({ ...base, status: 'ON_HOLD' }, 'create'), 'status');
    expectUnsupported(() => desunifyIssue({ ...base, assigned_to: [USER, PARENT] }, 'create'), 'assigned_to');
    expectUnsupported(() => desunifyIssue({ ...base, completed_at: '2024-01-01T00:00:00Z' }, 'create'), 'completed_at');
    expectUnsupported(() => desunifyIssue({ ...base, status: 'CLOSED', completed_at: '2024-01-01T00:00:00Z' }, 'create'), 'completed_at');
    expectUnsupported(() => desunifyIssue({ completed_at: '2024-01-01T00:00:00Z' }, 'update'), 'completed_at');
  });

  it('refuses ids that are not Linear ids as unknown references', () => {
    expect(() => desunifyIssue({ name: 'x', project_id: '42' }, 'create')).toThrow(expect.objectContaining({ code: 'unknown_reference' }));
    expect(() => desunifyIssue({ parent_ticket: 'ENG-1' }, 'update')).toThrow(expect.objectContaining({ code: 'unknown_reference' }));
  });

  it('validates enumerations', () => {
    expect(() => desunifyIssue({ priority: 'NOPE' }, 'update')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => desunifyIssue({ status: 'DONE' }, 'update')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(desunifyIssue({ priority: 'low', status: 'closed' }, 'update')).toMatchObject({ input: { priority: 4 }, status: 'CLOSED' });
  });

  it('prefers Todo-like states for OPEN and never writes a canceled state', () => {
    expect(STATE_TYPES_OF_STATUS.OPEN).toEqual(['unstarted', 'backlog', 'triage']);
    expect(STATE_TYPES_OF_STATUS.CLOSED).toEqual(['completed']);
    expect(STATE_TYPES_OF_STATUS.ON_HOLD).toEqual([]);
  });

  it('converts due dates between date-times and calendar days', () => {
    expect(dueDateToLinear('2030-01-15T23:59:59-05:00')).toBe('2030-01-16');
    expect(dueDateToIso('2030-01-15')).toBe('2030-01-15T00:00:00.000Z');
    expect(dueDateToIso(null)).toBeNull();
    expect(() => dueDateToLinear('soon')).toThrow(/due_date/);
  });
});
