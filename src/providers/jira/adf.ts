/**
 * Atlassian Document Format (ADF) ↔ plain text and HTML, for issue descriptions, comment bodies and
 * multi-line text custom fields (Jira REST v3 takes and returns ADF for all of them).
 *
 * Scope: the nodes Jira's editor produces. Reading understands every node of the published ADF schema
 * (unknown nodes fall back to their children's text, so nothing readable is lost); writing produces
 * paragraphs, headings, lists, code blocks, block quotes, rules, hard breaks and the text marks strong,
 * em, underline, strike, code and link. Conversions are pure functions; HTML is parsed by the provider kit.
 */
import { escapeHtml, parseHtml, type HtmlChild, type HtmlElement } from '../kit';

export interface AdfMark {
  type: string;
  attrs?: Record<string, unknown>;
}

export interface AdfNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: AdfMark[];
  content?: AdfNode[];
}

export interface AdfDoc extends AdfNode {
  type: 'doc';
  version: 1;
  content: AdfNode[];
}

export function isAdfDoc(v: unknown): v is AdfDoc {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'doc' && Array.isArray((v as { content?: unknown }).content);
}

const doc = (content: AdfNode[]): AdfDoc => ({ type: 'doc', version: 1, content });

// ---------------------------------------------------------------------------------------------------
// plain text → ADF

/** One paragraph of text: single newlines become hard breaks. Empty text → no node. */
function textParagraph(text: string, marks?: AdfMark[]): AdfNode | undefined {
  const lines = text.split('\n');
  const content: AdfNode[] = [];
  lines.forEach((line, i) => {
    if (i > 0) content.push({ type: 'hardBreak' });
    if (line !== '') content.push(marks?.length ? { type: 'text', text: line, marks } : { type: 'text', text: line });
  });
  while (content.length && content[content.length - 1]!.type === 'hardBreak') content.pop();
  while (content.length && content[0]!.type === 'hardBreak') content.shift();
  return content.length ? { type: 'paragraph', content } : undefined;
}

/**
 * Plain text → ADF. Each string is one or more paragraphs: blank lines separate paragraphs, single
 * newlines are hard breaks. Line endings are normalised (`\r\n` → `\n`).
 */
export function textToAdf(text: string | readonly string[]): AdfDoc {
  const parts = typeof text === 'string' ? [text] : text;
  const content: AdfNode[] = [];
  for (const part of parts) {
    for (const para of part.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n+/)) {
      const p = textParagraph(para.replace(/^\n+|\n+$/g, ''));
      if (p) content.push(p);
    }
  }
  return doc(content);
}

/** A paragraph made of inline nodes (for appended notes such as attachment links). */
export function paragraph(...content: AdfNode[]): AdfNode {
  return { type: 'paragraph', content };
}

export function textNode(text: string, marks?: AdfMark[]): AdfNode {
  return marks?.length ? { type: 'text', text, marks } : { type: 'text', text };
}

export function linkMark(href: string): AdfMark {
  return { type: 'link', attrs: { href } };
}

// ---------------------------------------------------------------------------------------------------
// ADF → plain text

const stringOrUndefined = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The text of inline content (hard breaks as newlines; mentions, emoji, cards, dates by their text). */
function inlineText(nodes: readonly AdfNode[] | undefined): string {
  let out = '';
  for (const n of nodes ?? []) {
    switch (n.type) {
      case 'text':
        out += n.text ?? '';
        break;
      case 'hardBreak':
        out += '\n';
        break;
      case 'mention': {
        const t = stringOrUndefined(n.attrs?.text) ?? '';
        out += t.startsWith('@') || t === '' ? t : `@${t}`;
        break;
      }
      case 'emoji':
        out += stringOrUndefined(n.attrs?.text) ?? stringOrUndefined(n.attrs?.shortName) ?? '';
        break;
      case 'inlineCard':
        out += stringOrUndefined(n.attrs?.url) ?? '';
        break;
      case 'date': {
        const ts = Number(n.attrs?.timestamp);
        out += Number.isFinite(ts) ? new Date(ts).toISOString().slice(0, 10) : '';
        break;
      }
      case 'status':
        out += stringOrUndefined(n.attrs?.text) ?? '';
        break;
      case 'placeholder':
        break;
      case 'mediaInline':
        out += stringOrUndefined(n.attrs?.alt) ?? '';
        break;
      default:
        out += n.content ? inlineText(n.content) : (n.text ?? '');
    }
  }
  return out;
}

