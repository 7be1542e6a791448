import { expect, it } from 'vitest';
import { syncSection, type StreamView } from '../../src/dashboard/pages';

const stream = (name: string, status: string, lastSuccessAt: Date | null, records = 0): StreamView => ({
  stream: name,
  status,
  mode: 'full',
  records,
  lastSuccessAt,
  lastError: status === 'failed' ? 'Zendesk answered 500' : null,
  resumesAt: null,
});

const progressText = (html: string) => /<span id="sync-progress-text"[^>]*>([^<]*)<\/span>/.exec(html)?.[1];

it('counts only streams whose last run succeeded as synced, and says how many failed', () => {
  const at = new Date();
  const streams = [stream('a', 'idle', at), stream('b', 'idle', at), stream('c', 'failed', null), stream('d', 'failed', at), stream('e', 'never_run', null)];
  const html = String(syncSection({ connectionId: 'x', streams, csrf: 't', canSync: true }));
  expect(progressText(html)).toBe('2 of 5 streams synced, 2 failed');
  expect(html).toContain('badge bad">failed');
});

it('shows a running stream with its count and keeps refreshing', () => {
  const html = String(syncSection({ connectionId: 'x', streams: [stream('a', 'running', null, 12_500), stream('b', 'idle', new Date())], csrf: 't', canSync: true }));
  expect(progressText(html)).toBe('Syncing: 1 of 2 streams done');
  expect(html).toContain('12,500');
  expect(html).toContain('hx-trigger="every 2s"');
});

it('shows queued streams as queued, busy, and keeps refreshing for them', () => {
  const html = String(syncSection({ connectionId: 'x', streams: [stream('a', 'queued', null), stream('b', 'idle', new Date())], csrf: 't', canSync: true }));
  expect(html).toContain('badge busy">queued');
  expect(progressText(html)).toBe('Syncing: 1 of 2 streams done');
  expect(html).toContain('hx-trigger="every 2s"');
});
