import Fastify from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import type { ApiKeyService } from '../../src/core/api-keys';
import { registerApiKeyAuth } from '../../src/http/auth';
import { FailedAuthLimit } from '../../src/http/failed-auth-limit';
import { errorHandler } from '../../src/http/errors';
import { isDatabaseUnavailable, loggableError, retryOnConflict } from '../../src/store/database';

const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

describe('database errors', () => {
  it('tells an unreachable database from a faulty query, however the error is wrapped', () => {
    for (const e of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('x'), { code: '08006' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('database "x" is not currently accepting connections'),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      wrapped(Object.assign(new Error('server closed the connection'), { code: '57P01' })),
      // Every SQLSTATE of class 08 (connection exception) and the server shutting down or restarting.
      Object.assign(new Error('x'), { code: '08001' }),
      Object.assign(new Error('x'), { code: '08003' }),
      Object.assign(new Error('terminating connection due to crash of another server process'), { code: '57P02' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      // The database refusing connections (allow_connections false) answers 55000, known by its message.
      Object.assign(new Error('database "omniport" is not currently accepting connections'), { code: '55000' }),
      // Node socket errors, bare and as drizzle wraps them.
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      Object.assign(new Error('connect ETIMEDOUT 10.0.0.5:5432'), { code: 'ETIMEDOUT' }),
      new DrizzleQueryError('select 1', [], Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
      // pg and pg-pool's own words.
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Connection terminated due to connection timeout'),
      new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly')),
    ]) {
      expect(isDatabaseUnavailable(e), e.message).toBe(true);
    }
    for (const e of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' }),
      wrapped(Object.assign(new Error('syntax error'), { code: '42601' })),
      // A query's own faults: cancelled by statement_timeout, a serialization conflict, a full disk.
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('could not serialize access'), { code: '40001' }),
      Object.assign(new Error('could not extend file'), { code: '53100' }),
      // Class 55 without the refusal's words: a lock not available is the query's business.
      Object.assign(new Error('could not obtain lock on row'), { code: '55P03' }),
      new Error('something else'),
      undefined,
    ]) {
      expect(isDatabaseUnavailable(e)).toBe(false);
    }
  });

  it('keeps query parameters (customers’ data) out of log lines', () => {
    const err = Object.assign(new Error('Failed query: insert into contacts values ($1, $2)\nparams: Ada Lovelace,ada@example.com'), {
      cause: Object.assign(new Error('value too long\nparams: ada@example.com'), { code: '22001' }),
    });
    const logged = JSON.stringify(loggableError(err));
    expect(logged).not.toContain('ada@example.com');
    expect(logged).not.toContain('Ada Lovelace');
    expect(logged).toContain('Failed query: insert into contacts');
    expect(logged).toContain('22001');
  });
});

describe('the error mapper and the API-key check during a database outage', () => {
  const dropped = () => new DrizzleQueryError('select … from api_keys where …', ['secret'], Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));

  async function app(authenticate: ApiKeyService['authenticate']) {
    const server = Fastify();
    server.setErrorHandler(errorHandler);
    registerApiKeyAuth(server, { authenticate } as ApiKeyService, new FailedAuthLimit(60));
    server.get('/dropped', async () => {
      throw dropped();
    });
    server.get('/duplicate', async () => {
      throw new DrizzleQueryError('insert …', [], Object.assign(new Error('duplicate key'), { code: '23505' }));
    });
    await server.ready();
    return server;
  }
  const authenticated = async () => ({ projectId: 'p', userId: 'u', apiKeyId: 'k' });

  it('answers 503 database_unavailable with Retry-After for a query failing on a lost connection', async () => {
    const server = await app(authenticated);
    const res = await server.inject({ url: '/dropped', headers: { 'x-api-key': 'sk_test_x' } });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().details.code).toBe('database_unavailable');
    // Other database faults keep their own answer.
    expect((await server.inject({ url: '/duplicate', headers: { 'x-api-key': 'sk_test_x' } })).statusCode).toBe(409);
  });

  it('answers the same 503, not 401 or 500, when the API key cannot be looked up', async () => {
    const server = await app(async () => {
      throw dropped();
    });
    const res = await server.inject({ url: '/dropped', headers: { authorization: 'Bearer sk_test_x' } });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().details.code).toBe('database_unavailable');
  });
});

describe('retryOnConflict', () => {
  const deadlock = () => Object.assign(new Error('Failed query: delete from "connections" …'), { cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }) });

  it('runs a transaction again after a deadlock or a serialization failure, and answers its result', async () => {
    let calls = 0;
    const result = await retryOnConflict(async () => {
      calls++;
      if (calls === 1) throw deadlock();
      if (calls === 2) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      return 'deleted';
    });
    expect([result, calls]).toEqual(['deleted', 3]);
  });

  it('gives up after its attempts, and never repeats other faults', async () => {
    let calls = 0;
    await expect(retryOnConflict(async () => { calls++; throw deadlock(); }, 3)).rejects.toThrow('Failed query');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryOnConflict(async () => { calls++; throw Object.assign(new Error('duplicate key'), { code: '23505' }); })).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
  });
});
