import { numericIdOf, unsupportedBy } from '../kit';
export { asRecord, htmlToParagraphs, isoSeconds, nonEmpty, paragraphsToHtml, toDate, toIso } from '../kit';

export const PROVIDER = 'helpscout';

/** A remote id we were given (as text) in the numeric form Help Scout's JSON uses. */
export const hsId = numericIdOf('Help Scout');

/** Help Scout cannot take the field: answered as 422 with the field named, never dropped silently. */
export const unsupported = unsupportedBy(PROVIDER);

