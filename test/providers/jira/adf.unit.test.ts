import { describe, expect, it } from 'vitest';
import { adfToHtml, adfToParagraphs, adfToText, htmlToAdf, textToAdf, type AdfDoc } from '../../../src/providers/jira/adf';
import { parseHtml } from '../../../src/providers/kit';

const doc = (...content: AdfDoc['content']): AdfDoc => ({ type: 'doc', version: 1, content });
const p = (...content: AdfDoc['content']) => ({ type: 'paragraph', content });
const t = (text: string, ...marks: string[]) => (marks.length ? { type: 'text', text, marks: marks.map((type) => ({ type })) } : { type: 'text', text });

describe('plain text ↔ ADF', () => {
  it('writes paragraphs per blank line and hard breaks per newline', () => {
    expect(textToAdf('One\nline two\r\n\r\nTwo')).toEqual(doc(p(t('One'), { type: 'hardBreak' }, t('line two')), p(t('Two'))));
    expect(textToAdf(['A', '', 'B'])).toEqual(doc(p(t('A')), p(t('B'))));
    expect(textToAdf('')).toEqual(doc());
  });

  it('round-trips description paragraphs', () => {
    const paras = ['It started smoking.', 'Then flames.\nAnd smoke.'];
    expect(adfToParagraphs(textToAdf(paras))).toEqual(paras);
    expect(adfToText(textToAdf(paras))).toBe('It started smoking.\n\nThen flames.\nAnd smoke.');
  });

  it('reads every kind of node as text', () => {
    const rich = doc(
      { type: 'heading', attrs: { level: 2 }, content: [t('Title')] },
      p(t('Hi '), { type: 'mention', attrs: { id: 'x', text: '@Sam' } }, t(' '), { type: 'emoji', attrs: { shortName: ':smile:', text: '😄' } }, t(' see '), { type: 'inlineCard', attrs: { url: 'https://a.example' } }),
      { type: 'bulletList', content: [{ type: 'listItem', content: [p(t('one')), { type: 'orderedList', content: [{ type: 'listItem', content: [p(t('nested'))] }] }] }] },
      { type: 'codeBlock', attrs: { language: 'js' }, content: [t('let a = 1;')] },
      { type: 'panel', attrs: { panelType: 'info' }, content: [p(t('Note'))] },
      { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableHeader', content: [p(t('k'))] }, { type: 'tableCell', content: [p(t('v'))] }] }] },
      { type: 'rule' },
      { type: 'mediaSingle', content: [{ type: 'media', attrs: { id: 'uuid', type: 'file', collection: '', alt: 'shot.png' } }] },
      { type: 'somethingNew', content: [p(t('future'))] },
    );
    expect(adfToText(rich)).toBe(['Title', 'Hi @Sam 😄 see https://a.example', '- one\n  1. nested', 'let a = 1;', 'Note', 'k | v', '---', 'shot.png', 'future'].join('\n\n'));
    expect(adfToParagraphs(rich)).toHaveLength(9);
  });

  it('treats non-ADF values leniently', () => {
    expect(adfToText('legacy wiki text')).toBe('legacy wiki text');
    expect(adfToText(null)).toBe('');
    expect(adfToParagraphs({ not: 'adf' })).toEqual([]);
  });
});

describe('ADF → HTML', () => {
  it('renders marks, blocks and only safe links, escaping text', () => {
    const d = doc(
      p(t('a <b> & "c"'), t('bold', 'strong'), { type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: 'https://x.example/?a=1&b=2' } }, { type: 'em' }] }),
      p({ type: 'text', text: 'evil', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }, { type: 'hardBreak' }, t('x', 'code')),
      { type: 'orderedList', attrs: { order: 3 }, content: [{ type: 'listItem', content: [p(t('three'))] }] },
      { type: 'codeBlock', content: [t('<tag>')] },
      { type: 'blockquote', content: [p(t('quoted'))] },
      { type: 'heading', attrs: { level: 9 }, content: [t('H')] },
    );
    expect(adfToHtml(d)).toBe(
      '<p>a &lt;b&gt; &amp; &quot;c&quot;<strong>bold</strong><a href="https://x.example/?a=1&amp;b=2"><em>link</em></a></p>' +
        '<p>evil<br><code>x</code></p><ol start="3"><li><p>three</p></li></ol><pre><code>&lt;tag&gt;</code></pre><blockquote><p>quoted</p></blockquote><h6>H</h6>',
    );
    expect(adfToHtml('plain & simple')).toBe('<p>plain &amp; simple</p>');
  });
});

describe('HTML → ADF', () => {
  it('converts paragraphs, marks, links, lists, code and headings', () => {
    const d = htmlToAdf('<h1>Title</h1><p>Hello <b>world</b> &amp; <a href="https://x.example">a <i>link</i></a></p><ul><li>one</li><li>two<ol start="2"><li>n</li></ol></li></ul><pre><code class="language-ts">a &lt; b\n  c</code></pre><hr><blockquote>q</blockquote>');
    expect(d.content.map((n) => n.type)).toEqual(['heading', 'paragraph', 'bulletList', 'codeBlock', 'rule', 'blockquote']);
    expect(d.content[0]).toEqual({ type: 'heading', attrs: { level: 1 }, content: [t('Title')] });
    expect(d.content[1]!.content).toEqual([
      t('Hello '),
      t('world', 'strong'),
      t(' & '),
      { type: 'text', text: 'a ', marks: [{ type: 'link', attrs: { href: 'https://x.example' } }] },
      { type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: 'https://x.example' } }, { type: 'em' }] },
    ]);
    expect(d.content[2]!.content![1]!.content![1]).toEqual({ type: 'orderedList', attrs: { order: 2 }, content: [{ type: 'listItem', content: [p(t('n'))] }] });
    expect(d.content[3]).toEqual({ type: 'codeBlock', attrs: { language: 'ts' }, content: [t('a < b\n  c')] });
  });

  it('collapses whitespace, keeps <br>, drops scripts, styles and unsafe links, tolerates broken markup', () => {
    const d = htmlToAdf('  <div>Line   one<br/>line\n two</div><script>alert(1)</script><style>p{}</style><a href="javascript:x()">click</a><p>unclosed <b>bold<p>next');
    expect(adfToText(d)).toBe('Line one\nline two\n\nclick\n\nunclosed bold\n\nnext');
    expect(JSON.stringify(d)).not.toContain('javascript');
    expect(JSON.stringify(d)).not.toContain('alert');
  });

  it('keeps code marks alone (ADF allows code only with link) and decodes entities', () => {
    const d = htmlToAdf('<p><b><code>x&#x3C;y</code></b> &nbsp;&#169;</p>');
    expect(d.content[0]!.content![0]).toEqual(t('x<y', 'code'));
    expect(adfToText(d)).toBe('x<y \u00a0©'.replace('\u00a0', ' '));
  });

  it('flattens tables into one paragraph per row', () => {
    expect(adfToText(htmlToAdf('<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>'))).toBe('k | v\n\na | 1');
  });

  it('round-trips its own HTML', () => {
    const original = doc(p(t('Hi '), t('there', 'strong')), { type: 'bulletList', content: [{ type: 'listItem', content: [p(t('x'))] }] });
    expect(htmlToAdf(adfToHtml(original))).toEqual(original);
  });

  it('parses attributes in any quoting', () => {
    const root = parseHtml(`<a href='https://a.example' title=x data-y="1">z</a>`);
    expect(root.children[0]).toMatchObject({ tag: 'a', attrs: { href: 'https://a.example', title: 'x', 'data-y': '1' } });
  });
});
