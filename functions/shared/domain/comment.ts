import type { HeldReason } from './held-reason.js';
import type { Lang } from './messages.js';

/** Moderation states of a comment; only `approved` ones are public. */
export type CommentStatus = 'approved' | 'waiting' | 'spam';

/** A comment as the table holds it (mail, ua and ipHash are private). */
export interface StoredComment {
  /** A ULID: sorts by insertion time. */
  readonly id: string;
  readonly url: string;
  /** The comment this one answers; absent on roots. */
  readonly pid?: string;
  /** The root of the thread; absent on roots. */
  readonly rid?: string;
  readonly nick: string;
  readonly mail: string;
  readonly link: string;
  readonly ua: string;
  readonly ipHash: string;
  /** Parsed from `ua` on write, in Waline's format. */
  readonly browser: string;
  readonly os: string;
  /** The raw text as typed. */
  readonly orig: string;
  /** `orig` rendered and sanitised, once, on write. */
  readonly html: string;
  readonly status: CommentStatus;
  readonly like: number;
  readonly sticky: boolean;
  /** Epoch milliseconds. */
  readonly insertedAt: number;
  /**
   * The coarse region its writer's IP was in when it was written (Waline's `addr`: a country's name), from the
   * offline IP database (shared/region/); absent when DISABLE_REGION is set, the IP is in none, or it predates
   * regions. The IP itself is never stored.
   */
  readonly addr?: string;
  /** `administrator` when written by a signed-in administrator (Waline's user `type`); absent otherwise. */
  readonly type?: 'administrator';
  /**
   * The id of the account that wrote it while signed in (Waline's `user_id`, a string); absent on anonymous
   * comments and on an author's deleted placeholder. Reads overlay that account's current profile.
   */
  readonly userId?: string;
  /** The writer's language as the widget sent it: mail about this comment's replies is written in it. */
  readonly lang?: Lang;
  /**
   * Why it was held or marked spam when submitted (kept after an approval, as history); absent when it was
   * approved at once, and on comments stored before it. Administrators only: never in a public answer.
   */
  readonly heldBecause?: HeldReason;
}

/**
 * What list, recent and moderation read back: no user agent; the IP hash only for administrators;
 * `textLeftOut` when a list read the comment without its texts (`orig` and `html` are then empty).
 */
export type ListedComment = Omit<StoredComment, 'ua' | 'ipHash'> & {
  readonly ipHash?: string;
  readonly textLeftOut?: true;
};

/** True when `comment` starts a thread. */
export function isRoot(comment: Pick<StoredComment, 'rid'>): boolean {
  return comment.rid === undefined;
}

/** Orders comments newest first: their ids are ULIDs, which sort by insertion time. */
export function newestFirstById(a: Pick<StoredComment, 'id'>, b: Pick<StoredComment, 'id'>): number {
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
