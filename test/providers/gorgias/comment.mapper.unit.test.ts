import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { attachmentRemoteId, authorRefs, desunifyComment, unifyMessage } from '../../../src/providers/gorgias/comment.mapper';
import type { GgMessage } from '../../../src/providers/gorgias/types';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('conn-1');

/** Shaped after the reference's TicketMessage example. */
const incoming: GgMessage = {
  id: 924712,
  uri: '/api/messages/924712',
  ticket_id: 12,
  public: true,
  channel: 'email',
  via: 'email',
  from_agent: false,
  sender: { id: 93, email: 'john@example.com', name: 'John Doe' },
  body_text: "I can't place an order.",
  body_html: "<p>I can't place an order.</p>",
  attachments: [
    { url: 'https://uploads.gorgias.io/abc/screenshot.png', name: 'screenshot.png', size: 784554, content_type: 'image/png' },
    { url: 'https://uploads.gorgias.io/abc/log.txt', name: 'log.txt', size: '12', content_type: 'text/plain' },
  ],
  created_datetime: '2020-01-27T10:42:21.468912',
  sent_datetime: null,
  deleted_datetime: null,
};

describe('unifyMessage', () => {
  it('maps a customer message with its attachments (parents: ticket, then message)', () => {
    const { comment, attachments } = unifyMessage(incoming, ids);
    expect(comment).toMatchObject({
      objectType: 'ticketing.comment',
      remoteId: '924712',
      parent: { objectType: 'ticketing.ticket', remoteId: '12' },
      remoteData: incoming,
    });
    expect(comment.remoteCreatedAt?.toISOString()).toBe('2020-01-27T10:42:21.468Z');
    expect(comment.data).toEqual({
      body: "I can't place an order.",
      html_body: "<p>I can't place an order.</p>",
      is_private: false,
      creator_type: 'CONTACT',
      ticket_id: ids('ticketing.ticket', 12),
      contact_id: ids('ticketing.contact', 93),
      user_id: null,
      attachments: [ids('ticketing.attachment', '924712:0'), ids('ticketing.attachment', '924712:1')],
    });
    expect(attachments.map((a) => a.remoteId)).toEqual([attachmentRemoteId(924712, 0), attachmentRemoteId(924712, 1)]);
    expect(attachments[0]).toMatchObject({
      objectType: 'ticketing.attachment',
      parent: { objectType: 'ticketing.comment', remoteId: '924712' },
      data: {
        file_name: 'screenshot.png',
        file_url: 'https://uploads.gorgias.io/abc/screenshot.png',
        uploader: ids('ticketing.contact', 93),
        ticket_id: ids('ticketing.ticket', 12),
        comment_id: ids('ticketing.comment', 924712),
      },
    });
  });

  it('maps an internal note from an agent, and a deleted message as deleted', () => {
    const note = unifyMessage({ id: 5, ticket_id: 1, channel: 'internal-note', public: false, from_agent: true, sender: { id: 7 }, body_text: 'psst' }, ids, 1);
    expect(note.comment.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', 7), contact_id: null });
    const gone = unifyMessage({ ...incoming, deleted_datetime: '2021-01-01T00:00:00' }, ids);
    expect(gone.comment.deleted).toBe(true);
    expect(gone.attachments.every((a) => a.deleted)).toBe(true);
    expect(gone.comment.remoteUpdatedAt?.toISOString()).toBe('2021-01-01T00:00:00.000Z');
  });

  it('leaves the author unknown when Gorgias does not say who wrote it', () => {
    expect(authorRefs({ from_agent: null, sender: { id: 3 } }, ids)).toEqual({ creator_type: null, user_id: null, contact_id: null });
    const r = unifyMessage({ id: 2, body_html: '<p>a &amp; b</p>' }, ids);
    expect(r.comment.data).toMatchObject({ body: 'a & b', ticket_id: null, is_private: null });
    expect(r.comment.parent).toBeUndefined();
  });
});

const write = (o: Partial<CommentWrite>): CommentWrite => ({ ticket_id: '12', files: [], ...o });

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

describe('desunifyComment', () => {
  it('writes a public agent message from the connection user (sender and receiver filled in by the caller)', () => {
    expect(desunifyComment(write({ body: 'Hello\n\nBye' }))).toEqual({
      message: { channel: 'api', via: 'api', from_agent: true, public: true, body_text: 'Hello\n\nBye', body_html: '<p>Hello</p><p>Bye</p>' },
      fromSelf: true,
      needsReceiver: true,
    });
  });

  it('writes an internal note from a named user', () => {
    const d = desunifyComment(write({ html_body: '<p>Hi <b>team</b></p>', is_private: true, user_id: '7', creator_type: 'USER' }));
    expect(d).toEqual({
      message: { channel: 'internal-note', via: 'api', from_agent: true, public: false, body_text: 'Hi team', body_html: '<p>Hi <b>team</b></p>', sender: { id: 7 } },
      fromSelf: false,
      needsReceiver: false,
    });
  });

  it('writes a customer message from contact_id', () => {
    expect(desunifyComment(write({ body: 'Thanks', contact_id: '93' })).message).toMatchObject({ from_agent: false, public: true, sender: { id: 93 } });
  });

  it('refuses contradictions and what Gorgias cannot take, naming the field', () => {
    const cases: Array<[Partial<CommentWrite>, string, string]> = [
      [{ body: 'x', customFields: [{ remoteFieldId: '1', value: 1 }] }, 'field_mappings', 'unsupported_by_provider'],
      [{ body: 'x', user_id: '1', contact_id: '2' }, 'contact_id', 'unsupported_by_provider'],
      [{ body: 'x', creator_type: 'CONTACT' }, 'contact_id', 'unsupported_by_provider'],
      [{ body: 'x', creator_type: 'USER', contact_id: '2' }, 'creator_type', 'unprocessable'],
      [{ body: 'x', creator_type: 'CONTACT', contact_id: '2', user_id: '1' }, 'contact_id', 'unsupported_by_provider'],
      [{ body: 'x', contact_id: '2', is_private: true }, 'is_private', 'unsupported_by_provider'],
      [{ body: '  ' }, 'body', 'validation_failed'],
      [{ body: 'x', user_id: 'u-1' }, 'user_id', 'unknown_reference'],
    ];
    for (const [input, field, code] of cases) {
      const e = refusal(() => desunifyComment(write(input)));
      expect(e.details.field, JSON.stringify(input)).toBe(field);
      expect(e.code, JSON.stringify(input)).toBe(code);
    }
  });
});
