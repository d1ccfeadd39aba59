import type { Config } from '../../shared/config.js';
import { commentLink } from '../../shared/domain/rss-feed.js';

/** The settings that name and link the site in a notice (Waline's names). */
export type SiteSettings = Pick<Config, 'SITE_NAME' | 'SITE_URL'>;

/** Waline's `site` template variable. */
export interface SiteVariables {
  /** SITE_NAME, else SITE_URL's host, else `Marginalia`. */
  readonly name: string;
  /** SITE_URL, or empty. */
  readonly url: string;
  /**
   * The comment on its page: SITE_URL + url + '#' + id, as Waline (and the comment feeds) link it, a path
   * always on the site; empty without SITE_URL.
   */
  readonly postUrl: string;
}

/** The `site` variable of a notice about the comment `comment` (none for a test). */
export function siteVariables(
  site: SiteSettings,
  comment?: { readonly url: string; readonly id: string },
): SiteVariables {
  const url = site.SITE_URL ?? '';
  const name = site.SITE_NAME ?? (url ? new URL(url).host : 'Marginalia');
  return { name, url, postUrl: comment ? (commentLink(site.SITE_URL, comment.url, comment.id) ?? '') : url };
}
