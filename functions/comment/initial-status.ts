import type { Config } from '../shared/config.js';
import type { CommentStatus } from '../shared/domain/comment.js';
import type { HeldReason } from '../shared/domain/held-reason.js';
import type { SpamCheck, SpamCheckInput } from '../shared/spam/akismet.js';
import { fieldWithWord } from '../shared/spam/field-rules.js';

/** What a new comment is submitted with, besides what Akismet reads. */
export interface StatusInput extends SpamCheckInput {
  readonly byAdmin: boolean;
  /** A captcha was required and its provider could not be reached (captcha check, submit-comment.ts). */
  readonly captchaUnreachable?: boolean;
  /** An administrator approved a comment from this address before (its trust mark, submit-marks.ts). */
  readonly trusted?: boolean;
}

/** The status a new comment starts with, and why it is held or spam (absent when approved). */
export interface InitialStatus {
  readonly status: CommentStatus;
  readonly heldBecause?: HeldReason;
}

const approved: InitialStatus = { status: 'approved' };
const held = (heldBecause: HeldReason): InitialStatus => ({ status: 'waiting', heldBecause });
const spam = (heldBecause: HeldReason): InitialStatus => ({ status: 'spam', heldBecause });

/**
 * The status a new comment starts with, in this order. Administrators: approved. Others: spam when its text,
 * nick or link contains a forbidden word; waiting when its captcha could not be checked, and under
 * `COMMENT_AUDIT` (every comment); then Akismet decides when configured (spam; a comment it could not judge
 * waits rather than being lost or let through). Under `COMMENT_AUDIT=first` a comment whose address is not
 * trusted yet waits, unless Akismet calls it spam; a trusted address's comment is approved when Akismet (if
 * configured) agrees.
 */
export async function initialStatus(
  settings: {
    config: Pick<Config, 'COMMENT_AUDIT' | 'FORBIDDEN_WORDS'>;
    spamCheck: SpamCheck | undefined;
  },
  comment: StatusInput,
): Promise<InitialStatus> {
  const { config, spamCheck } = settings;
  if (comment.byAdmin) return approved;
  if (fieldWithWord(comment, config.FORBIDDEN_WORDS)) return spam('word_rule');
  if (comment.captchaUnreachable) return held('captcha_unreachable');
  if (config.COMMENT_AUDIT === 'all') return held('audit');
  const verdict = spamCheck ? await spamCheck(comment) : 'ham';
  if (verdict === 'spam') return spam('akismet');
  if (config.COMMENT_AUDIT === 'first' && !comment.trusted) return held('first_comment');
  return verdict === 'ham' ? approved : held('akismet_unreachable');
}
