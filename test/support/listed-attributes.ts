/**
 * What a list reads back of each comment, written out (not imported from comment-item.ts) so that a test
 * pins it: everything a list may show, never the user agent.
 */
export const listedAttributeNames = [
  // The card, as the card indexes copy it...
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
  'type',
  'status',
  'like',
  'sticky',
  'insertedAt',
  'textBytes',
  // ...and the texts and the author's account id, which only the table holds.
  'orig',
  'html',
  'userId',
  // ...and the region (`addr`), which the card indexes do not copy either.
  'addr',
] as const;
