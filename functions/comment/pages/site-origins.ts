import { embedJson } from './page-shell.js';

/** What a page needs to decide which sites it may hand a sign-in, or a changed profile, to. */
export interface SiteSettings {
  /** ALLOWED_ORIGINS: `*`, or the sites that embed the widget. */
  readonly allowedOrigins: readonly string[];
  /** SITE_URL, if set. */
  readonly siteUrl?: string;
}

/** The element a page embeds its settings in, for {@link siteOriginsScript} to read. */
export function siteSettingsElement(settings: SiteSettings): string {
  return `<script type="application/json" id="settings">${embedJson(settings)}</script>`;
}

/**
 * Browser code the sign-in and profile pages start with. It reads the embedded settings and defines
 * `originOf(url)`, `configuredOrigins` (the ALLOWED_ORIGINS entries but `*`, SITE_URL's origin and this
 * server's own) and `configured(origin)`: the only origins a page posts a token to.
 */
export const siteOriginsScript = String.raw`
const settings = JSON.parse(document.getElementById('settings').textContent);
const originOf = (url) => { try { return new URL(url).origin; } catch { return undefined; } };
const configuredOrigins = [...new Set([
  ...settings.allowedOrigins.filter((origin) => origin !== '*'),
  originOf(settings.siteUrl || ''),
  location.origin,
].filter(Boolean))];
const configured = (origin) => Boolean(origin) && configuredOrigins.includes(origin);
`;
