import { numericIdOf, unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('zendesk');
/** A remote id we were given (as text) in the numeric form Zendesk's JSON uses. */
export const zdId = numericIdOf('Zendesk');

