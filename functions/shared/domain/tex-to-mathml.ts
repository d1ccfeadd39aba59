/**
 * TeX to MathML with KaTeX: browsers draw MathML themselves, so a page needs no script and no stylesheet
 * for it. Waline's `MARKDOWN_TEX=katex` renders the same MathML; its default, MathJax, draws SVG instead.
 */
import katex from 'katex';

/**
 * KaTeX settings for text from anyone: MathML only; no command that links, embeds or sets HTML attributes
 * (`\href`, `\url`, `\includegraphics`, `\htmlClass`… come out as red text); sizes the TeX asks for
 * (`\rule`, `\kern`) capped at 20 em; at most 1000 macro expansions, which stops `\def\a{\a\a}\a`;
 * no warnings written to the log for input LaTeX would refuse.
 */
const katexOptions = {
  output: 'mathml',
  throwOnError: true,
  trust: false,
  strict: 'ignore',
  maxSize: 20,
  maxExpand: 1000,
} as const satisfies katex.KatexOptions;

/**
 * `tex` as a `<math>` element, inline or a display block; undefined when KaTeX refuses it: a parse
 * error, too many expansions, or nesting deep enough to exhaust the stack.
 */
export function texToMathml(tex: string, display: boolean): string | undefined {
  let html: string;
  try {
    html = katex.renderToString(tex, { ...katexOptions, displayMode: display });
  } catch {
    return undefined;
  }
  // KaTeX wraps the math in `<span class="katex">` (and `katex-display`), which mean something only to
  // its stylesheet.
  const math = html.slice(html.indexOf('<math'), html.lastIndexOf('</math>') + '</math>'.length);
  // KaTeX writes `<mspace …/>`: browsers honour the slash inside <math>, but the sanitiser's HTML parser
  // does not, and would move what follows into the mspace, where it is not drawn.
  return math.replace(/<mspace([^>]*)\/>/g, '<mspace$1></mspace>');
}
