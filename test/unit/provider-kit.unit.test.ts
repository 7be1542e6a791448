import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import {
  CONNECTION_CACHE_MAX, ConnectionCache, decodeEntities, fromEpochMs, fromEpochSeconds, htmlToParagraphs, htmlToText, isoSeconds,
  nextLink, nonEmpty, numericIdOf, paragraphsToHtml, textToHtml, toIso,
} from '../../src/providers/kit';
import type { AdapterContext } from '../../src/providers/types';

describe('provider kit: values', () => {
  it('reads a blank string as no value on every provider, and keeps a text as written', () => {
    expect(nonEmpty('')).toBeNull();
    expect(nonEmpty('  \n\t')).toBeNull();
    expect(nonEmpty(' Alice ')).toBe(' Alice ');
    expect(nonEmpty(3)).toBeNull();
  });
});

describe('provider kit: times', () => {
  it.each([
    ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T10:20:30.123+0000', '2024-05-01T10:20:30.123Z'], // Jira, Salesforce
    ['2024-05-01T12:20:30+02:00', '2024-05-01T10:20:30.000Z'],
    ['2019-07-05T14:42:00.384938', '2019-07-05T14:42:00.384Z'], // Gorgias: zoneless, microseconds, UTC
    ['2024-05-01T10:20:30.123456+00:00', '2024-05-01T10:20:30.123Z'], // Close
    ['2024-05-01 10:20:30', '2024-05-01T10:20:30.000Z'], // ServiceNow, Pipedrive v1
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    [' 2024-05-01T10:20:30Z ', '2024-05-01T10:20:30.000Z'],
  ])('%s → %s', (input, iso) => expect(toIso(input)).toBe(iso));

  it('reads nothing from blanks, garbage and numbers given as text times', () => {
    for (const v of ['', '  ', 'soon', '2024-13-45', null, undefined, 1714558830]) expect(toIso(v)).toBeNull();
  });

  it('reads epoch times in the unit the product documents', () => {
    expect(fromEpochMs('1714558830123')?.toISOString()).toBe('2024-05-01T10:20:30.123Z');
    expect(fromEpochMs(1714558830123)?.toISOString()).toBe('2024-05-01T10:20:30.123Z');
    expect(fromEpochSeconds(1714558830.5)?.toISOString()).toBe('2024-05-01T10:20:30.500Z');
    expect(fromEpochMs('x')).toBeNull();
    expect(fromEpochSeconds('1714558830')).toBeNull();
    expect(isoSeconds(new Date('2024-05-01T10:20:30.999Z'))).toBe('2024-05-01T10:20:30Z');
  });
});

describe('provider kit: HTML', () => {
  it('drops style and script contents instead of leaking them into the text', () => {
    expect(htmlToText('<style>p{color:red}</style><p>Hi</p><script>alert(1)</script>')).toBe('Hi');
  });

  it('decodes every named and numeric reference, an out-of-range one as U+FFFD (never an exception)', () => {
    expect(htmlToText('<p>caf&eacute; &mdash; &#x41;&#66; &lt;tag&gt;</p>')).toBe('café — AB <tag>');
    expect(() => htmlToText('<p>a &#1114112; b</p>')).not.toThrow();
    expect(htmlToText('<p>a &#1114112; b</p>')).toBe('a \ufffd b');
    expect(decodeEntities('caf&eacute; &#1114112; &amp;amp;')).toBe('café \ufffd &amp;');
  });

  it('keeps an attribute holding ">" out of the text', () => {
    expect(htmlToText('<a title="a > b" href="https://x.example">link</a> here')).toBe('link here');
  });

  it('separates blocks by a blank line and keeps line breaks, lists as dashes, nbsp as spaces', () => {
    expect(htmlToText('<p>one<br>two</p><p>three&nbsp;four</p><ul><li>a</li><li>b</li></ul>')).toBe('one\ntwo\n\nthree four\n\n- a\n- b');
    expect(htmlToParagraphs('<p>one</p><p> </p><div>two</div>')).toEqual(['one', 'two']);
    expect(htmlToText(null)).toBe('');
  });

  it('writes text as escaped HTML paragraphs', () => {
    expect(textToHtml('a & b\n<c>\n\n"d"')).toBe('<p>a &amp; b<br>&lt;c&gt;</p><p>&quot;d&quot;</p>');
    expect(paragraphsToHtml(['x', "y'z"], 'div')).toBe('<div>x</div><div>y&#39;z</div>');
  });
});

