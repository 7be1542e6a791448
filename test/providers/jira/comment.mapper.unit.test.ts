import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { attachmentLinks, desunifyComment, unifyAttachment, unifyComment, withAttachmentLinks } from '../../../src/providers/jira/comment.mapper';
import { textToAdf } from '../../../src/providers/jira/adf';
import type { JiraComment } from '../../../src/providers/jira/types';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('c1');
const base = 'https://acme.atlassian.net';

describe('unifyComment', () => {
  const body = withAttachmentLinks(textToAdf('We sent a technician.'), [
    { id: '501', filename: 'notes.txt', content: `${base}/rest/api/3/attachment/content/501` },
    { id: '502', filename: 'gone.txt', content: `${base}/rest/api/3/attachment/content/502` },
  ]);
  const c: JiraComment = { id: '700', author: { accountId: 'acc-1', accountType: 'atlassian' }, body, created: '2024-05-01T10:00:00.000+0000', updated: '2024-05-01T11:00:00.000+0000' };

  it('gives text and HTML of the ADF body, the author as a user, and the linked attachments that exist', () => {
    const u = unifyComment(c, '10001', ids, new Set(['501']));
    expect(u.comment.data).toEqual({
      body: 'We sent a technician.\n\nAttachments: notes.txt, gone.txt',
      html_body: `<p>We sent a technician.</p><p>Attachments: <a href="${base}/rest/api/3/attachment/content/501">notes.txt</a>, <a href="${base}/rest/api/3/attachment/content/502">gone.txt</a></p>`,
      is_private: false,
      creator_type: 'USER',
      ticket_id: ids('ticketing.ticket', '10001'),
      contact_id: null,
      user_id: ids('ticketing.user', 'acc-1'),
      attachments: [ids('ticketing.attachment', '501')],
    });
    expect(u.comment.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: '10001' });
    expect(u.comment.remoteUpdatedAt!.toISOString()).toBe('2024-05-01T11:00:00.000Z');
    expect(unifyComment(c, '10001', ids).attachmentIds).toEqual(['501', '502']);
  });

  it('marks restricted comments private and JSM customers as CONTACT without a user', () => {
    const restricted = unifyComment({ ...c, visibility: { type: 'role', value: 'Developers' } }, '1', ids);
    expect(restricted.comment.data.is_private).toBe(true);
    const internal = unifyComment({ ...c, jsdPublic: false }, '1', ids);
    expect(internal.comment.data.is_private).toBe(true);
    const customer = unifyComment({ ...c, author: { accountId: 'qm:1', accountType: 'customer' } }, '1', ids);
    expect(customer.comment.data).toMatchObject({ creator_type: 'CONTACT', user_id: null, contact_id: null });
  });

  it('finds attachment links in REST and UI URL forms, once each', () => {
    const doc = {
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'a', marks: [{ type: 'link', attrs: { href: `${base}/secure/attachment/12/a.png` } }] },
            { type: 'inlineCard', attrs: { url: `${base}/rest/api/2/attachment/content/13` } },
            { type: 'text', text: 'again', marks: [{ type: 'link', attrs: { href: `${base}/rest/api/3/attachment/content/12` } }] },
            { type: 'text', text: 'other', marks: [{ type: 'link', attrs: { href: `${base}/browse/SUP-1` } }] },
          ],
        },
      ],
    };
    expect(attachmentLinks(doc)).toEqual(['12', '13']);
    expect(attachmentLinks('not adf')).toEqual([]);
  });
});

describe('unifyAttachment', () => {
  it('belongs to its comment when linked, else to the issue', () => {
    const a = { id: '501', filename: 'n.txt', content: `${base}/rest/api/3/attachment/content/501`, author: { accountId: 'acc-1' }, created: '2024-05-01T10:00:00.000+0000' };
    expect(unifyAttachment(a, '10001', '700', ids)).toMatchObject({
      objectType: 'ticketing.attachment',
      remoteId: '501',
      data: { file_name: 'n.txt', file_url: a.content, uploader: ids('ticketing.user', 'acc-1'), ticket_id: ids('ticketing.ticket', '10001'), comment_id: ids('ticketing.comment', '700') },
      parent: { objectType: 'ticketing.comment', remoteId: '700' },
    });
    expect(unifyAttachment(a, '10001', null, ids)).toMatchObject({ data: { comment_id: null }, parent: { objectType: 'ticketing.ticket', remoteId: '10001' } });
  });
});

describe('desunifyComment', () => {
  const w = (x: Partial<CommentWrite>): CommentWrite => ({ ticket_id: '1', files: [], ...x });

  it('writes text as ADF and prefers html_body', () => {
    expect(desunifyComment(w({ body: 'a\n\nb' }), undefined)).toEqual(textToAdf('a\n\nb'));
    expect(desunifyComment(w({ body: 'plain', html_body: '<p><em>rich</em></p>' }), undefined).content[0]!.content).toEqual([{ type: 'text', text: 'rich', marks: [{ type: 'em' }] }]);
    expect(desunifyComment(w({ body: 'fallback', html_body: '<p> </p>' }), undefined)).toEqual(textToAdf('fallback'));
  });

  it('accepts the own user, refuses others, contacts, private comments and custom fields', () => {
    expect(() => desunifyComment(w({ body: 'x', user_id: 'me', creator_type: 'USER', is_private: false }), 'me')).not.toThrow();
    const fieldOf = (x: Partial<CommentWrite>) => {
      try {
        desunifyComment(w({ body: 'x', ...x }), 'me');
      } catch (e) {
        return [(e as AppError).code, (e as AppError).details.field];
      }
      return undefined;
    };
    expect(fieldOf({ user_id: 'someone-else' })).toEqual(['unsupported_by_provider', 'user_id']);
    expect(fieldOf({ contact_id: 'c' })).toEqual(['unsupported_by_provider', 'contact_id']);
    expect(fieldOf({ creator_type: 'CONTACT' })).toEqual(['unsupported_by_provider', 'creator_type']);
    expect(fieldOf({ is_private: true })).toEqual(['unsupported_by_provider', 'is_private']);
    expect(fieldOf({ customFields: [{ remoteFieldId: 'x', value: 1 }] })).toEqual(['unsupported_by_provider', 'field_mappings']);
    expect(fieldOf({ body: ' ' })).toEqual(['validation_failed', 'body']);
  });
});
