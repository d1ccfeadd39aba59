import { describe, expect, it } from 'vitest';
import { htmlToText, lineTags } from '../../../../../functions/notify/templates/html-to-text.js';
import { mailSafeHtml, mailTags } from '../../../../../functions/notify/templates/mail-safe-html.js';
import { markdownTags } from '../../../../../functions/shared/domain/html-tags.js';

describe('mailSafeHtml', () => {
  it('turns a link into its text and its URL, so the text cannot pose as another address', () => {
    expect(
      mailSafeHtml(
        '<p><a href="https://evil.example/" target="_blank" rel="nofollow">https://bank.example</a></p>',
      ),
    ).toBe('<p>https://bank.example (https://evil.example/)</p>');
  });

  it('shows a link whose text is its URL once', () => {
    expect(mailSafeHtml('<a href="https://a.example/">https://a.example/</a>')).toBe('https://a.example/');
  });

  it('keeps the text of a link with a refused scheme, and no live link', () => {
    expect(mailSafeHtml('<a href="javascript:alert(1)">click</a>')).toBe('click');
  });

  it('keeps the markup of a link’s text', () => {
    expect(mailSafeHtml('<a href="https://a.example/?q=1&amp;r=2"><strong>A</strong></a>')).toBe(
      '<strong>A</strong> (https://a.example/?q=1&amp;r=2)',
    );
  });

  it('drops images (tracking pixels), styles and attributes', () => {
    expect(
      mailSafeHtml(
        '<p class="x" style="color:red">a<img src="https://t.example/p.gif" alt="p">b</p><style>p{}</style>',
      ),
    ).toBe('<p>ab</p>');
  });

  it('drops scripts and keeps escaped text escaped', () => {
    expect(mailSafeHtml('<p>&lt;b&gt; &amp;</p><script>alert(1)</script>')).toBe('<p>&lt;b&gt; &amp;</p>');
  });

  it('leaves no live link when links are nested', () => {
    const safe = mailSafeHtml('<a href="https://one.example/"><a href="https://two.example/">x</a></a>');
    expect(safe).not.toMatch(/<a\b/);
    // The inner link's tags are dropped, its text kept: nothing else is written in their place.
    expect(mailSafeHtml('<a href="https://one.example/">a<a href="https://two.example/">x</a>b</a>')).toBe(
      'ax (https://one.example/)b',
    );
  });

  it('keeps a formula’s text but not its TeX source', () => {
    expect(
      mailSafeHtml(
        '<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x^2</annotation></semantics></math>',
      ),
    ).toBe('x');
  });
});

describe('htmlToText', () => {
  it('writes blocks as lines and paragraphs apart', () => {
    expect(htmlToText('<div><h2>Title</h2><p>One   two\nthree</p><p>Four<br>five</p></div>')).toBe(
      'Title\n\nOne two three\n\nFour\nfive',
    );
  });

  it('writes list items as dashes and keeps preformatted text', () => {
    expect(htmlToText('<ul><li>a</li><li>b</li></ul><pre><code>  x\n    y</code></pre>')).toBe(
      '- a\n- b\n\n  x\n    y',
    );
  });

  it('decodes entities and writes links as text and URL', () => {
    expect(
      htmlToText('<p>&lt;tag&gt; &amp; &quot;q&quot; <a href="https://a.example/?a=1&amp;b=2">here</a></p>'),
    ).toBe('<tag> & "q" here (https://a.example/?a=1&b=2)');
  });

  it('leaves out the head, styles and scripts of a document', () => {
    expect(
      htmlToText(
        '<html><head><title>T</title><style>p{}</style></head><body><p>Hi</p><script>x()</script></body></html>',
      ),
    ).toBe('Hi');
  });
});

