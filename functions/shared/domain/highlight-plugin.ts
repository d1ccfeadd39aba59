/**
 * The markdown-it side of code highlighting, without Prism: which fences are highlighted (a budget per
 * comment), and the fence rule that asks the highlighter the render was handed (`env.highlighter`:
 * highlight-code.ts, loaded only for a comment with a fence). Without one, every fence is plain code.
 */
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/** What the plugin asks of Prism. */
export interface CodeHighlighter {
  /** Whether `language` (a fence's first word, any case) has a registered grammar. */
  readonly knows: (language: string) => boolean;
  /** `code` as Prism's HTML for `language`; undefined for a language it does not know. */
  readonly highlight: (code: string, language: string) => string | undefined;
}

/**
 * How much code one comment may have highlighted. Prism's grammars slow down faster than the code grows
 * (up to ~70 ms for 4 KiB of hostile code here, seconds for 16 KiB), and most on long runs of
 * non-blank characters: a block past the budget, or with such a run, is shown as plain code.
 */
export const highlightBudget = {
  /** Characters of all the highlighted blocks of a comment, in order. */
  commentChars: 4096,
  /** Non-blank characters in a row. */
  runChars: 128,
} as const;

/** The highlighter a render was handed, if any. */
const highlighterOf = (env: unknown): CodeHighlighter | undefined =>
  (env as { highlighter?: CodeHighlighter } | undefined)?.highlighter;

/** The language a fence names, as markdown-it reads it: its info string's first word. */
const fenceLanguage = (md: MarkdownIt, token: Token) =>
  md.utils.unescapeAll(token.info).trim().split(/\s+/)[0] ?? '';

/** The markdown-it plugin: fenced code of a known language highlighted, within highlightBudget. */
export function highlightPlugin(md: MarkdownIt): void {
  const longRun = new RegExp(`\\S{${highlightBudget.runChars + 1}}`);
  md.core.ruler.push('highlight_budget', (state) => {
    const highlighter = highlighterOf(state.env);
    if (highlighter === undefined) return;
    let left = highlightBudget.commentChars;
    for (const token of state.tokens) {
      if (token.type !== 'fence' || !highlighter.knows(fenceLanguage(md, token))) continue;
      if (token.content.length <= left && !longRun.test(token.content)) {
        left -= token.content.length;
        token.meta = { highlight: true };
      }
    }
  });

  const plain = { ...md.options, highlight: null };
  const fence = md.renderer.rules.fence;
  if (fence === undefined) throw new Error('markdown-it has no fence rule to wrap');
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const highlighter = highlighterOf(env);
    if (tokens[idx]?.meta?.highlight !== true || highlighter === undefined) {
      return fence(tokens, idx, plain, env, self);
    }
    const highlight = (code: string, language: string) => highlighter.highlight(code, language) ?? '';
    return fence(tokens, idx, { ...options, highlight }, env, self);
  };
}
