import sanitizeHtml from 'sanitize-html';
import { commentBlockTags, commentInlineTags } from '../../shared/domain/html-tags.js';

/**
 * A comment's stored HTML as a mail shows it. The stored HTML is already sanitised for the page, but a
 * mail arrives from the site's own address, which mail filters trust: there an image is a tracking pixel
 * and a link's text can claim any address (phishing). So images go, every link becomes its text followed
 * by its URL in plain sight, and no attribute is kept.
 */

/**
 * The structure a comment may keep in a mail: text formatting only. From the markdown renderer's tags
 * (html-tags.ts) it drops `img` (a tracking pixel), `a` (normalizeHtml adds it back, and linksAsText turns
 * it into text), `mark`, `details` and `summary` (their text stays); it adds `b` and `i`, and `span`
 * without its classes, which imported comments and highlighted code hold.
 */
export const mailTags: readonly string[] = [...commentBlockTags, ...commentInlineTags, 'b', 'i', 'span'];

/** Elements whose text is no content: a formula's TeX source is a second copy of it; the rest never shows. */
const nonTextTags = [
  'annotation',
  'annotation-xml',
  'script',
  'style',
  'textarea',
  'noscript',
  'xmp',
  'title',
  'head',
];

/**
 * `html` through sanitize-html with only `tags` (and `a` with its `href`), so that what follows can read it
 * as the regular language sanitize-html writes: every `<` of text escaped, every attribute value double
 * quoted with `"`, `<` and `>` escaped.
 */
export function normalizeHtml(html: string, tags: readonly string[]): string {
  return sanitizeHtml(html, {
    allowedTags: [...tags, 'a'],
    allowedAttributes: { a: ['href'], ol: ['start'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    disallowedTagsMode: 'discard',
    nonTextTags,
    parseStyleAttributes: false,
    exclusiveFilter: (frame) => frame.tag === 'img',
  });
}

const linkPattern = /<a(?: href="([^"]*)")?>([\s\S]*?)<\/a>/g;
const tagPattern = /<[^>]*>/g;

/**
 * Every link of normalised HTML (normalizeHtml) as its text, then its URL in parentheses unless the text
 * is the URL already; a link with no usable URL keeps its text only. Any `a` tag left over (links do not
 * nest, but markup may try) is dropped, so no live link remains.
 */
export function linksAsText(normalized: string): string {
  return normalized
    .replace(linkPattern, (_match, href: string | undefined, inner: string) => {
      if (!href) return inner;
      const innerText = inner.replace(tagPattern, '').trim();
      return innerText === href ? inner : `${inner} (${href})`;
    })
    .replace(/<\/?a\b[^>]*>/g, '');
}

/** A comment's stored HTML, reduced for a mail: text formatting, links as text and URL, no image. */
export function mailSafeHtml(html: string): string {
  return linksAsText(normalizeHtml(html, mailTags));
}
