import { limits } from './limits.js';

/**
 * True when a comment's raw text `orig` and its rendered `html` fit in one DynamoDB item beside the
 * rest of the comment: their UTF-8 bytes together within `limits.storedCommentBytes`. Checked after
 * rendering (the HTML may be several times the text), before anything is written, so an oversized
 * comment is refused (a 413, or skipped by an import) rather than failing in DynamoDB.
 */
export function fitsInOneItem(orig: string, html: string): boolean {
  return Buffer.byteLength(orig) + Buffer.byteLength(html) <= limits.storedCommentBytes;
}
