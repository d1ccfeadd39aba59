import type { Lang } from '../../shared/domain/messages.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { escapeHtml, htmlPage } from './page-shell.js';

const style = `
  .choices { display: grid; gap: 1rem; margin: 1.5rem 0; }
  .choice { border: 1px solid #8884; border-radius: .5rem; padding: .75rem 1rem; }
  .choice p { margin: .25rem 0 .75rem; }
  .comment { border-left: 3px solid #8886; padding: .25rem 1rem; margin: 1rem 0; overflow-wrap: anywhere; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

/**
 * A page of a link in a mail (unsubscribe, moderate): the page shell's policy (its own nonce only, framed
 * by no site, no Referer, never cached) with no script at all, no image from another site (a comment's
 * image would tell its author when and from where the owner opened the link), plain forms that post back
 * to this address, `status` as the answer's, and kept out of search engines.
 */
export function linkPage(page: { status: number; lang: Lang; title: string; body: string }): HttpResult {
  const result = htmlPage({
    title: page.title,
    style,
    body: `<main lang="${page.lang}">\n<h1>${escapeHtml(page.title)}</h1>\n${page.body}\n</main>`,
    script: '',
    remoteImages: false,
  });
  return { ...result, statusCode: page.status, headers: { ...result.headers, 'x-robots-tag': 'noindex' } };
}

/**
 * A form that POSTs to this route's address with `query` (the link's token, and what to do): one button,
 * no fields, so the body is empty and only the address says what to do.
 */
export function postButton(query: Record<string, string>, label: string, className = ''): string {
  const action = `?${new URLSearchParams(query).toString()}`;
  const buttonClass = className ? ` class="${escapeHtml(className)}"` : '';
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit"${buttonClass}>${escapeHtml(label)}</button></form>`;
}

/** A paragraph of text (escaped). */
export const paragraph = (text: string, className = ''): string =>
  `<p${className ? ` class="${escapeHtml(className)}"` : ''}>${escapeHtml(text)}</p>`;

/** The name a page gives the site: `SITE_NAME`, else the host of `SITE_URL`, else undefined. */
export function siteLabel(site: { readonly name?: string; readonly url?: string }): string | undefined {
  if (site.name) return site.name;
  if (!site.url) return undefined;
  try {
    return new URL(site.url).host;
  } catch {
    return undefined;
  }
}

const invalidLinkText = {
  en: {
    title: 'This link does not work',
    text: 'The link is not valid, or it has expired. Nothing was changed.',
  },
  'zh-CN': { title: '链接无效', text: '此链接无效或已过期，未做任何更改。' },
} as const satisfies Record<Lang, { title: string; text: string }>;

/**
 * The 400 page of a link whose token is not one (forged, expired, cut short, or for another use): it says
 * so and nothing more, as no detail of a token we did not accept is worth showing.
 */
export function invalidLinkPage(lang: Lang): HttpResult {
  const text = invalidLinkText[lang];
  return linkPage({ status: 400, lang, title: text.title, body: paragraph(text.text) });
}

/** What a page of a mail link shows: the language, the site's name, and the query its buttons post back with. */
export interface LinkPageContext {
  readonly lang: Lang;
  readonly site: string | undefined;
  /** The query a button posts back with: the token (and the language). */
  readonly query: Record<string, string>;
}

/** Text `key` of `texts` in the page's language, with the site's name (else the texts' word for it) for `{site}`. */
export function siteText<Key extends string>(
  texts: Readonly<Record<Lang, Readonly<Record<Key | 'site', string>>>>,
  context: LinkPageContext,
  key: Key,
): string {
  const table = texts[context.lang];
  return table[key].replaceAll('{site}', context.site ?? table.site);
}

/** {@link siteText} bound to one page's `texts`: what the page calls to say each of them. */
export function textsOf<Key extends string>(
  texts: Readonly<Record<Lang, Readonly<Record<Key | 'site', string>>>>,
): (context: LinkPageContext, key: Key) => string {
  return (context, key) => siteText(texts, context, key);
}

/** A link's page that says what the link does (`intro`) and offers the one button (`button`) that does it. */
export function offerPage(
  context: LinkPageContext,
  title: string,
  intro: string,
  button: string,
): HttpResult {
  return linkPage({
    status: 200,
    lang: context.lang,
    title,
    body: `${paragraph(intro)}\n<div class="choices">${postButton(context.query, button)}</div>`,
  });
}