/** Plain text of one block node (lists with `- ` / `1. ` markers, tables as ` | `-separated cells). */
export function blockText(n: AdfNode, indent = ''): string {
  switch (n.type) {
    case 'paragraph':
    case 'heading':
      return inlineText(n.content);
    case 'codeBlock':
      return (n.content ?? []).map((c) => c.text ?? '').join('');
    case 'rule':
      return '---';
    case 'bulletList':
    case 'orderedList': {
      const start = Number(n.attrs?.order ?? 1);
      return (n.content ?? [])
        .map((item, i) => {
          const marker = n.type === 'bulletList' ? '- ' : `${(Number.isFinite(start) ? start : 1) + i}. `;
          const lines = (item.content ?? []).map((b, j) => {
            if (b.type === 'bulletList' || b.type === 'orderedList') return blockText(b, `${indent}  `);
            const text = blockText(b, `${indent}  `).replace(/\n/g, `\n${indent}  `);
            return j === 0 ? `${indent}${marker}${text}` : `${indent}  ${text}`;
          });
          if ((item.content ?? [])[0]?.type === 'bulletList' || (item.content ?? [])[0]?.type === 'orderedList') lines.unshift(`${indent}${marker.trimEnd()}`);
          return lines.join('\n');
        })
        .join('\n');
    }
    case 'taskList':
      return (n.content ?? [])
        .map((item) => (item.type === 'taskItem' ? `${indent}[${item.attrs?.state === 'DONE' ? 'x' : ' '}] ${inlineText(item.content)}` : blockText(item, indent)))
        .join('\n');
    case 'decisionList':
      return (n.content ?? []).map((item) => `${indent}> ${inlineText(item.content)}`).join('\n');
    case 'table':
      return (n.content ?? [])
        .map((row) => (row.content ?? []).map((cell) => blocksText(cell.content ?? []).replace(/\n+/g, ' ')).join(' | '))
        .join('\n');
    case 'mediaSingle':
    case 'mediaGroup':
      return (n.content ?? [])
        .map((m) => stringOrUndefined(m.attrs?.alt) ?? '')
        .filter(Boolean)
        .join(', ');
    case 'media':
      return stringOrUndefined(n.attrs?.alt) ?? '';
    case 'expand':
    case 'nestedExpand': {
      const title = stringOrUndefined(n.attrs?.title);
      const body = blocksText(n.content ?? []);
      return title ? `${title}\n${body}` : body;
    }
    default:
      // blockquote, panel, layoutSection/Column, bodiedExtension, unknown: their children.
      if (n.content) return n.content.some((c) => c.type === 'text' || c.type === 'hardBreak') ? inlineText(n.content) : blocksText(n.content, indent);
      return n.text ?? '';
  }
}

function blocksText(nodes: readonly AdfNode[], indent = ''): string {
  return nodes
    .map((b) => blockText(b, indent))
    .filter((t) => t !== '')
    .join('\n\n');
}

/** ADF → plain text: blocks separated by blank lines. Not ADF (a plain string from an old API) → itself. */
export function adfToText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isAdfDoc(value)) return '';
  return blocksText(value.content);
}

/** ADF → the plain text of each top-level block, empty blocks left out (a description's paragraphs). */
export function adfToParagraphs(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (!isAdfDoc(value)) return [];
  return value.content.map((b) => blockText(b)).filter((t) => t.trim() !== '');
}

// ---------------------------------------------------------------------------------------------------
// ADF → HTML

