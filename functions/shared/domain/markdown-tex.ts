/**
 * TeX in markdown, with Waline's delimiters: `$…$` inline, `$$…$$` as a block. A comment's formulas are
 * rendered within a budget, so that thousands of them cost no more than a few: past it, and for a formula
 * KaTeX refuses, the TeX is shown as the text it was written as.
 */
import type MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type Token from 'markdown-it/lib/token.mjs';

/** How much TeX one comment may have rendered: KaTeX takes up to ~20 ms per 1000 characters. */
export const texBudget = {
  /** A longer formula is shown as text; it also keeps KaTeX's recursion far from the stack's end. */
  formulaChars: 2000,
  /** Characters of all the formulas of a comment rendered, in order. */
  commentChars: 6000,
  formulas: 200,
} as const;

/** Renders a formula; undefined when it cannot. */
export type TexRenderer = (tex: string, display: boolean) => string | undefined;

/** What `markdown.render(text, env)` passes the plugin: the formula renderer, if any. */
export interface TexEnv {
  readonly renderTex?: TexRenderer;
}

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

const isBlank = (code: number) => code === 0x20 || code === 0x09;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** Where the next `$` not escaped by a backslash is, from `from` on; -1 when there is none before `end`. */
function closingDollar(src: string, from: number, end: number): number {
  for (let at = src.indexOf('$', from); at !== -1 && at < end; at = src.indexOf('$', at + 1)) {
    let backslashes = 0;
    while (src.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * `$tex$`: the opening `$` is followed by neither a blank nor another `$`, the closing one is preceded by
 * no blank and followed by no digit, so that `$5 and $10` stays text. `$$` inline is text.
 */
function inlineTex(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== DOLLAR) return false;
  if (src.charCodeAt(pos + 1) === DOLLAR) {
    if (!silent) state.pending += '$$';
    state.pos += 2;
    return true;
  }
  if (pos + 1 >= posMax || isBlank(src.charCodeAt(pos + 1))) return false;
  const close = closingDollar(src, pos + 1, posMax);
  if (close === -1 || isBlank(src.charCodeAt(close - 1)) || isDigit(src.charCodeAt(close + 1))) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = '$';
    token.content = src.slice(pos + 1, close);
  }
  state.pos = close + 1;
  return true;
}

/**
 * A block that opens with `$$` at the start of a line and closes at the first line that ends with `$$`
 * (`$$ x $$` on one line too). Like a code fence, a block left open runs to the end of its container:
 * looking ahead for a closing line that is not there would cost each `$$` line the rest of the comment.
 */
function blockTex(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  const max = state.eMarks[startLine] ?? 0;
  // Four spaces more than the block's indent make indented code.
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  if (start + 2 > max || state.src.slice(start, start + 2) !== '$$') return false;
  if (silent) return true;

  const firstLine = state.src.slice(start + 2, max).trim();
  let content: string;
  let closed = firstLine.endsWith('$$');
  let next = startLine;
  if (closed) {
    content = firstLine.slice(0, -2);
  } else {
    let lastLine = '';
    while (!closed && ++next < endLine) {
      const lineStart = (state.bMarks[next] ?? 0) + (state.tShift[next] ?? 0);
      const lineEnd = state.eMarks[next] ?? 0;
      // A non-empty line indented less than the block (a list item's) ends the container, and the block.
      if (lineStart < lineEnd && (state.sCount[next] ?? 0) < state.blkIndent) break;
      const line = state.src.slice(lineStart, lineEnd).trimEnd();
      if (line.endsWith('$$')) {
        lastLine = line.slice(0, -2);
        closed = true;
      }
    }
    const lines = state.getLines(startLine + 1, next, state.tShift[startLine] ?? 0, true);
    content = ((firstLine ? `${firstLine}\n` : '') + lines + lastLine).replace(/\n$/, '');
  }

  state.line = closed ? next + 1 : next;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.markup = closed ? '$$' : '';
  token.map = [startLine, state.line];
  return true;
}

/** Marks each formula that the budget lets render (`meta.render`), in the order they appear. */
function spendTexBudget(state: StateCore): void {
  let chars = 0;
  let formulas = 0;
  const spend = (token: Token) => {
    const length = token.content.length;
    if (
      length <= texBudget.formulaChars &&
      chars + length <= texBudget.commentChars &&
      formulas < texBudget.formulas
    ) {
      chars += length;
      formulas++;
      token.meta = { render: true };
    }
  };
  for (const token of state.tokens) {
    if (token.type === 'math_block') spend(token);
    for (const child of token.children ?? []) if (child.type === 'math_inline') spend(child);
  }
}

/**
 * The markdown-it plugin: TeX rendered by the render's `env.renderTex` (TexEnv), within texBudget; past it,
 * without a renderer or when it fails, as the text written. The renderer comes with each render, not with
 * the plugin, so that the comment function loads KaTeX only for a comment that has a `$` (write-only-modules.ts).
 */
export function texPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.inline.ruler.after('escape', 'math_inline', inlineTex);
  md.block.ruler.after('blockquote', 'math_block', blockTex, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.core.ruler.push('math_budget', spendTexBudget);

  const rendered = (token: Token, env: TexEnv, display: boolean) =>
    token.meta?.render === true ? env.renderTex?.(token.content, display) : undefined;
  md.renderer.rules.math_inline = (tokens, idx, _options, env: TexEnv) => {
    const token = tokens[idx] as Token;
    return rendered(token, env, false) ?? escape(`$${token.content}$`);
  };
  md.renderer.rules.math_block = (tokens, idx, _options, env: TexEnv) => {
    const token = tokens[idx] as Token;
    return `${rendered(token, env, true) ?? `<p>${escape(`$$${token.content}${token.markup}`)}</p>`}\n`;
  };
}
