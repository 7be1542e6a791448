/**
 * The provider kit: what two providers need lives here once (values, times, ids, refusals, HTML, Link headers,
 * per-connection caches). A provider folder is its manifest, its mappings and its calls; the lint rule in
 * eslint.config.js refuses a provider that defines one of these again.
 */
export { chunks, groupBy, prepareEach } from './bulk';
export { ConnectionCache, CONNECTION_CACHE_MAX } from './connection-cache';
export { fromEpochMs, fromEpochSeconds, isoSeconds, toDate, toEpochSeconds, toIso } from './dates';
export { isNotFound, numericIdOf, unsupportedBy } from './errors';
export { decodeEntities, escapeHtml, htmlToParagraphs, htmlToText, paragraphsToHtml, parseHtml, textToHtml, type HtmlChild, type HtmlElement } from './html';
export { hasNextLink, nextLink } from './link-header';
export { asRecord, has, nonEmpty, trimmed } from './values';
export { readAddresses, readPhones, writeAddresses, writePhones, type AddressSlot, type AddressSlots, type PhoneSlots } from './crm-slots';
