/** U+0000, and UTF-16 halves without their other half: text PostgreSQL refuses to store (`text` and `jsonb`). */
// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/**
 * Provider text as PostgreSQL can store it: every U+0000 and lone surrogate, in values and in keys, becomes
 * U+FFFD (the replacement character). Done once, here, for everything a sync or a write stores, so that one
 * record typed into a provider's web form can never stop a sync or half-fail a write.
 */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return (UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, '\uFFFD') : value) as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storable(k)] = storable(v);
    return out as T;
  }
  return value;
}
