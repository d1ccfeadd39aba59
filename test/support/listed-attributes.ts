/**
 * What a list reads back of each comment, written out (not imported from comment-item.ts) so that a test
 * pins it: everything a list may show, never the user agent.
 */
export const listedAttributeNames = [
  'commentId',
  'url',
  'pid',
  'rid',
  'nick',
  'mail',
  'ipHash',
  'link',
  'browser',
  'os',
  'orig',
  'html',
  'status',
  'like',
  'sticky',
  'insertedAt',
  // Read from the base table only: the recent index does not copy it.
  'type',
] as const;
