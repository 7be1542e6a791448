import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, type ProviderHttpClient, type RequestOptions } from '../../../src/providers/http-client';
import { errorCodeOf, gql, LinearApiError, pages, resolveOptions } from '../../../src/providers/linear/graphql';
import { linearAuthHeaders, linearErrorMessage } from '../../../src/providers/linear/http';
import type { AdapterContext } from '../../../src/providers/types';

type Answer = { status: number; body: unknown } | Error;

/** An AdapterContext whose client answers from a script (ProviderError for status ≥ 400, as the real client does). */
function scripted(answers: Answer[]) {
  const calls: RequestOptions[] = [];
  const http = {
    async post(_path: string, o: RequestOptions) {
      calls.push(o);
      const a = answers.shift();
      if (!a) throw new Error('no more answers');
      if (a instanceof Error) throw a;
      if (a.status >= 400) throw new ProviderError('linear', a.status, linearErrorMessage(a.body), a.body);
      return { status: a.status, headers: {}, data: a.body };
    },
  };
  const ctx: AdapterContext = { connectionId: 'c', baseUrl: 'https://api.linear.app', credentials: {}, http: http as unknown as ProviderHttpClient, ids: idFactory('c') };
  return { ctx, calls };
}

const err = (code: string, message = 'boom', extra: Record<string, unknown> = {}) => ({ errors: [{ message, extensions: { code, ...extra } }] });
const o = resolveOptions({ rateLimitBaseMs: 1, rateLimitRetries: 2 });

describe('linear http profile', () => {
  it('sends personal API keys bare and OAuth tokens as Bearer', () => {
    expect(linearAuthHeaders({ access_token: 'lin_api_abc' })).toEqual({ authorization: 'lin_api_abc' });
    expect(linearAuthHeaders({ access_token: 'lin_oauth_abc' })).toEqual({ authorization: 'Bearer lin_oauth_abc' });
    expect(linearAuthHeaders({ access_token: 'opaque', token_type: 'Bearer' })).toEqual({ authorization: 'Bearer opaque' });
    expect(linearAuthHeaders({ access_token: 'opaque', refresh_token: 'r' })).toEqual({ authorization: 'Bearer opaque' });
    expect(linearAuthHeaders({ access_token: 'opaque' })).toEqual({ authorization: 'opaque' });
    expect(linearAuthHeaders({})).toEqual({});
  });

  it('reads Linear error bodies', () => {
    expect(linearErrorMessage(err('INVALID_INPUT', 'Argument Validation Error', { userPresentableMessage: 'title should not be empty.' }))).toBe(
      'INVALID_INPUT: Argument Validation Error: title should not be empty.',
    );
    expect(linearErrorMessage({ errors: [{ message: 'a' }, { message: 'b' }] })).toBe('a (and 1 more)');
    expect(linearErrorMessage('error code: 502')).toBe('error code: 502');
    expect(linearErrorMessage(undefined)).toBeUndefined();
    expect(errorCodeOf({ extensions: { type: 'ratelimited' } })).toBe('RATELIMITED');
  });
});

