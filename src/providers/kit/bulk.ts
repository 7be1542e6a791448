import type { BulkItemResult } from '../types';

/**
 * The first step of every bulk create (Salesforce, Zoho, Dynamics, HubSpot): each input checked and turned into
 * its provider body on its own, so one bad item is answered as that item's error while the others go on.
 * `results` holds the refusals at their input's index; `ready` the prepared rest, in input order.
 */
export async function prepareEach<I, P>(inputs: readonly I[], prepare: (input: I) => Promise<P>): Promise<{ results: BulkItemResult[]; ready: { index: number; p: P }[] }> {
  const results: BulkItemResult[] = new Array(inputs.length);
  const ready: { index: number; p: P }[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      ready.push({ index, p: await prepare(input) });
    } catch (error) {
      results[index] = { ok: false, error: error as Error };
    }
  }
  return { results, ready };
}

/** Items grouped by a key (a module, an sObject, an object type), in first-seen order. */
export function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Consecutive slices of at most `size` items (a provider's batch limit). */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
