/**
 * What is left of a comment its author deleted while others had answered it: a placeholder that keeps its place
 * (and its replies) in the thread, with this fixed text in place of the author's, and no name, address, link,
 * account or user agent. It keeps its status, so the counters do not move.
 */
export const deletedPlaceholder = {
  /** The text shown in place of the comment's (the same in every language: it is stored once). */
  orig: '[deleted]',
  html: '<p>[deleted]</p>',
  nick: '',
  mail: '',
  link: '',
  browser: '',
  os: '',
  ua: '',
} as const;
