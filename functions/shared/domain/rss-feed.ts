import { type AnswerBudget, createAnswerBudget } from './answer-budget.js';
import type { ListedComment } from './comment.js';
import { type Lang, translate } from './messages.js';

/**
 * Characters XML 1.0 allows nowhere, not even escaped (C0 controls but tab, newline and carriage
 * return; lone surrogates; U+FFFE and U+FFFF): a parser stops at the first one, so they are removed.
 */
const illegalInXml = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** `text` as XML character data or as an attribute value: legal characters only, markup escaped. */
export function xmlText(text: string): string {
  return text.replace(illegalInXml, '').replace(/[&<>"']/g, (character) => escapes[character] ?? '');
}

/** `html` as CDATA (a feed's description holds HTML as text): a `]]>` inside is split across two sections. */
export function xmlCdata(html: string): string {
  return `<![CDATA[${html.replace(illegalInXml, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

const namedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** The entities the sanitiser writes (`&amp;`, `&lt;`, `&#39;`...) as characters; others stay as they are. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith('#')) return namedEntities[name.toLowerCase()] ?? whole;
    const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Characters of a comment's text an item's title shows. */
const excerptChars = 80;

/** The start of a comment's text, from its sanitised HTML: tags dropped, whitespace collapsed, at most 80 characters. */
export function excerpt(html: string): string {
  const text = decodeEntities(
    html
      // The end of a block or a line break parts words; any other tag is dropped in place.
      .replace(/<\/(?:p|div|li|h[1-6]|blockquote|pre|tr|td|th)>|<br\s*\/?>/gi, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(illegalInXml, '')
    .replace(/\s+/g, ' ')
    .trim();
  // By code point, so an emoji is never cut in half.
  const characters = [...text];
  return characters.length <= excerptChars
    ? text
    : `${characters
        .slice(0, excerptChars - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The address of a page of the site: `siteUrl` + `path`, as Waline's notifications link a comment, or
 * undefined without a site address. A path that does not start with `/` gets one, so a page's address
 * never leaves the site (a stored url of `https://elsewhere.example` is a path on the site); characters
 * an address cannot hold are percent-encoded.
 */
export function pageLink(siteUrl: string | undefined, path: string): string | undefined {
  if (siteUrl === undefined) return undefined;
  try {
    return new URL(`${siteUrl.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`).href;
  } catch {
    // Only a site address that is no address (SITE_URL is checked at start) gives none.
    return undefined;
  }
}

/** The address of comment `id` on its page: the page's address and `#<id>` (the widget's anchor of it). */
export function commentLink(siteUrl: string | undefined, path: string, id: string): string | undefined {
  const page = pageLink(siteUrl, path);
  if (page === undefined) return undefined;
  const link = new URL(page);
  link.hash = id;
  return link.href;
}

/**
 * What a feed shows of a comment: never its mail, IP hash or user agent. `textLeftOut`: read without its
 * text (the site feed reads texts within a budget of bytes), so it shows the note.
 */
export type FeedComment = Pick<ListedComment, 'id' | 'url' | 'nick' | 'html' | 'insertedAt' | 'textLeftOut'>;

/** What a comment feed is made of. */
export interface CommentFeedInput {
  /** The comments, newest first. */
  readonly comments: readonly FeedComment[];
  readonly lang: Lang;
  /** SITE_URL: without it, items have no link and their guid is the comment id. */
  readonly siteUrl: string | undefined;
  /** The site's name in titles: SITE_NAME, or a host. */
  readonly siteName: string;
  /** The page, for a page's feed; none for the site's. */
  readonly path?: string;
  /** The account, for the feed of one user's comments (`user_id`); none for the site's or a page's. */
  readonly userId?: string;
  /** The channel's link without SITE_URL: this server's own address. */
  readonly serverUrl: string;
  /** The feed's own address (its `atom:link rel="self"`). */
  readonly self: string;
  /** The answer's budget; 4 MiB of Lambda result by default. */
  readonly budget?: AnswerBudget;
}

/** A comment's date as RSS writes it (RFC 822, with a four-digit year). */
const rfc822 = (time: number) => new Date(time).toUTCString();

/** One `<item>` of `comment`, with `description` (HTML) as its text. */
function renderItem(comment: FeedComment, input: CommentFeedInput, description: string): string {
  const nick = comment.nick.trim() || translate(input.lang, 'feedAnonymous');
  const start = excerpt(comment.html);
  const title = start ? `${nick}: ${start}` : translate(input.lang, 'feedItemTitle', { nick });
  const link = commentLink(input.siteUrl, comment.url, comment.id);
  return [
    '<item>',
    `<title>${xmlText(title)}</title>`,
    ...(link ? [`<link>${xmlText(link)}</link>`] : []),
    link
      ? `<guid isPermaLink="true">${xmlText(link)}</guid>`
      : `<guid isPermaLink="false">${xmlText(comment.id)}</guid>`,
    // The author's name as Dublin Core has it: RSS's own <author> is a mail address, which no feed shows.
    `<dc:creator>${xmlText(nick)}</dc:creator>`,
    `<pubDate>${rfc822(comment.insertedAt)}</pubDate>`,
    `<description>${xmlCdata(description)}</description>`,
    '</item>',
  ].join('\n');
}

/**
 * A comment feed as an RSS 2.0 document. Every item is in it, whole while the budget allows and with a
 * short note for its text past that (as list answers omit texts: bounded-comments.ts), so the document
 * stays within one answer whatever the comments hold. Nothing in it depends on the time it is made:
 * the same comments give the same bytes, so its hash tells a feed reader whether anything changed.
 */
export function renderCommentFeed(input: CommentFeedInput): string {
  const { comments, lang, path, siteName } = input;
  const budget = input.budget ?? createAnswerBudget();
  const newest = comments[0];
  const head = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${xmlText(
      input.userId !== undefined
        ? translate(lang, 'feedUserTitle', { site: siteName, id: input.userId })
        : path === undefined
          ? translate(lang, 'feedSiteTitle', { site: siteName })
          : translate(lang, 'feedPageTitle', { site: siteName, path }),
    )}</title>`,
    `<link>${xmlText((path === undefined ? input.siteUrl : pageLink(input.siteUrl, path)) ?? input.serverUrl)}</link>`,
    `<description>${xmlText(
      input.userId !== undefined
        ? translate(lang, 'feedUserDescription', { id: input.userId })
        : path === undefined
          ? translate(lang, 'feedSiteDescription', { site: siteName })
          : translate(lang, 'feedPageDescription', { path }),
    )}</description>`,
    `<atom:link href="${xmlText(input.self)}" rel="self" type="application/rss+xml"/>`,
    '<generator>Marginalia</generator>',
    '<docs>https://www.rssboard.org/rss-specification</docs>',
    ...(newest ? [`<lastBuildDate>${rfc822(newest.insertedAt)}</lastBuildDate>`] : []),
  ].join('\n');
  const tail = '</channel>\n</rss>\n';
  budget.force(head + tail);
  // The shells first, so that the texts never crowd an item out.
  const note = `<p><em>${translate(lang, 'textOmitted')}</em></p>`;
  const shells = comments.map((comment) => renderItem(comment, input, note));
  for (const shell of shells) budget.force(shell);
  const items = comments.map((comment, index) =>
    !comment.textLeftOut && budget.take(comment.html)
      ? renderItem(comment, input, comment.html)
      : (shells[index] as string),
  );
  return `${[head, ...items].join('\n')}\n${tail}`;
}
