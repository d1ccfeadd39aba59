import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import {
  texBudget,
  texPlugin,
  type TexRenderer,
} from '../../../../../functions/shared/domain/markdown-tex.js';
import { renderMarkdown } from '../../../../../functions/shared/domain/render-markdown.js';
import { texToMathml } from '../../../../../functions/shared/domain/tex-to-mathml.js';

const markdown = new MarkdownIt().use(texPlugin);
/** Renders each formula as `[I:tex]` or `[D:tex]`, and records it. */
function renderWithFake(text: string): { html: string; formulas: string[] } {
  const formulas: string[] = [];
  const renderTex: TexRenderer = (tex, display) => {
    formulas.push(tex);
    return `[${display ? 'D' : 'I'}:${tex}]`;
  };
  return { html: markdown.render(text, { renderTex }), formulas };
}

describe('texPlugin', () => {
  it('renders $…$ inline and a $$ block with the renderer the render is given', () => {
    expect(renderWithFake('a $x^2$ b\n\n$$\n\\sum_i x_i\n$$\n\nc $$y$$').html).toBe(
      '<p>a [I:x^2] b</p>\n[D:\\sum_i x_i]\n<p>c $$y$$</p>\n',
    );
  });

  it('renders a one-line $$ block, and one inside a list item', () => {
    expect(renderWithFake('$$ x $$').html).toBe('[D:x ]\n');
    expect(renderWithFake('- a\n  $$\n  y\n  $$\n- b').html).toBe(
      '<ul>\n<li>a[D:y]\n</li>\n<li>b</li>\n</ul>\n',
    );
  });

  it.each([
    ['a blank after the opening $', 'costs $ 5 and $6'],
    ['a blank before the closing $', 'costs $5 and $ 6'],
    ['a digit after the closing $', 'from $5 to $10'],
    ['no closing $', 'just $5'],
    ['an escaped closing $', 'a $x\\$ b'],
    ['a $ at the end', 'money$'],
  ])('leaves dollars as text when %s', (_case, text) => {
    const { html, formulas } = renderWithFake(text);

    expect(formulas).toEqual([]);
    expect(html).not.toContain('[');
  });

  it('takes an escaped $ inside a formula as part of it', () => {
    expect(renderWithFake('$a\\$b$').formulas).toEqual(['a\\$b']);
  });

  it('leaves code spans and fenced code alone', () => {
    expect(renderWithFake('`$x$`\n\n```\n$$\ny\n$$\n```').formulas).toEqual([]);
  });

  it('runs an unclosed $$ block to the end of the comment, as an unclosed fence does', () => {
    expect(renderWithFake('$$\nx\n\ny').html).toBe('[D:x\n\ny]\n');
  });

  it('shows a formula as written when the renderer refuses it, inline and as a block', () => {
    const html = markdown.render('a $<b>$ b\n\n$$\n<i>\n$$', { renderTex: () => undefined });

    expect(html).toBe('<p>a $&lt;b&gt;$ b</p>\n<p>$$&lt;i&gt;$$</p>\n');
  });

  it('shows formulas as written when the render has no renderer', () => {
    expect(markdown.render('$x$')).toBe('<p>$x$</p>\n');
  });
});

describe('texPlugin: the budget of a comment', () => {
  it('renders the first texBudget.formulas formulas and shows the rest as written', () => {
    const { html, formulas } = renderWithFake('$x$ '.repeat(texBudget.formulas + 5));

    expect(formulas).toHaveLength(texBudget.formulas);
    expect(html.match(/\$x\$/g)).toHaveLength(5);
  });

  it('shows a formula longer than texBudget.formulaChars as written, and renders the next', () => {
    const long = 'x'.repeat(texBudget.formulaChars + 1);

    expect(renderWithFake(`$${long}$ $y$`).formulas).toEqual(['y']);
  });

  it('stops rendering once the formulas reach texBudget.commentChars', () => {
    const formula = 'x'.repeat(texBudget.formulaChars);
    const count = texBudget.commentChars / texBudget.formulaChars;

    const { formulas } = renderWithFake(`$${formula}$ `.repeat(count + 1));

    expect(formulas).toHaveLength(count);
  });

  it('counts blocks and inline formulas in the order they appear', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((letter) => letter.repeat(texBudget.commentChars / 3));
    const text = `$$\n${a}\n$$\n\n$${b}$ $d$\n\n$$\n${c}\n$$\n\n$e$`;

    // `c` would overrun the budget the three before it left; `e` still fits.
    expect(renderWithFake(text).formulas.map((tex) => tex.slice(0, 1))).toEqual(['a', 'b', 'd', 'e']);
  });
});

describe('texPlugin: cost, with KaTeX', () => {
  const render = (text: string) => renderMarkdown(text, undefined, texToMathml);

  it('renders a comment of thousands of formulas in well under a second, the budget’s worth as math', () => {
    const text = '$x^2$ '.repeat(10_000);

    const started = performance.now();
    const html = render(text);
    const elapsed = performance.now() - started;

    expect(html.match(/<math>/g)).toHaveLength(texBudget.formulas);
    expect(elapsed).toBeLessThan(1000);
  });

  it('renders thousands of unclosed $$ lines in well under a second', () => {
    const started = performance.now();
    render('$$x\n'.repeat(20_000));

    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('shows deeply nested TeX as written, quickly', () => {
    const nested = `$${'{'.repeat(30_000)}x${'}'.repeat(30_000)}$`;
    const started = performance.now();

    expect(render(nested)).toBe(`<p>${nested}</p>\n`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
