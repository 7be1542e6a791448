import { describe, expect, it } from 'vitest';
import { compareKeys, firstAfter, type SortKey } from '../../src/sandbox/simulators/shared/keyset';

describe('firstAfter (a simulator page)', () => {
  // Ties on the first element, broken by the second (as `[updated_at, id]`), and some full ties.
  const items = Array.from({ length: 500 }, (_, i) => ({ i, k: [(i * 7919) % 37, (i * 104729) % 11] as SortKey }));
  const sortedPage = (dir: 1 | -1, after: SortKey | undefined, count: number) =>
    [...items]
      .sort((a, b) => dir * compareKeys(a.k, b.k))
      .filter((x) => !after || dir * compareKeys(x.k, after) > 0)
      .slice(0, count);

  for (const dir of [1, -1] as const) {
    it(`gives what a stable sort of all items gives, ${dir === 1 ? 'ascending' : 'descending'}, page after page`, () => {
      let after: SortKey | undefined;
      let pages = 0;
      for (;;) {
        const page = firstAfter(items, (x) => x.k, dir, after, 25);
        expect(page.map((x) => x.i)).toEqual(sortedPage(dir, after, 25).map((x) => x.i));
        if (page.length < 25) break;
        after = page[page.length - 1]!.k;
        pages++;
      }
      expect(pages).toBeGreaterThan(5);
    });
  }

  it('returns fewer items when fewer follow, and none after the last', () => {
    expect(firstAfter(items, (x) => x.k, 1, undefined, 1000)).toHaveLength(500);
    expect(firstAfter(items, (x) => x.k, 1, [36, 10], 10)).toEqual([]);
  });
});
