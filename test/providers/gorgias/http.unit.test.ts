import { describe, expect, it } from 'vitest';
import { gorgiasAdapter, gorgiasAuthHeaders, gorgiasErrorMessage, gorgiasManifest, parseCallLimit } from '../../../src/providers/gorgias';
import { uploadBody } from '../../../src/providers/gorgias/uploads';

describe('gorgias http profile', () => {
  it('authenticates with HTTP Basic email:api_key, or a bearer token', () => {
    const h = gorgiasAuthHeaders({ email: 'api@acme.example', api_token: 'k3y' });
    expect(h.authorization).toBe(`Basic ${Buffer.from('api@acme.example:k3y').toString('base64')}`);
    expect(gorgiasAuthHeaders({ access_token: 'tok' })).toEqual({ authorization: 'Bearer tok' });
    expect(gorgiasAuthHeaders({})).toEqual({});
  });

  it('reads every error body form Gorgias answers', () => {
    expect(gorgiasErrorMessage({ error: { msg: 'Invalid data', data: { messages: { '0': { channel: ['Missing data for required field.'] } }, subject: ['Too long.'] } } })).toBe(
      'Invalid data: messages.0.channel: Missing data for required field. (and 1 more)',
    );
    expect(gorgiasErrorMessage({ error: { msg: 'Resource not found' } })).toBe('Resource not found');
    expect(gorgiasErrorMessage({ error: 'Unauthorized' })).toBe('Unauthorized');
    expect(gorgiasErrorMessage({ message: 'Too many requests' })).toBe('Too many requests');
    expect(gorgiasErrorMessage('<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
    expect(gorgiasErrorMessage({ errors: { email: ['Not a valid email address.'] } })).toBe('email: Not a valid email address.');
    expect(gorgiasErrorMessage(null)).toBeUndefined();
    expect(gorgiasErrorMessage({})).toBeUndefined();
  });

  it('parses the call-limit header (used/limit)', () => {
    expect(parseCallLimit('10/40')).toEqual({ used: 10, limit: 40, remaining: 30 });
    expect(parseCallLimit(' 41 / 40 ')).toEqual({ used: 41, limit: 40, remaining: 0 });
    expect(parseCallLimit('x')).toBeUndefined();
    expect(parseCallLimit(undefined)).toBeUndefined();
  });

  it('declares the manifest honestly', () => {
    expect(gorgiasManifest).toMatchObject({ name: 'gorgias', vertical: 'ticketing', authKind: 'basic' });
    expect(gorgiasManifest.defaultBaseUrl).toBeUndefined();
    expect(gorgiasManifest.rateLimitHeaders).toMatchObject({ remaining: 'x-gorgias-account-api-call-limit', usage: { holdMs: 1_000 } });
    expect(gorgiasManifest.capabilities['ticketing.account']).toBeUndefined();
    expect(gorgiasManifest.capabilities['ticketing.collection']).toBeUndefined();
    expect(gorgiasManifest.credentials.safeParse({ email: 'a@b.co', api_token: 'x' }).success).toBe(true);
    expect(gorgiasManifest.credentials.safeParse({ email: 'a@b.co', api_token: 'x', extra: 1 }).success).toBe(false);
    expect(gorgiasAdapter.syncers.map((s) => s.key)).toEqual([
      'ticketing.team',
      'ticketing.user',
      'ticketing.contact',
      'ticketing.tag',
      'ticketing.ticket',
      'ticketing.comment',
    ]);
    expect(gorgiasAdapter.customFields?.objectTypes).toEqual(['ticketing.ticket']);
  });

  it('builds one multipart part per file, named by the file name', () => {
    const { body, contentType } = uploadBody(
      [
        { fileName: 'notes.txt', contentType: 'text/plain', content: Buffer.from('hello') },
        { fileName: 'we"ird\nname.bin', contentType: '', content: Buffer.from([0, 1, 2]) },
      ],
      'B',
    );
    expect(contentType).toBe('multipart/form-data; boundary=B');
    const text = body.toString('latin1');
    expect(text).toContain('--B\r\nContent-Disposition: form-data; name="notes.txt"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n');
    expect(text).toContain('name="we%22ird name.bin"; filename="we%22ird name.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\u0001\u0002\r\n');
    expect(text.endsWith('--B--\r\n')).toBe(true);
  });
});
