import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { desunifyComment, isPullRequestComment, unifyComment } from '../../../src/providers/github/comment.mapper';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('c1');

const comment = {
  id: 99,
  body: 'Hello **there**',
  body_text: 'Hello there',
  body_html: '<p>Hello <strong>there</strong></p>',
  html_url: 'https://github.com/o/r/issues/7#issuecomment-99',
  issue_url: 'https://api.github.com/repos/o/r/issues/7',
  user: { id: 1, login: 'octocat' },
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-01T11:00:00Z',
};

describe('unifyComment', () => {
  it('maps a comment, its ticket from issue_url and its author as a user', () => {
    const r = unifyComment(comment, ids);
    expect(r).toMatchObject({ objectType: 'ticketing.comment', remoteId: '99', parent: { objectType: 'ticketing.ticket', remoteId: 'o/r#7' } });
    expect(r.data).toEqual({
      body: 'Hello **there**',
      html_body: '<p>Hello <strong>there</strong></p>',
      is_private: false,
      creator_type: 'USER',
      ticket_id: ids('ticketing.ticket', 'o/r#7'),
      contact_id: null,
      user_id: ids('ticketing.user', 'octocat'),
      attachments: [],
    });
    expect(r.remoteUpdatedAt?.toISOString()).toBe('2024-05-01T11:00:00.000Z');
  });

  it('uses the given issue over issue_url, body_text without body, and no author for a ghost', () => {
    const r = unifyComment({ ...comment, body: undefined, user: null }, ids, { owner: 'x', repo: 'y', number: 1 });
    expect(r.parent?.remoteId).toBe('x/y#1');
    expect(r.data).toMatchObject({ body: 'Hello there', creator_type: null, user_id: null });
  });

  it('tells pull-request comments apart by their html_url', () => {
    expect(isPullRequestComment(comment)).toBe(false);
    expect(isPullRequestComment({ ...comment, html_url: 'https://github.com/o/r/pull/7#issuecomment-99' })).toBe(true);
  });
});

describe('desunifyComment', () => {
  const base: CommentWrite = { ticket_id: 'o/r#7', body: 'Hi', files: [] };
  const refused = (input: Partial<CommentWrite>, viewer = 'octocat'): AppError => {
    try {
      desunifyComment({ ...base, ...input }, viewer);
    } catch (e) {
      return e as AppError;
    }
    throw new Error('expected a refusal');
  };

  it('sends the Markdown body; html_body alone becomes the body; the token user may be named in any case', () => {
    expect(desunifyComment({ ...base, user_id: 'OctoCat', creator_type: 'USER', is_private: false }, 'octocat')).toEqual({ body: 'Hi' });
    expect(desunifyComment({ ...base, body: undefined, html_body: '<b>x</b>' }, 'octocat')).toEqual({ body: '<b>x</b>' });
  });

  it('refuses what GitHub comments cannot carry, naming the field', () => {
    const file = { fileName: 'a', contentType: 'text/plain', content: Buffer.from('a') };
    expect(refused({ files: [file] })).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'attachments' } });
    expect(refused({ is_private: true }).details.field).toBe('is_private');
    expect(refused({ contact_id: 'x' }).details.field).toBe('contact_id');
    expect(refused({ creator_type: 'CONTACT' }).details.field).toBe('creator_type');
    expect(refused({ user_id: 'hubot' }).details.field).toBe('user_id');
    expect(refused({ html_body: '<p>x</p>' }).details.field).toBe('html_body');
    expect(refused({ customFields: [{ remoteFieldId: 'f', value: 1 }] }).details.field).toBe('field_mappings');
    expect(refused({ body: '  ' })).toMatchObject({ code: 'validation_failed', details: { field: 'body' } });
  });
});
