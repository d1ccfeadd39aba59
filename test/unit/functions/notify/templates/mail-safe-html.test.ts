import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../../../functions/notify/templates/html-to-text.js';
import { mailSafeHtml } from '../../../../../functions/notify/templates/mail-safe-html.js';

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
