import { describe, expect, it } from 'vitest';
import { githubAuthHeaders, githubErrorMessage, githubManifest } from '../../../src/providers/github';
import { githubIsRateLimited } from '../../../src/providers/github/http';
import { resolveOptions } from '../../../src/providers/github/api';
import { nextLink } from '../../../src/providers/kit';

describe('github http profile', () => {
  it('sends a bearer token, the media type, the API version and a User-Agent', () => {
    expect(githubAuthHeaders({ access_token: 'ghp_x' })).toEqual({
      authorization: 'Bearer ghp_x',
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': expect.stringContaining('Omniport'),
    });
    expect(githubAuthHeaders({}).authorization).toBeUndefined();
  });

  it('reads GitHub error bodies', () => {
    expect(githubErrorMessage({ message: 'Not Found', documentation_url: 'x' })).toBe('Not Found');
    expect(
      githubErrorMessage({
        message: 'Validation Failed',
        errors: [
          { resource: 'Issue', field: 'assignees', code: 'invalid', value: 'ghost' },
          { resource: 'Issue', field: 'title', code: 'missing_field' },
        ],
      }),
    ).toBe('Validation Failed: assignees invalid ("ghost") (and 1 more)');
    expect(githubErrorMessage({ message: 'Validation Failed', errors: [{ code: 'custom', message: 'You can only assign up to 10 users' }] })).toBe(
      'Validation Failed: You can only assign up to 10 users',
    );
    expect(githubErrorMessage({ message: 'Validation Failed', errors: ['Label does not exist'] })).toBe('Validation Failed: Label does not exist');
    expect(githubErrorMessage('Bad gateway')).toBe('Bad gateway');
    expect(githubErrorMessage(undefined)).toBeUndefined();
  });

  it('takes the next page from a Link header', () => {
    const link = '<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"';
    expect(nextLink(link)).toBe('https://api.github.com/repositories/1/issues?page=2');
    expect(nextLink('<https://x/a?page=1>; rel="prev", <https://x/a?page=1>; rel="first"')).toBeNull();
    expect(nextLink(undefined)).toBeNull();
  });

  it('recognises GitHub rate-limit 403s and 429s by their header or message', () => {
    const message = (m: string) => ({ message: m, documentation_url: 'https://docs.github.com' });
    expect(githubIsRateLimited(403, { 'x-ratelimit-remaining': '0' }, message('API rate limit exceeded for user ID 1.'))).toBe(true);
    expect(githubIsRateLimited(403, {}, message('You have exceeded a secondary rate limit. Please wait…'))).toBe(true);
    expect(githubIsRateLimited(429, { 'retry-after': '60' }, message('You have exceeded a secondary rate limit.'))).toBe(true);
    expect(githubIsRateLimited(403, { 'x-ratelimit-remaining': '4999' }, message('Resource not accessible by personal access token'))).toBe(false);
    expect(githubIsRateLimited(404, {}, message('rate limit'))).toBe(false);
  });

  it('clamps options to what GitHub allows', () => {
    expect(resolveOptions({ pageSize: 500 }).pageSize).toBe(100);
    expect(resolveOptions().pageSize).toBe(100);
  });

  it('declares an honest manifest', () => {
    expect(githubManifest).toMatchObject({ name: 'github', authKind: 'api_token', defaultBaseUrl: 'https://api.github.com' });
    expect(githubManifest.rateLimitHeaders).toEqual({ remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'epoch' });
    expect(githubManifest.credentials.safeParse({ access_token: 'ghp_x' }).success).toBe(true);
    expect(githubManifest.credentials.safeParse({ access_token: 'ghp_x', email: 'x' }).success).toBe(false);
    expect(Object.keys(githubManifest.capabilities)).not.toContain('ticketing.attachment');
    expect(githubManifest.limitations!.join(' ')).toMatch(/attachments/);
  });
});
