/**
 * Hostile values for the fuzz test of every operation (test/control-plane/fuzz.integration.test.ts):
 * a fixed list per kind of input, plus a few values drawn from a seeded generator, so every run sends
 * the same requests and a failure can be replayed.
 */

/** A small seeded PRNG (mulberry32): the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const UUID = '7d3c3b0e-2f4a-4c1e-9b1a-1f2e3d4c5b6a';

/** Texts that PostgreSQL, JavaScript dates, URLs or HTTP headers choke on. */
export const hostileStrings: string[] = [
  '',
  ' ',
  'abc',
  'nul\u0000byte',
  '\u0000',
  'lone \ud800 surrogate',
  '\udfff',
  '😀',
  'x'.repeat(10_000),
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  'line\r\nX-Injected: 1',
  '0000-01-01T00:00:00Z',
  '99999-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '2024-02-30T00:00:00Z',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  `${UUID}x`,
  '1e400',
  '-1',
  '9007199254740993',
  'NaN',
  'true',
  'null',
  '{"a":1}',
];

/** JSON values of the wrong type, or out of every sane range. */
export const hostileJsonValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  [],
  [null],
  {},
  { nested: { deeper: ['\u0000'] } },
  'nul\u0000byte',
  'lone \ud800 surrogate',
  '😀',
  'x'.repeat(10_000),
  '0000-01-01T00:00:00Z',
  '99999-01-01T00:00:00Z',
  '-000001-01-01T00:00:00.000Z',
  'not-a-uuid',
  'NOT_AN_ENUM_VALUE',
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
];

/** Cursors shaped like ours (base64url JSON of `{d, k}`) with wrong key types and lengths, and garbage. */
export function hostileCursors(): string[] {
  const keys: unknown[] = [
    ['2020-01-01T00:00:00.000Z', 'x'],
    ['2020-01-01T00:00:00.000Z', UUID.replace(/-/g, '')],
    ['0000-01-01T00:00:00.000Z', UUID],
    ['+275760-09-13T00:00:00.000Z', UUID],
    ['-271821-04-20T00:00:00.000Z', UUID],
    ['99999', UUID],
    ['9007199254740993', UUID],
    ['1e400', UUID],
    ['-1', UUID],
    ['x', UUID],
    ['nul\u0000', UUID],
    ['2020-01-01T00:00:00.000Z', 'nul\u0000'],
    ['2020-01-01T00:00:00.000Z', 'lone \ud800'],
    [1, 2],
    [null, null],
    [{}, []],
    [true, UUID],
    ['2020-01-01T00:00:00.000Z'],
    ['2020-01-01T00:00:00.000Z', UUID, 'extra'],
    [],
    'not an array',
  ];
  const out: string[] = [];
  for (const k of keys) for (const d of ['next', 'prev']) out.push(base64Json({ d, k }));
  out.push(base64Json({ d: 'sideways', k: ['1', UUID] }), base64Json({ k: ['1', UUID] }), base64Json([]), base64Json('x'), base64Json(null));
  out.push('not-base64!!', '%%%', 'eyJ', 'x'.repeat(5000));
  return out;
}

/** Deep and wide JSON bodies that still fit in the body limit. */
export function hostileBodies(): { rawBody: string; label: string }[] {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  return [
    { label: 'null', rawBody: 'null' },
    { label: 'array', rawBody: '[]' },
    { label: 'string', rawBody: '"x"' },
    { label: 'number', rawBody: '1e999' },
    { label: 'deep array', rawBody: deep(5_000) },
    { label: 'deep object', rawBody: deepObject(5_000) },
    { label: 'wide array', rawBody: JSON.stringify(Array.from({ length: 50_000 }, (_, i) => i)) },
    { label: 'many keys', rawBody: JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))) },
    { label: 'escaped NUL', rawBody: '{"name":"\\u0000","x":"\\ud800"}' },
    { label: 'malformed', rawBody: '{"a":' },
  ];
}

/**
 * A path segment as it travels in a URL: percent-encoded, with lone surrogates sent as the bytes a
 * careless client would send (encodeURIComponent refuses them).
 */
export function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^A-Za-z0-9%_.~-]/g, (c) => encodeURIComponent(c));
  }
}

/** A query value, encoded the same way. */
export const queryValue = pathSegment;

/** Header values that fetch can send at all (no CR, LF or NUL; Latin-1 only). */
export const hostileHeaderValues: string[] = [
  '',
  'ct_',
  'ct_nope',
  'ct_' + 'x'.repeat(8_000),
  'ct_é',
  "ct_' OR 1=1 --",
  'Bearer ct_x',
  '00000000-0000-0000-0000-000000000000',
];
