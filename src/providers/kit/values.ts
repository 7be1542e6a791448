/**
 * How every provider reads plain values from a provider's JSON, the same way everywhere:
 * - a text is a string with something other than white space in it; an empty or blank string is "no value"
 *   (`null`), whatever the product (some answer `""` or `"  "` for a cleared field). A text with content is
 *   kept as the product wrote it: leading and trailing spaces are the product's data.
 * - `trimmed` is for messages Omniport composes (error texts): the content without surrounding space.
 */
export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export const trimmed = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** An object's own properties, for reading fields a type does not name. */
export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** The key was given (present and not `undefined`): a PATCH changes only what it names. */
export const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key) && (o as Record<string, unknown>)[key] !== undefined;
