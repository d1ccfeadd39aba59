import type { CommentStatus } from '../shared/domain/comment.js';
import type { HeldReason } from '../shared/domain/held-reason.js';
import type { Lang } from '../shared/domain/messages.js';
import type { RecipientKind } from '../shared/table/keys.js';

/**
 * The seam between who is told (rules.ts, process-event.ts) and how (channels/): one notice is one
 * (event, recipient), rendered and sent by the channel of its recipient kind.
 */

/** Which message a notice is. */
export type NoticeTemplate =
  /** To the owner: a new approved comment. */
  | 'owner-new'
  /** To the owner: a comment waiting for approval, with approve / spam / delete links. */
  | 'owner-waiting'
  /** To a parent's author: an approved reply to their comment. */
  | 'reply'
  /** To the owner: the test mail sent from /ui. */
  | 'test'
  /**
   * To a parent's author whose address never confirmed (REPLY_MAIL=confirmed), in place of their first
   * reply notice: the site and a link to receive reply notices, nothing of the replier's.
   */
  | 'confirm';

/** A comment as a notice shows it: never its mail, IP hash or user agent. */
export interface NoticeComment {
  readonly id: string;
  readonly url: string;
  readonly nick: string;
  readonly link: string;
  /** The sanitised HTML stored with it. */
  readonly html: string;
  /** The text as typed. */
  readonly orig: string;
  readonly status: CommentStatus;
  readonly insertedAt: number;
  readonly rid?: string;
  readonly pid?: string;
  /** Why it was held or marked spam when submitted (held-reason.ts): the owner's waiting mail says it. */
  readonly heldBecause?: HeldReason;
}

/** One notice to send. */
export interface Notice {
  /** The outbox event's id: stable across retries (the webhook's `webhook-id`). */
  readonly eventId: string;
  readonly recipient: RecipientKind;
  readonly template: NoticeTemplate;
  /** The recipient's language. */
  readonly lang: Lang;
  /** The address, for mail recipients (`owner`, `parent`); only ever the envelope's one recipient. */
  readonly to?: string;
  /** The comment the notice is about (absent for a test). */
  readonly self?: NoticeComment;
  /** The comment `self` answers (replies). */
  readonly parent?: NoticeComment;
}

/** Sends one notice; throws when the channel refused it or could not be reached (the error is kept). */
export type SendNotice = (notice: Notice) => Promise<void>;

/** The configured channel of each recipient kind; a kind without one is not told. */
export type Channels = Partial<Record<RecipientKind, SendNotice>>;
