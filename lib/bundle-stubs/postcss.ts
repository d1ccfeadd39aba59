/**
 * Stands in for `postcss` in the Lambda bundles. sanitize-html calls postcss only to filter `style` attributes,
 * and only when `parseStyleAttributes` is on; our allow-list turns it off and allows no `style` attribute, so
 * the real postcss (with source-map-js, about 90 KB minified) is never called. Should that change, this throws,
 * and sanitize-html drops the attribute it could not parse: it fails closed.
 */

/** Refuses to parse: see the module comment. */
export function parse(): never {
  throw new Error('postcss is not bundled: sanitize-html must run with parseStyleAttributes: false');
}
