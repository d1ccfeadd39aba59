import { commentBlockTags } from '../../shared/domain/html-tags.js';
import { linksAsText, normalizeHtml } from './mail-safe-html.js';

/**
 * HTML as plain text: the text part of a mail (from its HTML part, so a custom template needs no second
 * copy) and a comment in a Telegram message. Blocks become lines, list items `- ` lines, links their text
 * and URL; no markup and no entity is left.
 */

/**
 * Elements that start and end a line: the blocks a comment keeps (html-tags.ts), and HTML's other blocks,
 * which a mail template may hold.
 */
export const lineTags: ReadonlySet<string> = new Set([
  ...commentBlockTags,
  'address',
  'article',
  'aside',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'header',
  'main',
  'section',
  'tfoot',
]);

const tokenPattern = /<(\/?)([a-z][a-z0-9]*)[^>]*>|[^<]+/g;

const entities: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/** The text of `html`. */
export function htmlToText(html: string): string {
  // Any other element (an inline one: `em`, `code`, `span`...) is dropped by the normalisation, its text kept.
  const normalized = linksAsText(normalizeHtml(html, [...lineTags, 'br']));
  let text = '';
  let preDepth = 0;
  // A line break drops the spaces before it; text outside <pre> drops those after one, as a browser does.
  const breakLine = (then = '') => {
    text = `${text.replace(/ +$/, '')}\n${then}`;
  };
  for (const [token, closing, name] of normalized.matchAll(tokenPattern)) {
    if (name === undefined) {
      const decoded = token.replace(/&(?:amp|lt|gt|quot);/g, (entity) => entities[entity] ?? entity);
      if (preDepth > 0) text += decoded;
      else
        text += /(^|\n)$/.test(text)
          ? decoded.replace(/\s+/g, ' ').trimStart()
          : decoded.replace(/\s+/g, ' ');
    } else if (name === 'br') {
      breakLine();
    } else if (name === 'pre') {
      preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
      breakLine();
    } else if (name === 'li') {
      if (!closing) breakLine('- ');
    } else if (name === 'hr') {
      breakLine('---');
      breakLine();
    } else if (name === 'td' || name === 'th') {
      if (closing) text += ' ';
    } else if (lineTags.has(name)) {
      breakLine();
    }
  }
  return text
    .replace(/ +\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
