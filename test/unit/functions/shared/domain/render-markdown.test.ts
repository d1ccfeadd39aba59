import type MarkdownIt from 'markdown-it';
import { describe, expect, it, vi } from 'vitest';
import {
  allMarkdownFeatures,
  type MarkdownFeatures,
  renderMarkdown,
} from '../../../../../functions/shared/domain/render-markdown.js';
import { prismHighlighter } from '../../../../../functions/shared/domain/highlight-code.js';
import { texToMathml } from '../../../../../functions/shared/domain/tex-to-mathml.js';

const externalRel = 'target="_blank" rel="nofollow noreferrer noopener ugc"';
const emoji = 'https://unpkg.com/@waline/emojis@1.1.0/weibo/weibo_doge.png';
const pixel =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('renderMarkdown', () => {
  it('renders the Waline example with the emoji and the script gone when given markdown, a script and a bare URL', () => {
    const text = 'Hello **world** :smile: <script>alert(1)</script> https://example.com';

    const html = renderMarkdown(text);

    expect(html).toBe(
      `<p>Hello <strong>world</strong> 😄  <a href="https://example.com" ${externalRel}>https://example.com</a></p>\n`,
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

    expect(renderMarkdown(text)).toBe('<p><math><mtext><table></table></mtext></math></p>\n');
    expect(renderMarkdown(text, { ...allMarkdownFeatures, tex: false })).toBe('<p><table></table></p>\n');
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
    const html = renderMarkdown('```js\nlet a = 1 < 2;\n```', { ...allMarkdownFeatures, highlight: false });

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

const noFeatures: MarkdownFeatures = { emoji: false, sub: false, sup: false, tex: false, highlight: false };
/** Renders as the comment function does, KaTeX included, with `features`. */
/** Renders as the comment function does with KaTeX and Prism loaded. */
const render = (text: string, features: MarkdownFeatures = allMarkdownFeatures) =>
  renderMarkdown(text, features, texToMathml, prismHighlighter);

describe("renderMarkdown: Waline's extensions", () => {
  it('renders shortcodes and emoticons as emoji when emoji is on, and leaves them when it is off', () => {
    const text = ':smile: and :) and :not_an_emoji:';

    expect(render(text)).toBe('<p>😄 and 😃 and :not_an_emoji:</p>\n');
    expect(render(text, { ...allMarkdownFeatures, emoji: false })).toBe(
      '<p>:smile: and :) and :not_an_emoji:</p>\n',
    );
  });

  it('renders ~sub~ and ^sup^ when they are on, beside ~~strikethrough~~', () => {
    const text = 'H~2~O ~~gone~~ x^2^';

    expect(render(text)).toBe('<p>H<sub>2</sub>O <s>gone</s> x<sup>2</sup></p>\n');
    expect(render(text, { ...allMarkdownFeatures, sub: false })).toBe(
      '<p>H~2~O <s>gone</s> x<sup>2</sup></p>\n',
    );
    expect(render(text, { ...allMarkdownFeatures, sup: false })).toBe(
      '<p>H<sub>2</sub>O <s>gone</s> x^2^</p>\n',
    );
  });

  it('renders inline TeX as a math element when tex is on', () => {
    expect(render('$E=mc^2$')).toBe(
      '<p><math><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>' +
        '</semantics></math></p>\n',
    );
  });

  it('renders a $$ block as a display math element, keeping the attributes KaTeX sets', () => {
    expect(render('$$\n\\frac{1}{2} \\quad \\color{red}{x}\n$$')).toBe(
      '<math display="block"><semantics><mrow><mfrac><mn>1</mn><mn>2</mn></mfrac>' +
        '<mspace width="1em"></mspace><mstyle mathcolor="red"><mi>x</mi></mstyle></mrow></semantics></math>\n',
    );
  });

  it('leaves TeX as written, and refuses MathML, when tex is off', () => {
    expect(render('$x^2$ <math><mi>y</mi></math>', { ...allMarkdownFeatures, tex: false })).toBe(
      '<p>$x^2$ y</p>\n',
    );
  });

  it('leaves formulas as written when given no TeX renderer', () => {
    expect(renderMarkdown('$x$')).toBe('<p>$x$</p>\n');
  });

  it('highlights fenced code with Prism token spans when highlight is on', () => {
    expect(render('```js\nlet a = 1 < 2;\n```')).toBe(
      '<pre><code class="language-js"><span class="token keyword">let</span> a ' +
        '<span class="token operator">=</span> <span class="token number">1</span> ' +
        '<span class="token operator">&lt;</span> <span class="token number">2</span>' +
        '<span class="token punctuation">;</span>\n</code></pre>\n',
    );
  });

  it('refuses token spans when highlight is off', () => {
    expect(render('<span class="token keyword">k</span>', { ...allMarkdownFeatures, highlight: false })).toBe(
      '<p>k</p>\n',
    );
  });

  it('renders as before the extensions when every one is off', () => {
    const text = ':smile: H~2~O x^2^ $x$\n\n```js\nlet a;\n```';

    expect(render(text, noFeatures)).toBe(
      '<p>:smile: H~2~O x^2^ $x$</p>\n<pre><code class="language-js">let a;\n</code></pre>\n',
    );
  });
});

describe('renderMarkdown: XSS through the markup the extensions allow', () => {
  it.each([
    [
      'the DOMPurify mglyph and style mutation',
      '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
      '<p><math><mtext><table></table></mtext></math></p>\n',
    ],
    [
      'an HTML integration point holding an svg',
      '<math><annotation-xml encoding="text/html"><svg onload=alert(1)><img src=x onerror=alert(1)></svg></annotation-xml></math>',
      '<p><math></math></p>\n',
    ],
    [
      'an HTML integration point holding text, which no reader is shown',
      '<math><annotation-xml encoding="text/html">leak <b>bold</b></annotation-xml></math>',
      '<p><math></math></p>\n',
    ],
    [
      'maction with a javascript xlink:href',
      '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x<mtext>y</mtext></maction></math>',
      '<p><math>x<mtext>y</mtext></math></p>\n',
    ],
    [
      'href and xlink:href on MathML elements',
      '<math href="javascript:alert(1)"><mi xlink:href="javascript:alert(1)" href="javascript:alert(2)">x</mi></math>',
      '<p><math><mi>x</mi></math></p>\n',
    ],
    [
      'style, class, id, event handlers and mglyph src',
      '<math><mi style="color:red" class="x" id="y" onclick="alert(1)">x</mi><mglyph src="https://a.test/x.png"></mglyph></math>',
      '<p><math><mi>x</mi></math></p>\n',
    ],
    [
      'values KaTeX never writes in attributes it does',
      '<math><mi mathvariant="x;y" mathcolor="url(javascript:1)" width="expression(1)" height="1em">x</mi></math>',
      '<p><math><mi height="1em">x</mi></math></p>\n',
    ],
    [
      'a style in mtext inside svg',
      '<svg><math><mtext><style><img src=x onerror=alert(1)></style></mtext></math></svg>',
      '<p><math><mtext></mtext></math></p>\n',
    ],
    [
      'the form and textarea namespace confusion',
      '<form><math><mtext></form><form><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">',
      '<math><mtext></mtext></math><mtext>"&gt;</mtext>',
    ],
    [
      'an annotation holding markup',
      '<math><semantics><mi>x</mi><annotation encoding="application/x-tex"><img src=x onerror=alert(1)></annotation></semantics></math>',
      '<p><math><semantics><mi>x</mi></semantics></math></p>\n',
    ],
  ])('leaves %s inert', (_case, text, expected) => {
    expect(render(text)).toBe(expected);
  });

  it.each([
    ['\\href', '\\href{javascript:alert(1)}{x}'],
    ['\\url', '\\url{javascript:alert(1)}'],
    ['\\htmlClass', '\\htmlClass{x}{y}'],
    ['\\htmlId', '\\htmlId{x}{y}'],
    ['\\htmlStyle', '\\htmlStyle{color:red}{y}'],
    ['\\htmlData', '\\htmlData{foo=bar}{y}'],
    ['\\includegraphics', '\\includegraphics{https://a.test/x.png}'],
  ])('renders %s as the red name of a command it refuses', (command, tex) => {
    expect(render(`$${tex}$`)).toBe(
      '<p><math><semantics><mrow><mstyle mathcolor="#cc0000">' +
        `<mtext>${command}</mtext></mstyle></mrow></semantics></math></p>\n`,
    );
  });

  it('shows a colour that smuggles CSS as the TeX written', () => {
    expect(render('$\\color{red;background:url(x)}{y}$')).toBe(
      '<p>$\\color{red;background:url(x)}{y}$</p>\n',
    );
  });

  it('keeps HTML in a language fence as highlighted text, with only token classes', () => {
    const html = render('```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```');

    expect(html).not.toMatch(/<(?!\/?(?:span|pre|code)\b)/);
    expect(html).toContain('&lt;</span>script</span>');
    expect(html).toContain('<span class="token attr-name">onerror</span>');
    for (const [, classes] of html.matchAll(/class="([^"]*)"/g)) {
      expect(classes).toMatch(/^(?:language-html|token(?: [a-z-]+)*)$/);
    }
  });

  it('drops the class of a fence whose language would break out of it', () => {
    expect(render('```"><script>alert(1)</script>\nx\n```')).toBe('<pre><code>x\n</code></pre>\n');
  });

  it('drops token classes that Prism does not write', () => {
    expect(render('<span class="token keyword evil">k</span><span class="x">y</span><span>z</span>')).toBe(
      '<p><span class="token keyword">k</span>yz</p>\n',
    );
  });
});

/**
 * renderMarkdown from a fresh copy of its module, whose renderers are all still to be built: the test that
 * checks a feature set also builds its renderer (with the module's cache, only the first test to use a
 * feature set would build it, and a test of how renderers are built would depend on the order of tests).
 */
async function freshRenderMarkdown(): Promise<typeof renderMarkdown> {
  vi.resetModules();
  const module = await import('../../../../../functions/shared/domain/render-markdown.js');
  return module.renderMarkdown;
}

describe('renderMarkdown: the renderer each feature set builds', () => {
  it('highlights a fence with token spans, and drops a span without a token class, when highlight is on', async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(
      renderFresh('```js\nlet a;\n```\n\n<span>z</span>', allMarkdownFeatures, undefined, prismHighlighter),
    ).toBe(
      '<pre><code class="language-js"><span class="token keyword">let</span> a' +
        '<span class="token punctuation">;</span>\n</code></pre>\n<p>z</p>\n',
    );
  });

  it('leaves a fence as markdown-it escapes it, no-break space included, when highlight is off', async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(renderFresh('```js\nlet\u00a0a;\n```', { ...allMarkdownFeatures, highlight: false })).toBe(
      '<pre><code class="language-js">let\u00a0a;\n</code></pre>\n',
    );
  });

  it('keeps the MathML attributes KaTeX writes, with only the values it writes, when tex is on', async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(renderFresh('<math display="block"><mi mathvariant="x;y" height="1em">x</mi></math>')).toBe(
      '<p><math display="block"><mi height="1em">x</mi></math></p>\n',
    );
  });

  it('refuses MathML a commenter types when tex is off', async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(
      renderFresh('<math display="block"><mi>y</mi></math>', { ...allMarkdownFeatures, tex: false }),
    ).toBe('<p>y</p>\n');
  });

  it('drops an image without an allowed src and keeps the text of a link without an allowed href', async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(renderFresh('<img src="x.png" alt="a"><a href="javascript:alert(1)">t</a>', noFeatures)).toBe(
      '<p>t</p>\n',
    );
  });

  it("links a bare URL and sets (c), quotes and dashes typographically, as Waline's markdown-it does", async () => {
    const renderFresh = await freshRenderMarkdown();

    expect(renderFresh('(c) "q" -- https://a.test', noFeatures)).toBe(
      `<p>© “q” – <a href="https://a.test" ${externalRel}>https://a.test</a></p>\n`,
    );
  });

  it('builds one markdown-it per feature set, on its first use, and reuses it', async () => {
    const built = vi.fn();
    vi.doMock('markdown-it', async (importOriginal) => {
      const { default: Original } = await importOriginal<{ default: typeof MarkdownIt }>();
      return {
        default: class extends Original {
          constructor(...args: ConstructorParameters<typeof MarkdownIt>) {
            super(...args);
            built();
          }
        },
      };
    });
    try {
      const renderFresh = await freshRenderMarkdown();

      expect(renderFresh('*a*')).toBe('<p><em>a</em></p>\n');
      expect(renderFresh('*b*')).toBe('<p><em>b</em></p>\n');
      expect(built).toHaveBeenCalledTimes(1);
      expect(renderFresh('*c*', noFeatures)).toBe('<p><em>c</em></p>\n');
      expect(renderFresh('*d*', { ...noFeatures })).toBe('<p><em>d</em></p>\n');
      expect(built).toHaveBeenCalledTimes(2);
    } finally {
      vi.doUnmock('markdown-it');
      vi.resetModules();
    }
  });
});