/** Only web and mail links are rendered as links (no `javascript:` or other schemes). */
function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined;
  const h = href.trim();
  return /^(https?:|mailto:|\/|#)/i.test(h) ? h : undefined;
}

const MARK_TAGS: Record<string, [string, string]> = {
  strong: ['<strong>', '</strong>'],
  em: ['<em>', '</em>'],
  underline: ['<u>', '</u>'],
  strike: ['<s>', '</s>'],
  code: ['<code>', '</code>'],
};

function markOpen(m: AdfMark): [string, string] {
  if (m.type === 'link') {
    const href = safeHref(m.attrs?.href);
    return href ? [`<a href="${escapeHtml(href)}">`, '</a>'] : ['', ''];
  }
  if (m.type === 'subsup') return m.attrs?.type === 'sub' ? ['<sub>', '</sub>'] : ['<sup>', '</sup>'];
  return MARK_TAGS[m.type] ?? ['', ''];
}

function inlineHtml(nodes: readonly AdfNode[] | undefined): string {
  let out = '';
  for (const n of nodes ?? []) {
    if (n.type === 'text') {
      let html = escapeHtml(n.text ?? '');
      // Link outermost, so a link around bold text stays one anchor.
      const marks = [...(n.marks ?? [])].sort((a, b) => (a.type === 'link' ? 1 : 0) - (b.type === 'link' ? 1 : 0));
      for (const m of marks) {
        const [open, close] = markOpen(m);
        html = `${open}${html}${close}`;
      }
      out += html;
    } else if (n.type === 'hardBreak') out += '<br>';
    else if (n.type === 'inlineCard') {
      const href = safeHref(n.attrs?.url);
      out += href ? `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>` : '';
    } else out += escapeHtml(inlineText([n]));
  }
  return out;
}