describe('linear graphql calls', () => {
  it('returns data, and retries queries (not mutations) on 5xx and timeouts through the client', async () => {
    const { ctx, calls } = scripted([{ status: 200, body: { data: { viewer: { id: 'u' } } } }, { status: 200, body: { data: { x: 1 } } }]);
    expect(await gql(ctx, o, 'query { viewer { id } }')).toEqual({ viewer: { id: 'u' } });
    await gql(ctx, o, 'mutation { x }', {}, { mutation: true });
    expect(calls.map((c) => c.read)).toEqual([true, false]);
    expect(calls[0]!.json).toEqual({ query: 'query { viewer { id } }', variables: {} });
  });

  it('classifies errors by extensions.code whatever the HTTP status', async () => {
    const cases: Array<[Answer, number, string | undefined]> = [
      [{ status: 400, body: err('AUTHENTICATION_ERROR') }, 401, 'AUTHENTICATION_ERROR'],
      [{ status: 200, body: { data: null, ...err('FORBIDDEN') } }, 403, 'FORBIDDEN'],
      [{ status: 400, body: err('INVALID_INPUT') }, 400, 'INVALID_INPUT'],
      [{ status: 400, body: { errors: [{ message: 'x', extensions: { type: 'invalid input' } }] } }, 400, 'INVALID_INPUT'],
      [{ status: 500, body: err('INTERNAL_SERVER_ERROR') }, 500, 'INTERNAL_SERVER_ERROR'],
      [{ status: 502, body: 'error code: 502' }, 502, undefined],
      [{ status: 200, body: { data: { a: null }, errors: [{ message: 'partial' }] } }, 400, undefined],
    ];
    for (const [answer, status, code] of cases) {
      const { ctx } = scripted([answer]);
      const e = await gql(ctx, o, 'query { a }').catch((x: unknown) => x);
      expect(e, JSON.stringify(answer)).toBeInstanceOf(LinearApiError);
      expect((e as LinearApiError).providerStatus).toBe(status);
      expect((e as LinearApiError).details).toMatchObject({ provider: 'linear', provider_status: status, ...(code ? { provider_code: code } : {}) });
    }
  });

  it('answers a missing data member as a provider error', async () => {
    const { ctx } = scripted([{ status: 200, body: {} }]);
    await expect(gql(ctx, o, 'query { a }')).rejects.toBeInstanceOf(LinearApiError);
  });

  it('passes through errors that are not provider answers (timeouts, outages)', async () => {
    const timeout = new AppError('provider_timeout', 'slow', { provider: 'linear' });
    const { ctx } = scripted([timeout]);
    await expect(gql(ctx, o, 'query { a }')).rejects.toBe(timeout);
  });

  it('retries RATELIMITED (HTTP 400 or 200), then answers 503 with Retry-After', async () => {
    const limited = { status: 400, body: err('RATELIMITED', 'Rate limit exceeded') };
    const ok = scripted([limited, { status: 200, body: { data: null, ...err('RATELIMITED') } }, { status: 200, body: { data: { a: 1 } } }]);
    expect(await gql(ok.ctx, o, 'mutation { a }', {}, { mutation: true })).toEqual({ a: 1 });
    expect(ok.calls).toHaveLength(3);

    const stuck = scripted([limited, limited, limited, limited]);
    const e = (await gql(stuck.ctx, o, 'query { a }').catch((x: unknown) => x)) as AppError;
    expect(stuck.calls).toHaveLength(3);
    expect(e.code).toBe('provider_rate_limited');
    expect(e.status).toBe(503);
    expect(e.details).toMatchObject({ provider: 'linear', provider_status: 429, provider_http_status: 400, provider_code: 'RATELIMITED' });
    expect(Number(e.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('walks a connection to its last page', async () => {
    const page = (ids: string[], next: string | null) => ({ status: 200, body: { data: { things: { nodes: ids.map((id) => ({ id })), pageInfo: { hasNextPage: next !== null, endCursor: next ?? 'end' } } } } });
    const { ctx, calls } = scripted([page(['a', 'b'], 'c1'), page(['c'], 'c2'), page([], null)]);
    const seen: string[][] = [];
    for await (const p of pages<{ id: string }>(ctx, o, 'query Q($first: Int, $after: String) { x }', { filter: 1 }, (d: { things: never }) => d.things)) seen.push(p.nodes.map((n) => n.id));
    expect(seen).toEqual([['a', 'b'], ['c'], []]);
    expect(calls.map((c) => (c.json as { variables: Record<string, unknown> }).variables)).toEqual([
      { filter: 1, first: 50, after: null },
      { filter: 1, first: 50, after: 'c1' },
      { filter: 1, first: 50, after: 'c2' },
    ]);
  });

  it('stops when a page repeats its cursor', async () => {
    const same = { status: 200, body: { data: { t: { nodes: [{ id: 'a' }], pageInfo: { hasNextPage: true, endCursor: 'x' } } } } };
    const { ctx, calls } = scripted([same, same, same]);
    for await (const _ of pages(ctx, o, 'q', {}, (d: { t: never }) => d.t)) void _;
    expect(calls).toHaveLength(2);
  });
});
