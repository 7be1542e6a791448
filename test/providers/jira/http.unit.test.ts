import { describe, expect, it } from 'vitest';
import { jiraAuthHeaders, jiraErrorMessage } from '../../../src/providers/jira/http';
import { jqlDate } from '../../../src/providers/jira/api';
import { multipartBody } from '../../../src/providers/jira/tickets';
import { toDate } from '../../../src/providers/jira/util';

describe('jira auth headers', () => {
  it('uses Basic email:token, or a bearer token for OAuth connections', () => {
    expect(jiraAuthHeaders({ email: 'a@b.c', api_token: 't' })).toEqual({ authorization: `Basic ${Buffer.from('a@b.c:t').toString('base64')}` });
    expect(jiraAuthHeaders({ access_token: 'x', email: 'a@b.c', api_token: 't' })).toEqual({ authorization: 'Bearer x' });
    expect(jiraAuthHeaders({})).toEqual({});
  });
});

describe('jira error messages', () => {
  it('reads error collections, bulk element errors, gateway bodies and text', () => {
    expect(jiraErrorMessage({ errorMessages: ['Issue does not exist'], errors: {} })).toBe('Issue does not exist');
    expect(jiraErrorMessage({ errorMessages: [], errors: { summary: 'You must specify a summary of the issue.', priority: 'bad' } })).toBe(
      'summary: You must specify a summary of the issue.; priority: bad',
    );
    expect(jiraErrorMessage({ issues: [], errors: [{ status: 400, elementErrors: { errors: { parent: 'Could not find issue' } }, failedElementNumber: 0 }] })).toBe('parent: Could not find issue');
    expect(jiraErrorMessage({ message: 'Rate limited', code: 429 })).toBe('Rate limited');
    expect(jiraErrorMessage('<html><body>XSRF check   failed</body></html>')).toBe('XSRF check failed');
    expect(jiraErrorMessage({ errorMessages: ['a', 'b', 'c', 'd', 'e'] })).toBe('a; b; c (and 2 more)');
    expect(jiraErrorMessage(undefined)).toBeUndefined();
    expect(jiraErrorMessage({})).toBeUndefined();
  });
});

describe('JQL dates', () => {
  const at = new Date('2024-07-01T18:05:59.999Z');
  it('writes the time in the user zone, rounded down to the minute', () => {
    expect(jqlDate(at, 'America/Los_Angeles')).toBe('2024/07/01 11:05');
    expect(jqlDate(at, 'Asia/Kolkata')).toBe('2024/07/01 23:35');
    expect(jqlDate(at, 'UTC')).toBe('2024/07/01 18:05');
  });
  it('moves back 14 hours in UTC when the zone is unknown or invalid', () => {
    expect(jqlDate(at, undefined)).toBe('2024/07/01 04:05');
    expect(jqlDate(at, 'Not/AZone')).toBe('2024/07/01 04:05');
  });
});

describe('jira timestamps', () => {
  it('reads offsets without a colon and bare dates', () => {
    expect(toDate('2024-05-01T10:20:30.123+0200')!.toISOString()).toBe('2024-05-01T08:20:30.123Z');
    expect(toDate('2024-05-01')!.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(toDate('nope')).toBeNull();
    expect(toDate(null)).toBeNull();
  });
});

describe('multipart uploads', () => {
  it('puts every file in a `file` part with its name and type', () => {
    const { body, contentType } = multipartBody([
      { fileName: 'a "q".txt', contentType: 'text/plain', content: Buffer.from('hello') },
      { fileName: 'b.bin', contentType: '', content: Buffer.from([0, 255]) },
    ]);
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=----omniport[0-9a-f]{24}$/);
    const text = body.toString('latin1');
    expect(text).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a %22q%22.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`);
    expect(text).toContain('filename="b.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\u00ff\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});