describe('provider kit: Link headers and ids', () => {
  it('reads the next link with a parser (commas and semicolons inside URLs)', () => {
    expect(nextLink('<https://api.example/x?page=2&ids=1,2;3>; rel="next", <https://api.example/x?page=9>; rel="last"')).toBe('https://api.example/x?page=2&ids=1,2;3');
    expect(nextLink('<https://api.example/x?page=1>; rel="prev first"')).toBeNull();
    expect(nextLink('<https://api.example/x?page=3>; rel="last next"')).toBe('https://api.example/x?page=3');
    expect(nextLink(undefined)).toBeNull();
    expect(nextLink('garbage')).toBeNull();
  });

  it('checks numeric ids before they go into a path', () => {
    const zdId = numericIdOf('Zendesk');
    expect(zdId(' 42 ', 'ticket_id')).toBe(42);
    for (const bad of ['0', '-1', '1/../2', '12345678901234567', 'abc', '']) expect(() => zdId(bad, 'ticket_id')).toThrow(/ticket_id: .* is not a Zendesk id/);
  });
});

describe('provider kit: ConnectionCache', () => {
  const ctx = (connectionId: string) => ({ connectionId }) as AdapterContext;

  it('stays bounded however many connections it has seen (50,000 here)', async () => {
    const cache = new ConnectionCache(60_000);
    for (let i = 0; i < 50_000; i++) await cache.get(ctx(`c${i}`), 'me', async () => ({ id: i, name: 'x'.repeat(100) }));
    expect(cache.size).toBe(CONNECTION_CACHE_MAX);
    // The newest are kept, the oldest were evicted and are read again.
    let reads = 0;
    expect(await cache.get(ctx('c49999'), 'me', async () => (reads++, { id: -1 }))).toMatchObject({ id: 49999 });
    expect(await cache.get(ctx('c0'), 'me', async () => (reads++, { id: -1 }))).toMatchObject({ id: -1 });
    expect(reads).toBe(1);
  });

  it('shares one read between concurrent callers, keeps no failure, honours ttl 0 and fresh', async () => {
    const cache = new ConnectionCache(60_000);
    let reads = 0;
    const load = async () => ++reads;
    const [a, b] = await Promise.all([cache.get(ctx('c'), 'k', load), cache.get(ctx('c'), 'k', load)]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    expect(await cache.get(ctx('c'), 'k', load, true)).toBe(2);
    expect(await cache.get(ctx('c'), 'k', load, false, 0)).toBe(3);
    await expect(cache.get(ctx('c'), 'boom', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get(ctx('c'), 'boom', load)).toBe(4);
    expect(await cache.get(ctx('other'), 'k', load)).toBe(5);
  });
});

describe('provider kit: the lint rule', () => {
  const eslint = new ESLint();
  const lint = async (code: string, file = 'src/providers/acme/util.ts') => (await eslint.lintText(code, { filePath: file }))[0]!.messages.map((m) => m.message);

  it('refuses a provider that defines a kit helper again or keeps an unbounded per-connection Map', async () => {
    expect(await lint('export const nonEmpty = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);\n')).toEqual([expect.stringMatching(/provider kit/)]);
    expect(await lint('export function toDate(v: unknown): Date | null { return v instanceof Date ? v : null; }\n')).toEqual([expect.stringMatching(/provider kit/)]);
    expect(await lint('const seen = new Map<string, number>();\nexport const f = (k: string) => seen.set(k, 1);\n')).toEqual([expect.stringMatching(/ConnectionCache/)]);
  });

  it('lets a provider use the kit, and the kit define it', async () => {
    expect(await lint("import { nonEmpty } from '../kit';\nexport const name = (v: unknown) => nonEmpty(v);\n")).toEqual([]);
    expect(await lint('export const nonEmpty = (v: unknown) => v;\n', 'src/providers/kit/values.ts')).toEqual([]);
  });
});
