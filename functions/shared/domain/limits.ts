/** Size bounds on everything a visitor sends; each keeps a comment inside one DynamoDB item. */
export const limits = {
  /** A request body. The widget inlines pasted images as data URLs of up to 128 kB. */
  bodyBytes: 256 * 1024,
  /**
   * The raw comment text a visitor may send: 64 KiB of characters, far beyond any comment people write,
   * and small enough that a page of them fits in one answer. Imports keep longer texts whole.
   */
  commentChars: 64 * 1024,
  /** Raw text plus rendered HTML: DynamoDB items stop at 400 KB, the rest of the item is small. */
  storedCommentBytes: 380 * 1024,
  nickChars: 100,
  mailChars: 254,
  linkChars: 1024,
  /** A page path, in characters and in UTF-8 bytes; DynamoDB partition keys stop at 2048 bytes. */
  urlChars: 1024,
  urlBytes: 1536,
  userAgentChars: 1024,
  /**
   * An administrator's password, in UTF-16 code units as `String.length` counts them: the shortest one
   * `npm run admin` and the profile page accept, and the longest sign-in reads.
   */
  passwordMinChars: 12,
  passwordMaxChars: 1024,
  /** A captcha token (`turnstile`, `recaptchaV3`): Turnstile's stop at 2,048 characters, reCAPTCHA's are shorter. */
  captchaTokenChars: 4096,
  /** Comment ids: ULIDs, or ids carried over by an import. */
  idChars: 64,
  /** Paths in one count or reading-count request. */
  pathsPerRequest: 100,
  pageSizeMax: 100,
  /** Replies of one thread shown in a list; a longer thread is marked `moreReplies`. */
  repliesPerThread: 200,
  /**
   * Characters of text and HTML a list reads before it stops following further pages of its threads:
   * past this, the answer could not carry more anyway.
   */
  listReadChars: 4 * 1024 * 1024,
  /**
   * Replies the first read of a page's threads brings back, shared equally between the threads (at
   * least one each, besides its root): what one list request reads at once is bounded by this.
   */
  listFirstReadReplies: 100,
  /**
   * Thread reads a page sends at once before it has read any comment to judge the others by (a page
   * sorted by likes): the widget's default page size, so that a default page is still one round trip.
   */
  listFirstWaveReads: 10,
  /** Root keys before a page past which the page's counters are read first, to skip a page past the end. */
  listDeepPageKeys: 1000,
  recentCountMax: 50,
  /**
   * Bytes of stored comments whose texts one recent list, site feed or moderation page reads from the
   * table, each comment counted as DynamoDB counts a read (its texts and card, rounded up to 4 KB): at most
   * 32 read units, whatever is stored. Fifty common comments take a fifth of it; a comment of the largest
   * texts (380 KB) does not fit, and is shown without its text (`textOmitted`).
   */
  textReadBytes: 256 * 1024,
  /** Items of a comment feed (`GET /api/comment/rss`): `count` goes up to this. */
  feedItemsMax: 50,
  /**
   * Visible comment items of a page that its feed reads (one Query, newest threads first, which also
   * stops at 1 MB): the newest comments of the page are among them unless the page holds more.
   */
  pageFeedReadItems: 100,
} as const;
