import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { AppError } from '../../../src/core/errors';
import { creatorTypeOf, desunifyComment, unifyComment } from '../../../src/providers/zendesk/comment.mapper';
import type { ZdComment } from '../../../src/providers/zendesk/types';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('conn-1');

const comment: ZdComment = {
  id: 1274,
  type: 'Comment',
  author_id: 123123,
  body: 'Thanks for your help!',
  html_body: '<p>Thanks for your help!</p>',
  plain_body: 'Thanks for your help!',
  public: true,
  attachments: [
    { id: 498483, file_name: 'crash.log', content_url: 'https://company.zendesk.com/attachments/crash.log', content_type: 'text/plain', size: 2532 },
    { id: 498484, file_name: 'shot.png', content_url: null, mapped_content_url: 'https://company.zendesk.com/attachments/shot.png' },
  ],
  created_at: '2009-07-20T22:55:29Z',
};

describe('unifyComment', () => {
  it('maps an end-user comment to a CONTACT comment with its attachments', () => {
    const { comment: c, attachments } = unifyComment(comment, 77, ids, { roleOf: () => 'end-user' });
    expect(c).toMatchObject({
      objectType: 'ticketing.comment',
      remoteId: '1274',
      parent: { objectType: 'ticketing.ticket', remoteId: '77' },
      remoteData: comment,
    });
    expect(c.remoteCreatedAt?.toISOString()).toBe('2009-07-20T22:55:29.000Z');
    expect(c.data).toEqual({
      body: 'Thanks for your help!',
      html_body: '<p>Thanks for your help!</p>',
      is_private: false,
      creator_type: 'CONTACT',
      ticket_id: ids('ticketing.ticket', 77),
      contact_id: ids('ticketing.contact', 123123),
      user_id: null,
      attachments: [ids('ticketing.attachment', 498483), ids('ticketing.attachment', 498484)],
    });
    expect(attachments).toHaveLength(2);
    expect(attachments[0]).toMatchObject({
      objectType: 'ticketing.attachment',
      remoteId: '498483',
      parent: { objectType: 'ticketing.comment', remoteId: '1274' },
      data: {
        file_name: 'crash.log',
        file_url: 'https://company.zendesk.com/attachments/crash.log',
        uploader: ids('ticketing.contact', 123123),
        ticket_id: ids('ticketing.ticket', 77),
        comment_id: ids('ticketing.comment', 1274),
      },
    });
    expect(attachments[1]!.data.file_url).toBe('https://company.zendesk.com/attachments/shot.png');
  });

  it('maps an agent comment to USER, private when not public', () => {
    const { comment: c } = unifyComment({ ...comment, public: false, attachments: [] }, '77', ids, { roleOf: () => 'admin' });
    expect(c.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', 123123), contact_id: null, attachments: [] });
  });

  it('leaves the author empty when the role is unknown, and nulls when fields are missing', () => {
    const { comment: c, attachments } = unifyComment({ id: 5 }, 1, ids);
    expect(c.data).toEqual({
      body: null,
      html_body: null,
      is_private: null,
      creator_type: null,
      ticket_id: ids('ticketing.ticket', 1),
      contact_id: null,
      user_id: null,
      attachments: [],
    });
    expect(attachments).toEqual([]);
  });

  it('takes the creation time of an audit event from the audit', () => {
    const { comment: c } = unifyComment({ id: 5, body: 'x' }, 1, ids, { createdAt: '2024-01-02T03:04:05Z' });
    expect(c.remoteCreatedAt?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(c.remoteData.created_at).toBe('2024-01-02T03:04:05Z');
  });

  it('creator types by role', () => {
    expect(creatorTypeOf('end-user')).toBe('CONTACT');
    expect(creatorTypeOf('agent')).toBe('USER');
    expect(creatorTypeOf('admin')).toBe('USER');
    expect(creatorTypeOf(undefined)).toBeNull();
  });
});

describe('desunifyComment', () => {
  const base: CommentWrite = { ticket_id: '77', files: [] };

  it('maps body, html_body, privacy and a contact author', () => {
    expect(desunifyComment({ ...base, body: 'hi', html_body: '<b>hi</b>', is_private: true, contact_id: '55', creator_type: 'CONTACT' })).toEqual({
      comment: { body: 'hi', html_body: '<b>hi</b>', public: false, author_id: 55 },
      authorRole: 'end-user',
    });
  });

  it('maps a user author, and no author means the connection user', () => {
    expect(desunifyComment({ ...base, body: 'x', user_id: '9', is_private: false })).toEqual({ comment: { body: 'x', public: true, author_id: 9 }, authorRole: 'agent' });
    expect(desunifyComment({ ...base, body: 'x' })).toEqual({ comment: { body: 'x' }, authorRole: undefined });
  });

  it('refuses what a Zendesk comment cannot be', () => {
    const code = (input: CommentWrite) => {
      try {
        desunifyComment(input);
      } catch (e) {
        return [(e as AppError).code, (e as AppError).details.field];
      }
      return undefined;
    };
    expect(code({ ...base, body: 'x', user_id: '1', contact_id: '2' })).toEqual(['unsupported_by_provider', 'contact_id']);
    expect(code({ ...base, body: 'x', creator_type: 'CONTACT' })).toEqual(['unsupported_by_provider', 'contact_id']);
    expect(code({ ...base, body: 'x', creator_type: 'USER', contact_id: '2' })).toEqual(['unprocessable', 'creator_type']);
    expect(code({ ...base, body: 'x', customFields: [{ remoteFieldId: '1', value: 1 }] })).toEqual(['unsupported_by_provider', 'field_mappings']);
    expect(code({ ...base })).toEqual(['validation_failed', 'body']);
  });
});
