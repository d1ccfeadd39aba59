import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../../../functions/shared/domain/render-markdown.js';

const externalRel = 'target="_blank" rel="nofollow noreferrer noopener ugc"';
const emoji = 'https://unpkg.com/@waline/emojis@1.1.0/weibo/weibo_doge.png';
const pixel =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('renderMarkdown', () => {
  it('renders the Waline example with the script gone when given markdown, a script and a bare URL', () => {
    const text = 'Hello **world** :smile: <script>alert(1)</script> https://example.com';

    const html = renderMarkdown(text);

    expect(html).toBe(
      `<p>Hello <strong>world</strong> :smile:  <a href="https://example.com" ${externalRel}>https://example.com</a></p>\n`,
    );
  });

  it('keeps the widget emoji and adds lazy loading when given an img of class wl-emoji', () => {
    const html = renderMarkdown(`<img class="wl-emoji" src="${emoji}" alt=":x:">`);

    expect(html).toBe(`<img class="wl-emoji" src="${emoji}" alt=":x:" loading="lazy" />`);
  });

  it('drops other classes when an img carries them', () => {
    const html = renderMarkdown(`<img class="wl-emoji evil" src="${emoji}" alt="x" width="20" height="20">`);

    expect(html).toBe(
      `<img class="wl-emoji" src="${emoji}" alt="x" width="20" height="20" loading="lazy" />`,
    );
  });

  it('keeps a markdown image when its src is https', () => {
    const html = renderMarkdown('![cat](https://example.com/cat.png "Cat")');

    expect(html).toBe(
      '<p><img src="https://example.com/cat.png" alt="cat" title="Cat" loading="lazy" /></p>\n',
    );
  });

  it('keeps a pasted image when its src is a base64 PNG data URL', () => {
    const html = renderMarkdown(`![image](${pixel})`);

    expect(html).toBe(`<p><img src="${pixel}" alt="image" loading="lazy" /></p>\n`);
  });

  it.each([
    ['an SVG data URL', '<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" alt="a">'],
    ['a non-base64 data URL', '<img src="data:image/png,abc" alt="a">'],
    ['a javascript URL', '<img src="javascript:alert(1)" alt="a">'],
    ['a relative URL and an onerror handler', '<img src=x onerror=alert(1)>'],
  ])('drops the image when its src is %s', (_case, text) => {
    const html = renderMarkdown(text);

    expect(html).toBe('');
  });

  it('adds target and rel when a link is http, https or mailto', () => {
    const text = '[a](http://a.test) [b](https://b.test) <a href="mailto:c@c.test">c</a>';

    const html = renderMarkdown(text);

    expect(html).toBe(
      `<p><a href="http://a.test" ${externalRel}>a</a> <a href="https://b.test" ${externalRel}>b</a> ` +
        `<a href="mailto:c@c.test" ${externalRel}>c</a></p>\n`,
    );
  });

  it('replaces the given target and rel when an external link brings its own', () => {
    const html = renderMarkdown('<a href="https://a.test" target="_self" rel="opener" title="t">a</a>');

    expect(html).toBe(`<p><a href="https://a.test" title="t" ${externalRel}>a</a></p>\n`);
  });

  it('keeps no target when the link is a fragment', () => {
    const html = renderMarkdown('[top](#abc) <a href="#def" target="_blank" rel="opener">def</a>');

    expect(html).toBe('<p><a href="#abc">top</a> <a href="#def">def</a></p>\n');
  });

  it('treats the link as external when it is protocol-relative', () => {
    const html = renderMarkdown('<a href="//evil.test/x">x</a>');

    expect(html).toBe(`<p><a href="//evil.test/x" ${externalRel}>x</a></p>\n`);
  });

  it('leaves a markdown link as text when its URL is javascript', () => {
    const html = renderMarkdown('[x](javascript:alert(1))');

    expect(html).toBe('<p>[x](javascript:alert(1))</p>\n');
  });

  it.each([
    ['javascript', '<a href="javascript:alert(1)">x</a>'],
    ['upper-case javascript', '<a href="JAVASCRIPT:alert(1)">x</a>'],
    ['javascript after spaces', '<a href="   javascript:alert(1)">x</a>'],
    ['javascript with an encoded tab', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
    ['javascript with a newline', '<a href="java\nscript:alert(1)">x</a>'],
    ['javascript with an encoded colon', '<a href="javascript&colon;alert(1)">x</a>'],
    ['javascript with a leading control character', '<a href="&#x01;javascript:alert(1)">x</a>'],
    ['vbscript', '<a href="VBScript:msgbox(1)">x</a>'],
    ['an ftp URL', '<a href="ftp://a.test/x">x</a>'],
    ['a data URL', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ])('drops the link but keeps its text when its href is %s', (_case, text) => {
    const html = renderMarkdown(text);

    expect(html).toBe('<p>x</p>\n');
  });

  it('removes script and style with their content when given inline', () => {
    const html = renderMarkdown('a <script>alert(1)</script><style>p{color:red}</style>b');

    expect(html).toBe('<p>a b</p>\n');
  });

  it('removes every event handler and style attribute when elements carry them', () => {
    const text =
      '<p style="color:red" onclick="alert(1)">a <a href="https://a.test" onmouseover="alert(2)">b</a></p>';

    const html = renderMarkdown(text);

    expect(html).toBe(`<p>a <a href="https://a.test" ${externalRel}>b</a></p>`);
  });

  it('removes embedding and form elements when given them', () => {
    const text =
      '<iframe src="https://a.test">frame</iframe><object data="x.swf"></object><embed src="x.swf">' +
      '<form action="https://a.test"><input value="v"><button>press</button><textarea>typed</textarea>' +
      '<select><option>opt</option></select></form>';

    const html = renderMarkdown(text);

    expect(html).toBe('framepressopt');
  });

  it('removes svg with its script when given an svg with onload', () => {
    const html = renderMarkdown('<svg onload="alert(1)"><script>alert(2)</script><text>t</text></svg>');

    expect(html).toBe('<p>t</p>\n');
  });

  it('removes the link when an svg link has a javascript xlink:href', () => {
    const html = renderMarkdown('<svg><a xlink:href="javascript:alert(1)"><text>t</text></a></svg>');

    expect(html).toBe('<p>t</p>\n');
  });

  it('neutralises the math and style mutation trick when given it', () => {
    const text =
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>';

    const html = renderMarkdown(text);

    expect(html).toBe('<p><table></table></p>\n');
  });

  it('removes noscript with its content and other unknown tags without theirs when given both', () => {
    const html = renderMarkdown('a <noscript>hidden</noscript><span class="x">b</span> <font>c</font>');

    expect(html).toBe('<p>a b c</p>\n');
  });

  it('escapes the text when it contains markup-like characters', () => {
    const html = renderMarkdown('1 &lt; 2 & "q" <b');

    expect(html).toBe('<p>1 &lt; 2 &amp; “q” &lt;b</p>\n');
  });

  it('keeps the language class on code when given a fenced block', () => {
    const html = renderMarkdown('```js\nlet a = 1 < 2;\n```');

    expect(html).toBe('<pre><code class="language-js">let a = 1 &lt; 2;\n</code></pre>\n');
  });

  it('drops other classes when code or pre carry them', () => {
    const html = renderMarkdown('<pre class="x"><code class="language-ts evil">a</code></pre>');

    expect(html).toBe('<pre><code class="language-ts">a</code></pre>');
  });

  it('keeps the table without its alignment styles when given a markdown table', () => {
    const html = renderMarkdown('| a | b |\n|:-|-:|\n| 1 | 2 |');

    expect(html).toBe(
      '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n',
    );
  });

  it('keeps headings, quotes, lists, rules and line breaks when given block markdown', () => {
    const text = '# T\n\n> q\n\n- a\n- b\n\n3. c\n\n---\nx\ny';

    const html = renderMarkdown(text);

    expect(html).toBe(
      '<h1>T</h1>\n<blockquote>\n<p>q</p>\n</blockquote>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n' +
        '<ol start="3">\n<li>c</li>\n</ol>\n<hr />\n<p>x<br />\ny</p>\n',
    );
  });

  it('keeps inline emphasis tags when given them', () => {
    const html = renderMarkdown('*e* ~~d~~ <del>x</del><sub>1</sub><sup>2</sup><mark>m</mark>');

    expect(html).toBe('<p><em>e</em> <s>d</s> <del>x</del><sub>1</sub><sup>2</sup><mark>m</mark></p>\n');
  });

  it('keeps details and summary when given them', () => {
    const html = renderMarkdown('<details><summary>S</summary>body</details>');

    expect(html).toBe('<details><summary>S</summary>body</details>');
  });
});

describe('renderMarkdown: the cases a browser sees differently from a regex', () => {
  it.each([
    ['a leading space', '<a href=" https://a.test">l</a>', ' https://a.test'],
    ['a leading control character', '<a href="&#x01;https://a.test">l</a>', '\u0001https://a.test'],
    ['a tab inside the scheme', '<a href="ht&#x09;tps://a.test">l</a>', 'ht\ttps://a.test'],
    ['a port', '<a href="https://a.test:8080/">l</a>', 'https://a.test:8080/'],
    ['a backslash pair', '<a href="\\\\evil.test">l</a>', '\\\\evil.test'],
  ])('keeps target and rel on an external link with %s', (_case, text, href) => {
    const html = renderMarkdown(text);

    expect(html).toContain(externalRel);
    expect(html).toContain(`href="${href}"`);
  });

  it.each([
    ['a site-relative path', '<a href="/about">l</a>', '/about'],
    ['a relative path', '<a href="page.html">l</a>', 'page.html'],
    ['a URL only in its query', '<a href="/p?next=http://x.test">l</a>', '/p?next=http://x.test'],
  ])('opens %s in the same tab, without nofollow', (_case, text, href) => {
    expect(renderMarkdown(text)).toBe(`<p><a href="${href}">l</a></p>\n`);
  });

  it('keeps an http image', () => {
    expect(renderMarkdown('![a](http://a.test/a.png)')).toBe(
      '<p><img src="http://a.test/a.png" alt="a" loading="lazy" /></p>\n',
    );
  });

  it('drops an image whose data URL is only base64 in part', () => {
    expect(renderMarkdown('<img src="data:image/png;base64,AAAA!x" alt="a">')).toBe('');
    expect(renderMarkdown('<img src="xdata:image/png;base64,AAAA" alt="a">')).toBe('');
  });

  it('keeps every heading level', () => {
    expect(renderMarkdown('# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f')).toBe(
      '<h1>a</h1>\n<h2>b</h2>\n<h3>c</h3>\n<h4>d</h4>\n<h5>e</h5>\n<h6>f</h6>\n',
    );
  });

  it('keeps only a class that starts with language-', () => {
    expect(renderMarkdown('<code class="xlanguage-js">x</code>')).toBe('<p><code>x</code></p>\n');
    expect(renderMarkdown('<code class="language-js x">x</code>')).toBe(
      '<p><code class="language-js">x</code></p>\n',
    );
  });

  it('removes xmp with its content', () => {
    expect(renderMarkdown('<xmp><b>x</b></xmp>')).toBe('<p></p>\n');
  });

  it('drops an image whose src only contains an allowed URL further on', () => {
    // `data:` is an allowed image scheme: only the whole of the src may be an inline image or an http URL.
    expect(renderMarkdown('<img src="data:text/html;x,data:image/png;base64,AAAA" alt="a">')).toBe('');
    expect(renderMarkdown('<img src="data:text/html,http://a.test/a.png" alt="a">')).toBe('');
  });

  it('drops a language class with characters after the language name', () => {
    expect(renderMarkdown('<code class="language-c!">x</code>')).toBe('<p><code>x</code></p>\n');
  });
});