function blockHtml(n: AdfNode): string {
  switch (n.type) {
    case 'paragraph':
      return `<p>${inlineHtml(n.content)}</p>`;
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(n.attrs?.level) || 1));
      return `<h${level}>${inlineHtml(n.content)}</h${level}>`;
    }
    case 'codeBlock':
      return `<pre><code>${escapeHtml(blockText(n))}</code></pre>`;
    case 'rule':
      return '<hr>';
    case 'blockquote':
      return `<blockquote>${blocksHtml(n.content)}</blockquote>`;
    case 'bulletList':
      return `<ul>${(n.content ?? []).map((li) => `<li>${blocksHtml(li.content)}</li>`).join('')}</ul>`;
    case 'orderedList': {
      const start = Number(n.attrs?.order ?? 1);
      const attr = Number.isFinite(start) && start !== 1 ? ` start="${start}"` : '';
      return `<ol${attr}>${(n.content ?? []).map((li) => `<li>${blocksHtml(li.content)}</li>`).join('')}</ol>`;
    }
    case 'table':
      return `<table>${(n.content ?? [])
        .map((row) => `<tr>${(row.content ?? []).map((c) => (c.type === 'tableHeader' ? `<th>${blocksHtml(c.content)}</th>` : `<td>${blocksHtml(c.content)}</td>`)).join('')}</tr>`)
        .join('')}</table>`;
    default: {
      const text = blockText(n);
      if (n.content && !n.content.some((c) => c.type === 'text' || c.type === 'hardBreak')) return `<div>${blocksHtml(n.content)}</div>`;
      return text === '' ? '' : `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
    }
  }
}

function blocksHtml(nodes: readonly AdfNode[] | undefined): string {
  return (nodes ?? []).map(blockHtml).join('');
}

/** ADF → HTML (escaped text, safe links only). Not ADF: a plain string is escaped into paragraphs. */
export function adfToHtml(value: unknown): string {
  if (typeof value === 'string') return adfToHtml(textToAdf(value));
  if (!isAdfDoc(value)) return '';
  return blocksHtml(value.content);
}

// ---------------------------------------------------------------------------------------------------
// HTML → ADF

const BLOCK = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'pre', 'blockquote', 'hr', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th',
  'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'figure', 'figcaption', 'dl', 'dt', 'dd', 'address', 'body', 'html',
]);

const INLINE_MARKS: Record<string, AdfMark['type']> = {
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  cite: 'em',
  u: 'underline',
  ins: 'underline',
  s: 'strike',
  strike: 'strike',
  del: 'strike',
  code: 'code',
  kbd: 'code',
  samp: 'code',
  tt: 'code',
};

/** `code` may only be combined with `link` in ADF: other marks are dropped around code. */
function normaliseMarks(marks: AdfMark[]): AdfMark[] | undefined {
  const seen = new Set<string>();
  let out = marks.filter((m) => (seen.has(m.type) ? false : (seen.add(m.type), true)));
  if (out.some((m) => m.type === 'code')) out = out.filter((m) => m.type === 'code' || m.type === 'link');
  return out.length ? out : undefined;
}

class InlineBuilder {
  nodes: AdfNode[] = [];

  text(t: string, marks: AdfMark[]) {
    if (t === '') return;
    const ms = normaliseMarks(marks);
    const prev = this.nodes[this.nodes.length - 1];
    if (prev?.type === 'text' && JSON.stringify(prev.marks) === JSON.stringify(ms)) prev.text += t;
    else this.nodes.push(ms ? { type: 'text', text: t, marks: ms } : { type: 'text', text: t });
  }

  hardBreak() {
    this.nodes.push({ type: 'hardBreak' });
  }

  /** Trims collapsed whitespace at the ends and around hard breaks; undefined when nothing is left. */
  finish(pre: boolean): AdfNode[] | undefined {
    const nodes = this.nodes;
    this.nodes = [];
    if (!pre) {
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i]!;
        if (n.type !== 'text') continue;
        const before = nodes[i - 1];
        const after = nodes[i + 1];
        if (!before || before.type === 'hardBreak') n.text = n.text!.replace(/^ +/, '');
        if (!after || after.type === 'hardBreak') n.text = n.text!.replace(/ +$/, '');
      }
    }
    const kept = nodes.filter((n) => n.type !== 'text' || n.text !== '');
    while (kept.length && kept[kept.length - 1]!.type === 'hardBreak') kept.pop();
    return kept.some((n) => n.type === 'text' || n.type === 'mention' || n.type === 'emoji') ? kept : undefined;
  }
}

function textOf(el: HtmlChild): string {
  return typeof el === 'string' ? el : el.tag === 'br' ? '\n' : el.children.map(textOf).join('');
}

/** Converts children to blocks: runs of inline content become paragraphs. */
function toBlocks(children: HtmlChild[], inPre = false): AdfNode[] {
  const blocks: AdfNode[] = [];
  const inline = new InlineBuilder();
  const flush = () => {
    const content = inline.finish(inPre);
    if (content) blocks.push({ type: 'paragraph', content });
  };
  const walkInline = (c: HtmlChild, marks: AdfMark[]) => {
    if (typeof c === 'string') {
      // Whitespace collapses; non-breaking spaces stay (as plain spaces).
      inline.text(inPre ? c : c.replace(/[ \t\n\r\f]+/g, ' ').replace(/\u00a0/g, ' '), marks);
      return;
    }
    if (c.tag === 'br') return inline.hardBreak();
    // A block inside inline markup (`<b>bold<p>next`, which the parser nests as written) ends the paragraph.
    if (BLOCK.has(c.tag)) {
      flush();
      blocks.push(...blockOf(c));
      return;
    }
    if (c.tag === 'img') {
      const alt = c.attrs.alt;
      if (alt) inline.text(alt, marks);
      return;
    }
    let next = marks;
    const mark = INLINE_MARKS[c.tag];
    if (mark) next = [...marks, { type: mark }];
    else if (c.tag === 'a') {
      const href = safeHref(c.attrs.href);
      if (href) next = [...marks, linkMark(href)];
    } else if (c.tag === 'sub' || c.tag === 'sup') next = [...marks, { type: 'subsup', attrs: { type: c.tag } }];
    for (const child of c.children) walkInline(child, next);
  };
  for (const c of children) {
    if (typeof c === 'string' || !BLOCK.has(c.tag)) {
      walkInline(c, []);
      continue;
    }
    flush();
    blocks.push(...blockOf(c));
  }
  flush();
  return blocks;
}

function listItems(el: HtmlElement): AdfNode[] {
  const items: AdfNode[] = [];
  const loose: HtmlChild[] = [];
  const pushItem = (children: HtmlChild[]) => {
    let content = toBlocks(children);
    if (content.length === 0) content = [{ type: 'paragraph', content: [] }];
    // A list item must start with a paragraph (or a nested list); headings etc. become paragraphs.
    content = content.map((b) => (['paragraph', 'bulletList', 'orderedList', 'codeBlock'].includes(b.type) ? b : { type: 'paragraph', content: [textNode(blockText(b))] }));
    items.push({ type: 'listItem', content });
  };
  for (const c of el.children) {
    if (typeof c !== 'string' && c.tag === 'li') {
      if (loose.some((x) => textOf(x).trim() !== '')) pushItem(loose.splice(0));
      loose.length = 0;
      pushItem(c.children);
    } else loose.push(c);
  }
  if (loose.some((x) => textOf(x).trim() !== '')) pushItem(loose);
  return items;
}

function blockOf(el: HtmlElement): AdfNode[] {
  switch (el.tag) {
    case 'p': {
      const blocks = toBlocks(el.children);
      return blocks;
    }
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const [first, ...rest] = toBlocks(el.children);
      if (!first) return [];
      return [{ type: 'heading', attrs: { level: Number(el.tag[1]) }, content: first.content ?? [] }, ...rest];
    }
    case 'hr':
      return [{ type: 'rule' }];
    case 'pre': {
      const text = textOf(el).replace(/^\n/, '').replace(/\n$/, '');
      const lang = /language-([\w+-]+)/.exec(
        (typeof el.children[0] !== 'string' && el.children[0]?.attrs.class) || el.attrs.class || '',
      )?.[1];
      return [{ type: 'codeBlock', ...(lang ? { attrs: { language: lang } } : {}), content: text ? [{ type: 'text', text }] : [] }];
    }
    case 'blockquote': {
      const inner = toBlocks(el.children).map((b) => (['paragraph', 'bulletList', 'orderedList', 'codeBlock'].includes(b.type) ? b : { type: 'paragraph', content: [textNode(blockText(b))] }));
      return inner.length ? [{ type: 'blockquote', content: inner }] : [];
    }
    case 'ul':
    case 'ol': {
      const items = listItems(el);
      if (!items.length) return [];
      if (el.tag === 'ul') return [{ type: 'bulletList', content: items }];
      const start = Number(el.attrs.start);
      return [{ type: 'orderedList', ...(Number.isInteger(start) && start > 1 ? { attrs: { order: start } } : {}), content: items }];
    }
    case 'li':
      return [{ type: 'bulletList', content: listItems({ tag: 'ul', attrs: {}, children: [el] }) }];
    case 'table': {
      // Tables are kept as one paragraph per row (cells separated by " | "): Jira's table nodes need
      // attributes this converter cannot know (widths, layout).
      const rows: HtmlElement[] = [];
      const collect = (e: HtmlElement) => e.children.forEach((c) => typeof c !== 'string' && (c.tag === 'tr' ? rows.push(c) : collect(c)));
      collect(el);
      return rows
        .map((r) => r.children.filter((c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th')).map((c) => textOf(c).replace(/\s+/g, ' ').trim()).join(' | '))
        .filter((t) => t !== '')
        .map((t) => ({ type: 'paragraph', content: [textNode(t)] }));
    }
    default:
      // div, section, … : transparent containers.
      return toBlocks(el.children);
  }
}

/** HTML → ADF (the subset above; unknown tags are transparent, scripts and styles dropped). */
export function htmlToAdf(html: string): AdfDoc {
  return doc(toBlocks(parseHtml(html).children));
}
