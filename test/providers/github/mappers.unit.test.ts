import { describe, expect, it } from 'vitest';
import { unifyRepository } from '../../../src/providers/github/repository.mapper';
import { unifyLabel } from '../../../src/providers/github/tag.mapper';
import { unifyUser } from '../../../src/providers/github/user.mapper';
import { parseResume } from '../../../src/providers/github/sync';
import { issueOfUrl, parseIssue, parseRepo, repoOfUrl, sinceParam } from '../../../src/providers/github/util';

describe('repository, user and label mappers', () => {
  it('repository → collection named by its full name', () => {
    const r = unifyRepository({ id: 1, name: 'helpdesk', full_name: 'octo-org/helpdesk', description: '', created_at: '2024-01-01T00:00:00Z', updated_at: null });
    expect(r).toMatchObject({ objectType: 'ticketing.collection', remoteId: 'octo-org/helpdesk', remoteUpdatedAt: null });
    expect(r.data).toEqual({ name: 'octo-org/helpdesk', description: null, collection_type: 'PROJECT', parent_id: null });
  });

  it('user → user by login, named by its profile name or its login', () => {
    expect(unifyUser({ id: 1, login: 'octocat', name: 'The Octocat', email: 'o@x' })).toMatchObject({
      objectType: 'ticketing.user',
      remoteId: 'octocat',
      data: { name: 'The Octocat', email_address: 'o@x', teams: [], account_id: null },
    });
    expect(unifyUser({ id: 2, login: 'hubot' }).data).toMatchObject({ name: 'hubot', email_address: null });
  });

  it('label → tag by label id', () => {
    expect(unifyLabel({ id: 5, name: 'bug', color: 'f00' })).toMatchObject({ objectType: 'ticketing.tag', remoteId: '5', data: { name: 'bug' } });
  });
});

describe('remote ids and URLs', () => {
  it('parses repositories and issues, and refuses anything else as unknown references', () => {
    expect(parseRepo('o/r.js', 'project_id')).toEqual({ owner: 'o', repo: 'r.js' });
    expect(parseIssue('o/r#12', 'id')).toEqual({ owner: 'o', repo: 'r', number: 12 });
    for (const bad of ['o', 'o/r/x', 'o r/x', '../x']) expect(() => parseRepo(bad, 'project_id')).toThrow(/not a GitHub repository/);
    for (const bad of ['o/r', 'o/r#', '12', 'o/r#1#2', 'o/../r#1']) expect(() => parseIssue(bad, 'ticket_id')).toThrow(/not a GitHub issue/);
  });

  it('reads repositories and issues from API URLs (github.com and Enterprise Server)', () => {
    expect(repoOfUrl('https://api.github.com/repos/o/r')).toEqual({ owner: 'o', repo: 'r' });
    expect(repoOfUrl('https://ghe.example/api/v3/repos/o/r/issues/3')).toEqual({ owner: 'o', repo: 'r' });
    expect(issueOfUrl('https://ghe.example/api/v3/repos/o/r/issues/3')).toEqual({ owner: 'o', repo: 'r', number: 3 });
    expect(issueOfUrl('https://api.github.com/repos/o/r/pulls/3')).toBeUndefined();
  });

  it('formats since to the second, rounded down', () => {
    expect(sinceParam(new Date('2024-05-01T10:20:30.999Z'))).toBe('2024-05-01T10:20:30Z');
    expect(sinceParam(undefined)).toBeUndefined();
  });

  it('reads a sync resume position, and starts over on anything unreadable', () => {
    expect(parseResume(JSON.stringify({ repo: 'o/r', next: null }))).toEqual({ repo: 'o/r', next: null });
    expect(parseResume(JSON.stringify({ repo: 'o/r', next: 'https://x/y?page=2' }))).toEqual({ repo: 'o/r', next: 'https://x/y?page=2' });
    expect(parseResume('garbage')).toBeUndefined();
    expect(parseResume(JSON.stringify({ next: null }))).toBeUndefined();
    expect(parseResume(undefined)).toBeUndefined();
  });
});
