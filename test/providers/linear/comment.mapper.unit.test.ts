import { describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { assetLinks, assetMarkdown, attachmentRemoteId, desunifyComment, unifyComment } from '../../../src/providers/linear/comment.mapper';
import type { LnComment } from '../../../src/providers/linear/types';
import type { CommentWrite } from '../../../src/providers/types';

const ids = idFactory('conn-1');
const HOSTS = ['uploads.linear.app'];
const ISSUE = '6f1c2a4e-4444-4aaa-8bbb-000000000004';
const USER = '6f1c2a4e-2222-4aaa-8bbb-000000000002';
const ASSET = 'https://uploads.linear.app/org-1/aaa/bbb';

function comment(over: Partial<LnComment> = {}): LnComment {
  return {
    id: 'c-1',
    body: `We sent a technician.\n\n[notes.txt](${ASSET})\n![photo.png](https://uploads.linear.app/org-1/ccc/ddd)\n[docs](https://example.com/x)`,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:05:00.000Z',
    archivedAt: null,
    issueId: ISSUE,
    user: { id: USER, name: 'Sam' },
    ...over,
  };
}

const write = (over: Partial<CommentWrite> = {}): CommentWrite => ({ ticket_id: ISSUE, body: 'Hello', files: [], ...over });

describe('linear comment mapper', () => {
  it('unifies a comment with its storage links as attachments', () => {
    const { comment: c, attachments } = unifyComment(comment(), ids, HOSTS);
    expect(c).toMatchObject({ objectType: 'ticketing.comment', remoteId: 'c-1', parent: { objectType: 'ticketing.ticket', remoteId: ISSUE } });
    expect(c.data).toEqual({
      body: comment().body,
      html_body: null,
      is_private: false,
      creator_type: 'USER',
      ticket_id: ids('ticketing.ticket', ISSUE),
      contact_id: null,
      user_id: ids('ticketing.user', USER),
      attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)),
    });
    expect(attachments.map((a) => a.data)).toEqual([
      { file_name: 'notes.txt', file_url: ASSET, uploader: ids('ticketing.user', USER), ticket_id: ids('ticketing.ticket', ISSUE), comment_id: ids('ticketing.comment', 'c-1') },
      expect.objectContaining({ file_name: 'photo.png', file_url: 'https://uploads.linear.app/org-1/ccc/ddd' }),
    ]);
    expect(attachments[0]).toMatchObject({ remoteId: attachmentRemoteId('c-1', ASSET), parent: { objectType: 'ticketing.comment', remoteId: 'c-1' } });
    expect(c.remoteUpdatedAt?.toISOString()).toBe('2024-05-01T10:05:00.000Z');
  });

  it('has no creator for comments of integrations, and reports archived comments (and their files) deleted', () => {
    const { comment: c, attachments } = unifyComment(comment({ user: null, archivedAt: '2024-06-01T00:00:00Z' }), ids, HOSTS);
    expect(c.data).toMatchObject({ creator_type: null, user_id: null });
    expect(c.deleted).toBe(true);
    expect(attachments.every((a) => a.deleted)).toBe(true);
  });

  it('finds storage links once each, with escaped names, ignoring other hosts and broken links', () => {
    const md = `[a \\[1\\].txt](${ASSET}) again [copy](${ASSET}) [x](not a url) [](https://uploads.linear.app/o/p/report%20final.pdf) <${ASSET}>`;
    expect(assetLinks(md, HOSTS)).toEqual([
      { name: 'a [1].txt', url: ASSET, image: false },
      { name: 'report final.pdf', url: 'https://uploads.linear.app/o/p/report%20final.pdf', image: false },
    ]);
    expect(assetLinks(null, HOSTS)).toEqual([]);
    expect(assetLinks(`[a](${ASSET})`, ['other.host'])).toEqual([]);
  });

  it('writes links that read back the same', () => {
    const link = { name: 'weird [name].png', url: ASSET, image: true };
    expect(assetMarkdown(link)).toBe(`![weird \\[name\\].png](${ASSET})`);
    expect(assetLinks(assetMarkdown(link), HOSTS)).toEqual([link]);
  });

  it('desunifies a Markdown body', () => {
    expect(desunifyComment(write())).toEqual({ body: 'Hello' });
    expect(desunifyComment(write({ body: undefined, files: [{ fileName: 'a', contentType: 'text/plain', content: Buffer.from('x') }] }))).toEqual({ body: '' });
    expect(desunifyComment(write({ is_private: false, creator_type: 'USER' }))).toEqual({ body: 'Hello' });
  });

  it('refuses what Linear comments cannot carry, naming the field', () => {
    const refused = (over: Partial<CommentWrite>, field: string) =>
      expect(() => desunifyComment(write(over))).toThrow(expect.objectContaining({ code: 'unsupported_by_provider', details: expect.objectContaining({ field }) }));
    refused({ html_body: '<p>x</p>' }, 'html_body');
    refused({ is_private: true }, 'is_private');
    refused({ contact_id: 'c' }, 'contact_id');
    refused({ creator_type: 'CONTACT' }, 'creator_type');
    refused({ customFields: [{ remoteFieldId: 'f', value: 1 }] }, 'field_mappings');
    expect(() => desunifyComment(write({ body: '  ' }))).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('linear comment mapper: odd file names', () => {
  it('keeps a link on one line', () => {
    const md = assetMarkdown({ name: 'two\nlines.txt', url: ASSET, image: false });
    expect(md).toBe(`[two lines.txt](${ASSET})`);
    expect(assetLinks(md, HOSTS)[0]!.name).toBe('two lines.txt');
  });
});
