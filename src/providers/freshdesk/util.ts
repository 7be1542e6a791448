import { numericIdOf, paragraphsToHtml, unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate, toIso } from '../kit';

export const PROVIDER = 'freshdesk';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);
/** A remote id we were given (as text) in the numeric form Freshdesk's JSON uses. */
export const fdId = numericIdOf('Freshdesk');

/** Plain text paragraphs → the HTML Freshdesk stores (`description`, conversation `body`). */
export const freshdeskHtml = (paragraphs: string[]): string => paragraphsToHtml(paragraphs, 'div');
