import { decodeHTML } from 'entities';
import { htmlEscape } from 'escape-goat';
import { CDATA, type ChildNode, Element, Text } from 'domhandler';
import { compile } from 'html-to-text';
import { parseDocument } from 'htmlparser2';

/**
 * HTML bodies (Front, Gorgias, Intercom, Help Scout, Freshdesk, Zendesk, Salesforce notes …) read and written the
 * same way on every provider, through maintained parsers rather than regular expressions: a real HTML parser
 * (htmlparser2, under html-to-text) drops `<style>`/`<script>` content and copes with `>` inside attributes, and
 * the WHATWG entity table (entities) decodes every named and numeric reference, an out-of-range one becoming
 * U+FFFD instead of an exception.
 */

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));

const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    ...HEADINGS,
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
});

/**
 * Plain text of an HTML body: blocks separated by a blank line, `<br>` a line break, tags and scripts gone,
 * non-breaking spaces as plain spaces.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return toText(html).replace(/\u00a0/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
}

/** The paragraphs of an HTML body, as plain text (blank ones left out). */
export function htmlToParagraphs(html: string | null | undefined): string[] {
  return htmlToText(html)
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Every HTML character reference in a text decoded (`caf&eacute;` → `café`); invalid ones become U+FFFD. */
export const decodeEntities = (s: string): string => decodeHTML(s);

/** Text made safe inside HTML content or a quoted attribute. */
export const escapeHtml = (s: string): string => htmlEscape(s);

/** Plain text paragraphs as HTML blocks (`<p>` by default; Freshdesk stores `<div>`), line breaks as `<br>`. */
export function paragraphsToHtml(paragraphs: readonly string[], block: 'p' | 'div' = 'p'): string {
  return paragraphs.map((p) => `<${block}>${escapeHtml(p).replace(/\n/g, '<br>')}</${block}>`).join('');
}

/** Plain text as HTML: blank lines separate paragraphs, single newlines become `<br>`. */
export const textToHtml = (text: string, block: 'p' | 'div' = 'p'): string => paragraphsToHtml(text.split(/\n{2,}/), block);

/** An HTML element as the HTML → rich text builders (Jira's ADF) walk it: lower-case tag, attributes, children. */
export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlChild[];
}
export type HtmlChild = HtmlElement | string;

/** Contents a reader never shows: dropped while parsing. */
const HIDDEN = new Set(['script', 'style', 'head', 'title', 'template', 'noscript']);

function fromDom(node: ChildNode): HtmlChild | null {
  if (node instanceof Text) return node.data;
  if (node instanceof CDATA) return node.children.map((c) => (c instanceof Text ? c.data : '')).join('');
  if (!(node instanceof Element)) return null;
  const tag = node.name.toLowerCase();
  return {
    tag,
    attrs: { ...node.attribs },
    children: HIDDEN.has(tag) ? [] : node.children.map(fromDom).filter((c): c is HtmlChild => c !== null),
  };
}

/**
 * An HTML fragment as a tree, by htmlparser2 (forgiving, as browsers are: implied end tags, stray end tags
 * ignored, entities decoded in text and attributes, comments dropped).
 */
export function parseHtml(html: string): HtmlElement {
  const doc = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeCDATA: true });
  return { tag: '#root', attrs: {}, children: doc.children.map(fromDom).filter((c): c is HtmlChild => c !== null) };
}
