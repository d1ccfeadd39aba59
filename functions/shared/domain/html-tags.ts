/**
 * The HTML tags a comment keeps, in the groups its three readers share: the markdown renderer
 * (render-markdown.ts), the mail (functions/notify/templates/mail-safe-html.ts) and the plain text of a
 * mail or a Telegram message (functions/notify/templates/html-to-text.ts). Each derives its own list from
 * these, so a tag added here reaches every one of them.
 */

/** Headings, `h1` to `h6`. */
export const headingTags: readonly string[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** The parts of a table markdown writes (no `tfoot`, no `caption`). */
export const tableTags: readonly string[] = ['table', 'thead', 'tbody', 'tr', 'th', 'td'];

/**
 * The blocks a comment keeps wherever it is shown, each one starting and ending a line: paragraphs, rules,
 * headings, quotes, lists, code blocks and tables.
 */
export const commentBlockTags: readonly string[] = [
  'p',
  'hr',
  ...headingTags,
  'blockquote',
  'ul',
  'ol',
  'li',
  'pre',
  ...tableTags,
];

/** The inline markup a comment keeps wherever it is shown as HTML: line breaks, emphasis, inline code. */
export const commentInlineTags: readonly string[] = ['br', 'strong', 'em', 'del', 's', 'sub', 'sup', 'code'];

/**
 * What the markdown renderer keeps before its features add theirs (`span` for highlighting, MathML for
 * TeX): the comment's blocks and inline markup, highlights (`mark`), disclosures, links and images.
 */
export const markdownTags: readonly string[] = [
  ...commentBlockTags,
  ...commentInlineTags,
  'mark',
  'details',
  'summary',
  'a',
  'img',
];
