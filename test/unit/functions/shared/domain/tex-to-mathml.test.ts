import { afterEach, describe, expect, it, vi } from 'vitest';
import { texToMathml } from '../../../../../functions/shared/domain/tex-to-mathml.js';

describe('texToMathml', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('renders inline TeX as a bare math element, without KaTeX’s span', () => {
    expect(texToMathml('x^2', false)).toBe(
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>' +
        '<annotation encoding="application/x-tex">x^2</annotation></semantics></math>',
    );
  });

  it('renders display TeX as a block math element', () => {
    expect(texToMathml('x', true)).toMatch(/^<math xmlns="[^"]+" display="block">.*<\/math>$/);
  });

  it('closes each mspace, which KaTeX writes self-closing', () => {
    const mathml = texToMathml('a\\quad b\\, c', false) ?? '';

    expect(mathml).not.toContain('/>');
    expect(mathml).toContain('<mspace width="1em"></mspace>');
  });

  it('caps the sizes TeX asks for at 20 em', () => {
    expect(texToMathml('\\rule{100000em}{100000em}', false)).toContain('width="20em" height="20em"');
  });

  it('returns undefined for TeX that expands without end', () => {
    expect(texToMathml('\\def\\a{\\a\\a}\\a', false)).toBeUndefined();
    expect(
      texToMathml('\\newcommand{\\f}[1]{#1#1}\\f{\\f{\\f{\\f{\\f{\\f{\\f{\\f{\\f{\\f{x}}}}}}}}}}', false),
    ).toBeUndefined();
  });

  it('returns undefined for nesting deep enough to exhaust the stack, and for a parse error', () => {
    expect(texToMathml(`${'{'.repeat(20_000)}x${'}'.repeat(20_000)}`, false)).toBeUndefined();
    expect(texToMathml('\\frac{', false)).toBeUndefined();
  });

  it('writes no link, image, class, id, style or data attribute for commands that would', () => {
    const mathml =
      texToMathml(
        '\\href{javascript:alert(1)}{a}\\url{https://a.test}\\includegraphics{https://a.test/x.png}' +
          '\\htmlClass{c}{b}\\htmlId{i}{b}\\htmlStyle{color:red}{b}\\htmlData{k=v}{b}',
        false,
      ) ?? '';

    expect(mathml).toContain('<mtext>\\href</mtext>');
    expect(mathml).not.toMatch(/\s(?:href|src|class|id|style|data-[\w-]+)=/);
  });

  it('logs nothing for TeX that LaTeX would refuse', () => {
    const warn = vi.spyOn(console, 'warn');

    texToMathml('\\text{é} \\sout{x}', false);

    expect(warn).not.toHaveBeenCalled();
  });
});
