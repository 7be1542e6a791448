import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, loggableError } from '../../src/store/database';

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
    ]) {
      expect(isDatabaseUnavailable(e), e.message).toBe(true);
    }
    for (const e of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('invalid input syntax for type uuid'), { code: '22P02' }),
      wrapped(Object.assign(new Error('syntax error'), { code: '42601' })),
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
