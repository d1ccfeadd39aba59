/**
 * Stands in for `dayjs` in the Lambda bundles. sanitize-html uses only `naughtyHref` from `launder`, and
 * launder needs dayjs only for its date and time launderers (about 7 KB minified). Should one be called,
 * it fails loudly rather than format a date wrong.
 */

/** Refuses: see the module comment. */
export default function dayjs(): never {
  throw new Error('dayjs is not bundled: only launder.naughtyHref is used');
}
