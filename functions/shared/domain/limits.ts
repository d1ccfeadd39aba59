/** Size bounds on everything a visitor sends; each keeps a comment inside one DynamoDB item. */
export const limits = {
  /** A request body. The widget inlines pasted images as data URLs of up to 128 kB. */
  bodyBytes: 256 * 1024,
  /** The raw comment text. */
  commentChars: 200_000,
  /** Raw text plus rendered HTML: DynamoDB items stop at 400 KB, the rest of the item is small. */
  storedCommentBytes: 380 * 1024,
  nickChars: 100,
  mailChars: 254,
  linkChars: 1024,
  /** A page path, in characters and in UTF-8 bytes; DynamoDB partition keys stop at 2048 bytes. */
  urlChars: 1024,
  urlBytes: 1536,
  userAgentChars: 1024,
  /** Comment ids: ULIDs, or ids carried over by an import. */
  idChars: 64,
  /** Paths in one count or reading-count request. */
  pathsPerRequest: 100,
  pageSizeMax: 100,
  recentCountMax: 50,
} as const;
