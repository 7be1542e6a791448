import { describe, expect, it } from 'vitest';
import { loggablePath, ProviderCallLog, rateLimitOf } from '../../src/dashboard/provider-calls';
import type { DashboardRepo, ProviderCallInsert } from '../../src/store/dashboard.repo';
import type { ProviderCallReport } from '../../src/providers/http-client';
import type { ProviderManifest } from '../../src/providers/manifest';
import { gorgiasManifest } from '../../src/providers/gorgias';
import { salesforceManifest } from '../../src/providers/salesforce';

describe('provider call log entries', () => {
  it('keep the path and query, masking the values of secret-looking parameters', () => {
    expect(loggablePath(new URL('https://x.test/api/v1/deals?start=0&limit=500&api_token=s3cr3t'))).toBe('/api/v1/deals?start=0&limit=500&api_token=[redacted]');
    expect(loggablePath(new URL('https://x.test/a?page[size]=100&access_token=t&client_secret=c&X-Amz-Signature=abc&code=1'))).toBe(
      '/a?page[size]=100&access_token=[redacted]&client_secret=[redacted]&X-Amz-Signature=[redacted]&code=[redacted]',
    );
    expect(loggablePath(new URL('https://x.test/plain'))).toBe('/plain');
    expect(loggablePath(new URL(`https://x.test/${'a'.repeat(600)}`))).toHaveLength(500);
  });

  it('read the rate-limit headers the manifest names, and a 429', () => {
    const manifest = { rateLimitHeaders: [{ remaining: 'x-ratelimit-remaining', reset: 'x-ratelimit-reset', resetKind: 'seconds' }, { remaining: 'x-other' }] } as unknown as ProviderManifest;
    const call = (status: number, headers: Record<string, string>): ProviderCallReport => ({
      connectionId: 'c',
      manifest,
      method: 'GET',
      url: new URL('https://x.test/'),
      startedAt: new Date('2026-01-01T00:00:00Z'),
      durationMs: 1000,
      status,
      headers,
    });
    expect(rateLimitOf(call(200, { 'x-ratelimit-remaining': '41', 'x-ratelimit-reset': '30' }))).toEqual({ remaining: '41', resetAt: '2026-01-01T00:00:31.000Z' });
    expect(rateLimitOf(call(429, {}))).toEqual({ limited: true });
    expect(rateLimitOf(call(200, {}))).toBeNull();
  });

  it('show a header of use against a limit (Gorgias "12/40", Salesforce api-usage) as what is left', () => {
    const call = (manifest: ProviderManifest, headers: Record<string, string>): ProviderCallReport => ({
      connectionId: 'c',
      manifest,
      method: 'GET',
      url: new URL('https://x.test/'),
      startedAt: new Date('2026-01-01T00:00:00Z'),
      durationMs: 10,
      status: 200,
      headers,
    });
    expect(rateLimitOf(call(gorgiasManifest, { 'x-gorgias-account-api-call-limit': '12/40' }))).toEqual({ remaining: '28' });
    expect(rateLimitOf(call(gorgiasManifest, { 'x-gorgias-account-api-call-limit': '41/40' }))).toEqual({ remaining: '0' });
    expect(rateLimitOf(call(salesforceManifest, { 'sforce-limit-info': 'api-usage=12/15000' }))).toEqual({ remaining: '14988' });
    expect(rateLimitOf(call(gorgiasManifest, { 'x-gorgias-account-api-call-limit': 'garbled' }))).toBeNull();
  });

  it('are buffered and written in batches; calls of credentials not yet a connection are left out', async () => {
    const batches: ProviderCallInsert[][] = [];
    const repo = { insertCalls: async (calls: ProviderCallInsert[]) => void batches.push(calls) } as unknown as DashboardRepo;
    const log = new ProviderCallLog(repo, { retentionDays: 7, flushMs: 60_000 });
    const manifest = {} as ProviderManifest;
    const call = (connectionId: string, path: string): ProviderCallReport => ({ connectionId, manifest, method: 'GET', url: new URL(`https://x.test${path}`), startedAt: new Date(), durationMs: 3.4, status: 200, headers: {} });
    log.record(call('verify:zendesk', '/api/v2/users/me'));
    for (let i = 0; i < 3; i++) log.record(call('0b7c3f2e-8a1d-4e55-9f00-4f2d8a6b1c01', `/page/${i}`));
    expect(batches).toEqual([]); // nothing written on the call's path
    await log.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((c) => c.path)).toEqual(['/page/0', '/page/1', '/page/2']);
    expect(batches[0]![0]).toMatchObject({ method: 'GET', status: 200, durationMs: 3, error: null, rateLimit: null });
  });
});
