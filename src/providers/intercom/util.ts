import { unsupportedBy } from '../kit';
export { asRecord, fromEpochSeconds, htmlToText, nonEmpty, textToHtml, toEpochSeconds } from '../kit';

export const PROVIDER = 'intercom';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);

