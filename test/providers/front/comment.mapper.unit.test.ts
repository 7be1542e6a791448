import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { planComment, unifyComment, unifyMessage } from '../../../src/providers/front/comment.mapper';
import type { FrComment, FrMessage } from '../../../src/providers/front/types';

const ids = idFactory('conn-1');

const attachment = { id: 'fil_1', filename: 'invoice.pdf', url: 'https://api2.frontapp.com/download/fil_1', content_type: 'application/pdf', size: 10, metadata: {} };

describe('unifyComment', () => {
  it('is a private comment by a teammate, with its attachments', () => {
    const c: FrComment = {
      id: 'com_1',
      author: { id: 'tea_1', type: 'user', email: 'sam@acme.example' },
      body: 'Checking with the **warehouse**.',
      posted_at: 1714558830,
      attachments: [attachment],
      is_pinned: false,
    };
    const { comment, attachments } = unifyComment(c, 'cnv_1', ids);
    expect(comment).toMatchObject({ objectType: 'ticketing.comment', remoteId: 'com_1', parent: { objectType: 'ticketing.ticket', remoteId: 'cnv_1' } });
    expect(comment.remoteCreatedAt?.toISOString()).toBe('2024-05-01T10:20:30.000Z');
    expect(comment.data).toEqual({
      body: 'Checking with the **warehouse**.',
      html_body: null,
      is_private: true,
      creator_type: 'USER',
      ticket_id: ids('ticketing.ticket', 'cnv_1'),
      contact_id: null,
      user_id: ids('ticketing.user', 'tea_1'),
      attachments: [ids('ticketing.attachment', 'fil_1')],
    });
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({
      objectType: 'ticketing.attachment',
      remoteId: 'fil_1',
      parent: { objectType: 'ticketing.comment', remoteId: 'com_1' },
      data: {
        file_name: 'invoice.pdf',
        file_url: 'https://api2.frontapp.com/download/fil_1',
        uploader: ids('ticketing.user', 'tea_1'),
        ticket_id: ids('ticketing.ticket', 'cnv_1'),
        comment_id: ids('ticketing.comment', 'com_1'),
      },
    });
  });

  it('leaves user_id empty for a bot author (a rule, an API token)', () => {
    const { comment } = unifyComment({ id: 'com_2', author: { id: 'tea_bot', type: 'rule' }, body: 'auto' }, 'cnv_1', ids);
    expect(comment.data).toMatchObject({ creator_type: 'USER', user_id: null });
  });
});

describe('unifyMessage', () => {
  it('is a public comment of the contact when inbound', () => {
    const m: FrMessage = {
      id: 'msg_1',
      is_inbound: true,
      created_at: 1714558830,
      author: null,
      recipients: [
        { _links: { related: { contact: 'https://api2.frontapp.com/contacts/crd_1' } }, handle: 'casey@customer.example', role: 'from', name: 'Casey' },
        { _links: { related: { contact: null } }, handle: 'support@acme.example', role: 'to', name: null },
      ],
      body: '<p>Where is it?</p>',
      text: 'Where is it?',
      attachments: [attachment],
    };
    const { comment, attachments } = unifyMessage(m, 'cnv_1', ids);
    expect(comment.data).toEqual({
      body: 'Where is it?',
      html_body: '<p>Where is it?</p>',
      is_private: false,
      creator_type: 'CONTACT',
      ticket_id: ids('ticketing.ticket', 'cnv_1'),
      contact_id: ids('ticketing.contact', 'crd_1'),
      user_id: null,
      attachments: [ids('ticketing.attachment', 'fil_1')],
    });
    expect(attachments[0]!.data).toMatchObject({ uploader: ids('ticketing.contact', 'crd_1') });
  });

  it('is a public comment of its teammate author when outbound; plain text from HTML when there is no text', () => {
    const { comment } = unifyMessage({ id: 'msg_2', is_inbound: false, author: { id: 'tea_1', type: 'user' }, body: '<p>On our way</p>' }, 'cnv_1', ids);
    expect(comment.data).toMatchObject({ body: 'On our way', creator_type: 'USER', user_id: ids('ticketing.user', 'tea_1'), contact_id: null, is_private: false });
  });
});

describe('planComment', () => {
  const base = { ticket_id: 'cnv_1', files: [] };

  it('is an internal comment unless is_private is false', () => {
    expect(planComment({ ...base, body: 'note', user_id: 'tea_1' })).toEqual({ kind: 'comment', authorId: 'tea_1', text: 'note' });
    expect(planComment({ ...base, body: 'note', is_private: true })).toEqual({ kind: 'comment', authorId: undefined, text: 'note' });
    expect(planComment({ ...base, html_body: '<p>a &amp; b</p>' })).toEqual({ kind: 'comment', authorId: undefined, text: 'a & b' });
  });

  it('is a message reply with HTML and text when is_private is false', () => {
    expect(planComment({ ...base, body: 'Hello\nthere <you>', is_private: false })).toEqual({
      kind: 'reply',
      authorId: undefined,
      text: 'Hello\nthere <you>',
      html: '<p>Hello<br>there &lt;you&gt;</p>',
    });
    expect(planComment({ ...base, body: 'Hi', html_body: '<b>Hi</b>', is_private: false })).toMatchObject({ text: 'Hi', html: '<b>Hi</b>' });
  });

  it('refuses a contact author and custom fields (422), an empty body (400)', () => {
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as AppError;
      }
      throw new Error('no error');
    };
    expect(err(() => planComment({ ...base, body: 'x', contact_id: 'crd_1' })).details).toMatchObject({ field: 'contact_id' });
    expect(err(() => planComment({ ...base, body: 'x', creator_type: 'CONTACT' })).details).toMatchObject({ field: 'creator_type' });
    expect(err(() => planComment({ ...base, body: 'x', customFields: [{ remoteFieldId: 'a', value: 1 }] })).status).toBe(422);
    expect(err(() => planComment({ ...base, body: '  ' })).status).toBe(400);
    expect(err(() => planComment({ ...base, body: 'x', user_id: 'crd_1' })).details).toMatchObject({ field: 'user_id' });
  });
});
