import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { attachmentRemoteId, attachmentUrl, desunifyComment, unifyNote, uploadLinks, uploadMarkdown } from '../../../src/providers/gitlab/comment.mapper';
import type { GlNote } from '../../../src/providers/gitlab/types';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('conn-1');
const S1 = '66dbcd21ec5d24ed6ea225176098d52b';
const S2 = '0123456789abcdef0123456789abcdef';

const note: GlNote = {
  id: 302,
  body: `See the log.\n\n[build log.txt](/uploads/${S1}/build_log.txt)\n![screen](/uploads/${S2}/screen%20shot.png) and again [x](/uploads/${S1}/build_log.txt)`,
  author: { id: 1, username: 'pipin', name: 'Pip' },
  created_at: '2013-10-02T09:22:45.000Z',
  updated_at: '2013-10-02T10:22:45.000Z',
  system: false,
  noteable_id: 377,
  noteable_type: 'Issue',
  noteable_iid: 6,
  project_id: 8,
  internal: true,
  confidential: true,
};

const ctx = { ticketRemoteId: '8#6', projectId: 8, web: 'https://gitlab.example.com' };

const err = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected an error');
};

describe('uploadLinks', () => {
  it('finds each upload linked from Markdown once, links and images alike', () => {
    expect(uploadLinks(note.body)).toEqual([
      { url: `/uploads/${S1}/build_log.txt`, secret: S1, fileName: 'build_log.txt' },
      { url: `/uploads/${S2}/screen%20shot.png`, secret: S2, fileName: 'screen shot.png' },
    ]);
    expect(uploadLinks('no links, [a](https://example.com/uploads/x) or /uploads/short/x')).toEqual([]);
    expect(uploadLinks(null)).toEqual([]);
  });

  it('gives stable remote ids and id-based addresses', () => {
    const link = { url: `/uploads/${S1}/a.txt` };
    expect(attachmentRemoteId(8, link)).toBe(`8/uploads/${S1}/a.txt`);
    expect(attachmentUrl('https://gitlab.example.com', 8, link)).toBe(`https://gitlab.example.com/-/project/8/uploads/${S1}/a.txt`);
  });
});

describe('unifyNote', () => {
  it('maps a note and its attachments', () => {
    const u = unifyNote(note, ctx, ids);
    const c = u.comment;
    expect(c.objectType).toBe('ticketing.comment');
    expect(c.remoteId).toBe('302');
    expect(c.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: '8#6' });
    expect(c.data).toEqual({
      body: note.body,
      html_body: null,
      is_private: true,
      creator_type: 'USER',
      ticket_id: ids('ticketing.ticket', '8#6'),
      contact_id: null,
      user_id: ids('ticketing.user', 1),
      attachments: [ids('ticketing.attachment', `8/uploads/${S1}/build_log.txt`), ids('ticketing.attachment', `8/uploads/${S2}/screen%20shot.png`)],
    });
    expect(c.remoteCreatedAt?.toISOString()).toBe('2013-10-02T09:22:45.000Z');
    expect(c.remoteUpdatedAt?.toISOString()).toBe('2013-10-02T10:22:45.000Z');
    expect(u.attachments).toHaveLength(2);
    expect(u.attachments[1]).toMatchObject({
      objectType: 'ticketing.attachment',
      remoteId: `8/uploads/${S2}/screen%20shot.png`,
      parent: { objectType: 'ticketing.comment', remoteId: '302' },
      data: {
        file_name: 'screen shot.png',
        file_url: `https://gitlab.example.com/-/project/8/uploads/${S2}/screen%20shot.png`,
        uploader: ids('ticketing.user', 1),
        ticket_id: ids('ticketing.ticket', '8#6'),
        comment_id: ids('ticketing.comment', '302'),
      },
    });
  });

  it('reads the deprecated confidential flag, and public notes', () => {
    expect(unifyNote({ ...note, internal: undefined, confidential: true }, ctx, ids).comment.data.is_private).toBe(true);
    expect(unifyNote({ ...note, internal: false, confidential: false }, ctx, ids).comment.data.is_private).toBe(false);
    expect(unifyNote({ ...note, internal: undefined, confidential: undefined }, ctx, ids).comment.data.is_private).toBeNull();
    expect(unifyNote({ ...note, author: null }, ctx, ids).comment.data).toMatchObject({ user_id: null, creator_type: null });
  });
});

describe('uploadMarkdown', () => {
  it('uses GitLab’s Markdown, else a plain link', () => {
    expect(uploadMarkdown({ url: '/uploads/x/a.png', markdown: '![a](/uploads/x/a.png)' }, 'a.png')).toBe('![a](/uploads/x/a.png)');
    expect(uploadMarkdown({ url: '/uploads/x/a[1].txt' }, 'a[1].txt')).toBe('[a1.txt](/uploads/x/a[1].txt)');
  });
});

describe('desunifyComment', () => {
  const base: CommentWrite = { ticket_id: '8#6', files: [] };

  it('maps body, privacy and the named author', () => {
    expect(desunifyComment({ ...base, body: 'Hi', is_private: true, user_id: '12' })).toEqual({ body: 'Hi', internal: true, authorId: 12 });
    expect(desunifyComment({ ...base, body: 'Hi', is_private: false })).toEqual({ body: 'Hi', internal: false });
  });

  it('sends html_body as the Markdown body only when body is absent', () => {
    expect(desunifyComment({ ...base, html_body: '<p>Hi</p>' }).body).toBe('<p>Hi</p>');
    expect(desunifyComment({ ...base, body: 'Hi', html_body: '<p>Hi</p>' }).body).toBe('Hi');
  });

  it('accepts a comment that is only attachments', () => {
    expect(desunifyComment({ ...base, files: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }] }).body).toBe('');
  });

  it.each([
    ['contact_id', { body: 'x', contact_id: '3' }],
    ['creator_type', { body: 'x', creator_type: 'CONTACT' as const }],
    ['field_mappings', { body: 'x', customFields: [{ remoteFieldId: 'f', value: 1 }] }],
  ])('refuses %s with 422', (field, patch) => {
    const e = err(() => desunifyComment({ ...base, ...patch }));
    expect(e.code).toBe('unsupported_by_provider');
    expect(e.details.field).toBe(field);
  });

  it('refuses an empty comment with 400', () => {
    expect(err(() => desunifyComment({ ...base, body: '  ' })).status).toBe(400);
  });
});