describe('mailSafeHtml: what a comment keeps', () => {
  const kept = [
    ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'del', 's'],
    ['sub', 'sup', 'blockquote', 'ul', 'ol', 'li', 'pre', 'code', 'span'],
    ['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ].flat();

  it.each(kept)('keeps <%s>, without its attributes', (tag) => {
    const voidTag = tag === 'br' || tag === 'hr';
    const html = voidTag ? `a<${tag} class="c" title="t">b` : `<${tag} class="c" title="t">x</${tag}>`;
    expect(mailSafeHtml(html)).toBe(voidTag ? `a<${tag} />b` : `<${tag}>x</${tag}>`);
  });

  it('drops any other element, keeping its text', () => {
    expect(mailSafeHtml('<div><u>a</u><small>b</small><button>c</button><font>d</font></div>')).toBe('abcd');
  });

  it('keeps the start of an ordered list', () => {
    expect(mailSafeHtml('<ol start="3" type="a"><li>c</li></ol>')).toBe('<ol start="3"><li>c</li></ol>');
  });

  it.each([
    'annotation',
    'annotation-xml',
    'script',
    'style',
    'textarea',
    'noscript',
    'xmp',
    'title',
    'head',
  ])('drops <%s> with its text', (tag) => {
    expect(mailSafeHtml(`a<${tag}>hidden</${tag}>b`)).toBe('ab');
  });

  it('shows http, https and mailto links as text and URL, and any other scheme as text only', () => {
    expect(
      mailSafeHtml(
        '<a href="http://a.example/">a</a> <a href="mailto:m@example.com">m</a> ' +
          '<a href="ftp://f.example/">f</a> <a href="data:text/html,x">d</a> <a>none</a>',
      ),
    ).toBe('a (http://a.example/) m (mailto:m@example.com) f d none');
  });

  it('trims the text of a link before comparing it with the URL', () => {
    expect(mailSafeHtml('<a href="https://a.example/"> <em>https://a.example/</em> </a>')).toBe(
      ' <em>https://a.example/</em> ',
    );
  });
});

describe('htmlToText: blocks', () => {
  const lineBlocks = [
    ['address', 'article', 'aside', 'blockquote', 'center', 'dd', 'div', 'dl', 'dt', 'figcaption'],
    ['figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'ol', 'p', 'section'],
    ['table', 'tbody', 'tfoot', 'thead', 'tr', 'ul'],
  ].flat();

  it.each(lineBlocks)('writes <%s> on its own line', (tag) => {
    expect(htmlToText(`x<${tag}>y</${tag}>z`)).toBe('x\ny\nz');
  });

  it('writes a rule as a line of dashes, apart', () => {
    expect(htmlToText('x<hr>z')).toBe('x\n---\nz');
  });

  it('writes table cells apart, each row its own paragraph', () => {
    expect(htmlToText('<table><tr><th>a</th><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe(
      'a b\n\nc d',
    );
  });

  it('drops the spaces around a line break outside <pre>, and keeps them inside', () => {
    expect(htmlToText('<p>a   <br>   b</p><pre>  c  \n  d</pre><p>e</p>')).toBe('a\nb\n\n  c\n  d\n\ne');
  });

  it('keeps no more than one empty line', () => {
    expect(htmlToText('<p>a</p><p></p><div><p></p></div><p>b</p>')).toBe('a\n\nb');
  });

  it('collapses spaces again after a </pre>', () => {
    expect(htmlToText('<pre>x  y</pre><p>a   b   c</p>')).toBe('x  y\n\na b c');
  });

  it('collapses the spaces of text that follows a cell on its line, keeping the one they stand for', () => {
    expect(htmlToText('<td>a</td>b   c')).toBe('a b c');
    expect(htmlToText('<td>a</td>  b')).toBe('a  b');
  });

  it('collapses the spaces inside a line as outside', () => {
    expect(htmlToText('<p>a   b</p>x  <em>y  z</em>')).toBe('a b\nx y z');
  });

  it('decodes every entity, named or numbered', () => {
    expect(htmlToText('<p>&#39;a&#39; &eacute; &#x3C;b&#62;</p>')).toBe("'a' é <b>");
  });
});

// The lists pinned exactly (functions/shared/domain/html-tags.ts is their source): a change there shows here.
describe('the tags of a mail and of plain text', () => {
  it('keeps in a mail the markdown tags but img, a, mark, details and summary, and b, i and span besides', () => {
    const dropped = ['img', 'a', 'mark', 'details', 'summary'];

    expect(mailTags).toEqual([
      ...['p', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre'],
      ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
      ...['br', 'strong', 'em', 'del', 's', 'sub', 'sup', 'code'],
      ...['b', 'i', 'span'],
    ]);
    expect(mailTags).toEqual([...markdownTags.filter((tag) => !dropped.includes(tag)), 'b', 'i', 'span']);
  });

  it('breaks lines at the comment blocks and at HTML’s other blocks', () => {
    expect([...lineTags]).toEqual([
      ...['p', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre'],
      ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
      ...['address', 'article', 'aside', 'center', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure'],
      ...['footer', 'header', 'main', 'section', 'tfoot'],
    ]);
  });
});
