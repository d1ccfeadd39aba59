/** The deploy settings that name the site: either is enough; `allowedOrigins` wins when both are given. */
export interface SiteSettings {
  /** `-c allowedOrigins=` (or Waline's `-c SECURE_DOMAINS=`): the origins whose pages embed the widget. */
  readonly allowedOrigins?: readonly string[];
  /** `-c siteUrl=`: the site's address; its origin is the one allowed when `allowedOrigins` is unset. */
  readonly siteUrl?: string;
}

const exampleFix =
  '-c siteUrl=https://blog.example (or -c allowedOrigins=https://blog.example,https://www.blog.example)';

/**
 * The origins a deployed stack accepts writes and CORS from: `allowedOrigins`, else the origin of
 * `siteUrl`. A stack without either, or with `*`, would let any web page make its visitors' browsers post
 * comments, replies (and so mail) and votes through the API, where the per-IP limit binds nobody: it is
 * refused with the one line that fixes it.
 */
export function siteOrigins(settings: SiteSettings): string[] {
  const { allowedOrigins, siteUrl } = settings;
  if (allowedOrigins !== undefined && allowedOrigins.length > 0) {
    if (allowedOrigins.includes('*')) {
      throw new Error(
        "allowedOrigins: * lets any web page post comments through its visitors' browsers; name your site instead: " +
          exampleFix,
      );
    }
    const bad = allowedOrigins.find((origin) => !/^https?:\/\/[^/\s*]+$/.test(origin));
    if (bad !== undefined) {
      throw new Error(
        `allowedOrigins: "${bad}" is not an origin like https://blog.example (no path, no wildcard)`,
      );
    }
    return [...allowedOrigins];
  }
  if (siteUrl !== undefined) {
    const url = URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
    if (!url || !/^https?:$/.test(url.protocol)) {
      throw new Error(`siteUrl: "${siteUrl}" is not an http or https URL like https://blog.example`);
    }
    return [url.origin];
  }
  throw new Error(
    'The stack needs your site, so that only its pages can post comments through the API: ' +
      `deploy with ${exampleFix}. Waline's SECURE_DOMAINS is accepted too (-c SECURE_DOMAINS=blog.example).`,
  );
}
