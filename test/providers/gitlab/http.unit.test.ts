import { describe, expect, it } from 'vitest';
import { apiRoot, nextPageQuery, resolveOptions, webBase } from '../../../src/providers/gitlab/api';
import { gitlabAuthHeaders, gitlabErrorMessage } from '../../../src/providers/gitlab/http';
import { gitlabManifest } from '../../../src/providers/gitlab/manifest';
import { multipartFile } from '../../../src/providers/gitlab/tickets';

describe('gitlabAuthHeaders', () => {
  it('sends personal access tokens as PRIVATE-TOKEN and OAuth tokens as Bearer', () => {
    expect(gitlabAuthHeaders({ access_token: 'glpat-x' })).toEqual({ 'private-token': 'glpat-x' });
    expect(gitlabAuthHeaders({ access_token: 'oauth-x', refresh_token: 'r', expires_at: '2030-01-01T00:00:00Z' })).toEqual({ authorization: 'Bearer oauth-x' });
    expect(gitlabAuthHeaders({ access_token: 'oauth-y', token_type: 'Bearer' })).toEqual({ authorization: 'Bearer oauth-y' });
    expect(gitlabAuthHeaders({})).toEqual({});
  });
});

describe('gitlabErrorMessage', () => {
  it.each([
    [{ message: '404 Project Not Found' }, '404 Project Not Found'],
    [{ message: { title: ["can't be blank"], labels: ['is invalid'] } }, "title can't be blank; labels is invalid"],
    [{ message: { base: ['Issue is locked'] } }, 'Issue is locked'],
    [{ error: 'title is missing' }, 'title is missing'],
    [{ error: 'insufficient_scope', error_description: 'The request requires higher privileges.', scope: 'api' }, 'insufficient_scope: The request requires higher privileges.'],
    [{ error: 'invalid_token', error_description: 'Token has expired.' }, 'invalid_token: Token has expired.'],
    ['Retry later\n', 'Retry later'],
    [{ message: { a: ['1'], b: ['2'], c: ['3'], d: ['4'] } }, 'a 1; b 2; c 3 (and 1 more)'],
    [{}, undefined],
    [null, undefined],
  ])('reads %j', (body, expected) => {
    expect(gitlabErrorMessage(body)).toBe(expected);
  });
});

describe('nextPageQuery', () => {
  const q = { state: 'all', per_page: 2 };
  it('follows the next link (query only, whatever the host)', () => {
    const link =
      '<https://gitlab.example.com/api/v4/projects/8/issues?page=1&per_page=2&state=all>; rel="prev", <https://elsewhere.example.com/api/v4/projects/8/issues?page=3&per_page=2&state=all>; rel="next", <https://gitlab.example.com/api/v4/projects/8/issues?page=1>; rel="first"';
    expect(nextPageQuery({ link }, q, 2, 2)).toEqual({ page: '3', per_page: '2', state: 'all' });
    expect(nextPageQuery({ link: '<https://gitlab.example.com/x?page=1>; rel="first"' }, q, 2, 2)).toBeNull();
  });

  it('falls back to X-Next-Page, then to full pages', () => {
    expect(nextPageQuery({ 'x-next-page': '4' }, q, 2, 2)).toEqual({ ...q, page: '4' });
    expect(nextPageQuery({ 'x-next-page': '' }, q, 2, 2)).toBeNull();
    expect(nextPageQuery({}, { ...q, page: 2 }, 2, 2)).toEqual({ ...q, page: 3 });
    expect(nextPageQuery({}, q, 1, 2)).toBeNull();
  });
});

describe('API root and options', () => {
  it('puts the API under /api/v4 unless the base URL already ends with it', () => {
    expect(apiRoot({ baseUrl: 'https://gitlab.com' })).toBe('/api/v4');
    expect(apiRoot({ baseUrl: 'https://git.example.com/gitlab' })).toBe('/api/v4');
    expect(apiRoot({ baseUrl: 'https://git.example.com/api/v4' })).toBe('');
    expect(webBase({ baseUrl: 'https://git.example.com/api/v4/' })).toBe('https://git.example.com');
    expect(webBase({ baseUrl: 'https://git.example.com/gitlab/' })).toBe('https://git.example.com/gitlab');
  });

  it('bounds the page size to GitLab’s 100', () => {
    expect(resolveOptions({ pageSize: 500 }).pageSize).toBe(100);
    expect(resolveOptions({ pageSize: 0 }).pageSize).toBe(1);
    expect(resolveOptions().pageSize).toBe(100);
  });
});

describe('multipartFile', () => {
  it('builds one `file` part with the bytes untouched', () => {
    const content = Buffer.from([0, 255, 13, 10, 45, 45]);
    const { body, contentType } = multipartFile({ fileName: 'we"ird\r\nname.bin', contentType: 'application/octet-stream', content }, 'BOUNDARY');
    expect(contentType).toBe('multipart/form-data; boundary=BOUNDARY');
    const head = '--BOUNDARY\r\nContent-Disposition: form-data; name="file"; filename="we%22ird  name.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    expect(body.subarray(0, head.length).toString('utf8')).toBe(head);
    expect(body.subarray(head.length, head.length + content.length)).toEqual(content);
    expect(body.subarray(head.length + content.length).toString('utf8')).toBe('\r\n--BOUNDARY--\r\n');
  });
});

describe('gitlabManifest', () => {
  it('asks for an access token, defaults to gitlab.com and reads GitLab’s rate-limit headers', () => {
    expect(gitlabManifest.credentials.safeParse({ access_token: 'glpat-x' }).success).toBe(true);
    expect(gitlabManifest.credentials.safeParse({ access_token: '' }).success).toBe(false);
    expect(gitlabManifest.credentials.safeParse({ access_token: 'x', email: 'y' }).success).toBe(false);
    expect(gitlabManifest.defaultBaseUrl).toBe('https://gitlab.com');
    expect(gitlabManifest.rateLimitHeaders).toEqual({ remaining: 'ratelimit-remaining', reset: 'ratelimit-reset', resetKind: 'epoch' });
    expect(gitlabManifest.capabilities['ticketing.contact']).toBeUndefined();
    expect(gitlabManifest.capabilities['ticketing.account']).toBeUndefined();
  });
});
