import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyTicket, droppedFields, isPullRequest, issueRefOf, unifyIssue } from '../../../src/providers/github/ticket.mapper';
import type { GhIssue } from '../../../src/providers/github/types';

const ids = idFactory('c1');

const issue = (over: Partial<GhIssue> = {}): GhIssue => ({
  id: 1,
  number: 7,
  repository_url: 'https://api.github.com/repos/Octo-Org/helpdesk',
  state: 'open',
  state_reason: null,
  title: 'Login broken',
  body: 'Cannot log in',
  labels: [{ id: 1, name: 'bug' }, 'legacy-string-label'],
  assignees: [{ id: 2, login: 'hubot' }, { id: 3, login: 'mona' }],
  closed_at: null,
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-02T10:00:00Z',
  ...over,
});

function refused(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('unifyIssue', () => {
  it('maps every field GitHub has; the remote id is owner/name#number', () => {
    const r = unifyIssue(issue(), ids);
    expect(r).toMatchObject({ objectType: 'ticketing.ticket', remoteId: 'Octo-Org/helpdesk#7' });
    expect(r.data).toEqual({
      name: 'Login broken',
      status: 'OPEN',
      description: ['Cannot log in'],
      due_date: null,
      type: null,
      parent_ticket: null,
      project_id: ids('ticketing.collection', 'Octo-Org/helpdesk'),
      tags: ['bug', 'legacy-string-label'],
      completed_at: null,
      priority: null,
      assigned_to: [ids('ticketing.user', 'hubot'), ids('ticketing.user', 'mona')],
      account_id: null,
      contact_id: null,
    });
    expect(r.remoteCreatedAt?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-05-02T10:00:00.000Z');
    expect(r.remoteData).toBe(r.remoteData);
  });

  it('closed (completed or not planned) is CLOSED with completed_at = closed_at', () => {
    for (const reason of ['completed', 'not_planned']) {
      const r = unifyIssue(issue({ state: 'closed', state_reason: reason, closed_at: '2024-06-01T00:00:00Z' }), ids);
      expect(r.data).toMatchObject({ status: 'CLOSED', completed_at: '2024-06-01T00:00:00.000Z' });
      expect(r.remoteData.state_reason).toBe(reason);
    }
  });

  it('reads an empty body as no description, the single assignee field, and GitHub Enterprise URLs', () => {
    const r = unifyIssue(issue({ body: null, assignees: undefined, assignee: { id: 2, login: 'hubot' }, repository_url: 'https://ghe.example/api/v3/repos/o/r' }), ids);
    expect(r.remoteId).toBe('o/r#7');
    expect(r.data).toMatchObject({ description: [], assigned_to: [ids('ticketing.user', 'hubot')] });
    expect(issueRefOf(issue({ repository_url: undefined, repository: { full_name: 'a/b' } }))).toEqual({ owner: 'a', repo: 'b', number: 7 });
    expect(unifyIssue(issue({ repository_url: undefined }), ids, { owner: 'x', repo: 'y' }).remoteId).toBe('x/y#7');
    expect(() => unifyIssue(issue({ repository_url: undefined }), ids)).toThrow(/without its repository/);
  });

  it('tells pull requests apart', () => {
    expect(isPullRequest(issue())).toBe(false);
    expect(isPullRequest(issue({ pull_request: { url: 'x' } }))).toBe(true);
  });
});

describe('desunifyTicket', () => {
  it('create: repository from project_id, title, body from paragraphs, labels deduplicated, assignees; CLOSED closes afterwards', () => {
    const d = desunifyTicket(
      { name: 'T', description: ['a', ' ', 'b'], project_id: 'o/r', tags: ['bug', 'Bug', 'ui'], assigned_to: ['hubot', 'hubot'], status: 'CLOSED', comment: ['c1', ' '] },
      'create',
    );
    expect(d).toEqual({
      repo: { owner: 'o', repo: 'r' },
      body: { title: 'T', body: 'a\n\nb', labels: ['bug', 'ui'], assignees: ['hubot'] },
      closeAfterCreate: true,
      comments: ['c1'],
    });
  });

  it('update: state and state_reason, an empty description clears the body, empty lists clear labels and assignees', () => {
    expect(desunifyTicket({ status: 'closed', description: [], tags: [], assigned_to: [] }, 'update').body).toEqual({
      state: 'closed',
      state_reason: 'completed',
      body: null,
      labels: [],
      assignees: [],
    });
    expect(desunifyTicket({ status: 'OPEN' }, 'update').body).toEqual({ state: 'open' });
    expect(desunifyTicket({ project_id: 'O/R' }, 'update', { owner: 'o', repo: 'r', number: 1 }).body).toEqual({});
  });

  it('refuses what GitHub issues do not have, naming the field', () => {
    const base = { name: 'x', project_id: 'o/r' };
    const cases: Array<[string, object]> = [
      ['priority', { priority: 'HIGH' }],
      ['type', { type: 'bug' }],
      ['due_date', { due_date: '2030-01-01T00:00:00Z' }],
      ['parent_ticket', { parent_ticket: 'o/r#1' }],
      ['account_id', { account_id: 'a' }],
      ['contact_id', { contact_id: 'c' }],
      ['completed_at', { completed_at: '2030-01-01T00:00:00Z' }],
      ['field_mappings', { customFields: [{ remoteFieldId: 'f', value: 1 }] }],
      ['assigned_to', { assigned_to: Array.from({ length: 11 }, (_, i) => `u${i}`) }],
      ['tags', { tags: ['x'.repeat(51)] }],
    ];
    for (const [field, extra] of cases) {
      const e = refused(() => desunifyTicket({ ...base, ...extra }, 'create'));
      expect(e.code, field).toBe('unsupported_by_provider');
      expect(e.details, field).toMatchObject({ field, provider: 'github' });
    }
  });

  it('IN_PROGRESS and ON_HOLD have no GitHub state (422 with the allowed ones); unknown statuses are 400', () => {
    for (const s of ['IN_PROGRESS', 'ON_HOLD']) {
      const e = refused(() => desunifyTicket({ status: s }, 'update'));
      expect(e).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'status', allowed: ['OPEN', 'CLOSED'] } });
    }
    expect(refused(() => desunifyTicket({ status: 'NOPE' }, 'update')).code).toBe('validation_failed');
  });

  it('create needs a repository and a title; update cannot move an issue', () => {
    expect(refused(() => desunifyTicket({ name: 'x' }, 'create')).details.field).toBe('project_id');
    expect(refused(() => desunifyTicket({ project_id: 'o/r' }, 'create')).details.field).toBe('name');
    expect(refused(() => desunifyTicket({ project_id: 'o/r', name: ' ' }, 'create')).details.field).toBe('name');
    expect(refused(() => desunifyTicket({ project_id: 'o/r/x', name: 'n' }, 'create')).code).toBe('unknown_reference');
    expect(refused(() => desunifyTicket({ project_id: 'o/other' }, 'update', { owner: 'o', repo: 'r', number: 1 })).details.field).toBe('project_id');
    expect(refused(() => desunifyTicket({ name: '' }, 'update')).details.field).toBe('name');
  });
});

describe('droppedFields', () => {
  it('names labels or assignees GitHub left out', () => {
    expect(droppedFields({ labels: ['Bug'], assignees: ['Hubot'] }, issue())).toEqual([]);
    expect(droppedFields({ labels: ['ui'] }, issue())).toEqual(['tags']);
    expect(droppedFields({ assignees: ['octocat'] }, issue({ assignees: [] }))).toEqual(['assigned_to']);
    expect(droppedFields({ labels: [], assignees: [] }, issue({ labels: [], assignees: [] }))).toEqual([]);
  });
});
