import { nonEmpty, numericIdOf, unsupportedBy } from '../kit';
export { asRecord, htmlToText, nonEmpty, textToHtml, toDate, toIso } from '../kit';

export const PROVIDER = 'gorgias';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);
/** A remote id we were given (as text) in the numeric form Gorgias's JSON uses. */
export const ggId = numericIdOf('Gorgias');

/** Full name of a Gorgias person: `name`, else first and last name. */
export function personName(p: { name?: string | null; firstname?: string | null; lastname?: string | null } | null | undefined): string | null {
  if (!p) return null;
  const name = nonEmpty(p.name);
  if (name) return name;
  const joined = [p.firstname, p.lastname].filter((x) => typeof x === 'string' && x.trim() !== '').join(' ');
  return joined === '' ? null : joined;
}

