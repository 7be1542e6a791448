import { describe, expect, it } from 'vitest';
import { pageTokenOf, resolveOptions } from '../../../src/providers/front/api';
import { frontAuthHeaders, frontErrorMessage } from '../../../src/providers/front/http';
import { formFields, htmlToText, idFromLink, multipartBody, textToHtml, fromEpochSeconds, toSeconds } from '../../../src/providers/front/util';
import { nestForm, parseMultipart } from '../../simulators/front/multipart';

describe('front http profile', () => {
  it('sends the API token as a bearer token', () => {
    expect(frontAuthHeaders({ access_token: 'tok' })).toEqual({ authorization: 'Bearer tok' });
    expect(frontAuthHeaders({})).toEqual({});
  });

  it('reads Front error bodies', () => {
    expect(frontErrorMessage({ _error: { status: 404, title: 'Not found', message: 'Unknown conversation cnv_1' } })).toBe('Not found: Unknown conversation cnv_1');
    expect(frontErrorMessage({ _error: { status: 400, title: 'Bad request', message: 'Body did not satisfy requirements', details: ['subject is required', 'x'] } })).toBe(
      'Bad request: Body did not satisfy requirements: subject is required (and 1 more)',
    );
    expect(frontErrorMessage({ message: 'plain' })).toBe('plain');
    expect(frontErrorMessage('Bad gateway')).toBe('Bad gateway');
    expect(frontErrorMessage(undefined)).toBeUndefined();
  });
});

describe('front utilities', () => {
  it('converts Front timestamps (seconds with decimals)', () => {
    expect(fromEpochSeconds(1714558830.123)?.toISOString()).toBe('2024-05-01T10:20:30.123Z');
    expect(fromEpochSeconds('1714558830')).toBeNull();
    expect(toSeconds('2024-05-01T10:20:30.123Z')).toBe(1714558830.123);
  });

  it('keeps only the page token of a next link, whatever its host', () => {
    expect(pageTokenOf('https://acme.api.frontapp.com/conversations?limit=50&page_token=abc%3D')).toBe('abc=');
    expect(pageTokenOf('https://api2.frontapp.com/conversations?limit=50')).toBeNull();
    expect(pageTokenOf(null)).toBeNull();
  });

  it('clamps options to what Front allows', () => {
    expect(resolveOptions({ pageSize: 500, eventPageSize: 50, conversationPageSize: 0 })).toMatchObject({ pageSize: 100, eventPageSize: 15, conversationPageSize: 1 });
  });

  it('reads ids from links and converts HTML and text', () => {
    expect(idFromLink('https://api2.frontapp.com/conversations/cnv_1?x=1', 'conversations')).toBe('cnv_1');
    expect(idFromLink('https://api2.frontapp.com/contacts/crd_1', 'conversations')).toBeNull();
    expect(htmlToText('<div>a<br>b</div><p>&lt;c&gt; &#39;d&#39; &#x41;</p>')).toBe("a\nb\n\n<c> 'd' A");
    expect(textToHtml('a & b\nc\n\nd')).toBe('<p>a &amp; b<br>c</p><p>d</p>');
  });

  it('builds multipart bodies Front (and the simulator) read back field by field', () => {
    const fields = formFields({ body: 'hi', author_id: 'tea_1', options: { archive: false, tag_ids: ['tag_1'] }, skipped: undefined });
    expect(fields).toEqual([
      ['body', 'hi'],
      ['author_id', 'tea_1'],
      ['options[archive]', false],
      ['options[tag_ids][0]', 'tag_1'],
    ]);
    const { body, contentType } = multipartBody([...fields, ['attachments[0]', { fileName: 'a "b".txt', contentType: 'text/plain', content: Buffer.from('hello\r\nworld') }]]);
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    const form = nestForm(parseMultipart(body.toString('utf8'), boundary));
    expect(form).toMatchObject({ body: 'hi', author_id: 'tea_1', options: { archive: 'false', tag_ids: ['tag_1'] } });
    const file = (form.attachments as Array<{ filename: string; contentType: string; content: Buffer }>)[0]!;
    expect(file.filename).toBe('a %22b%22.txt');
    expect(file.contentType).toBe('text/plain');
    expect(file.content.toString('utf8')).toBe('hello\r\nworld');
  });
});
