import type { Config } from '../shared/config.js';
import type { CommentStatus } from '../shared/domain/comment.js';
import type { SpamCheck, SpamCheckInput } from '../shared/spam/akismet.js';
import { findForbiddenWord } from '../shared/spam/forbidden-words.js';

/**
 * The status a new comment starts with. Administrators: approved. Others: spam when it contains a
 * forbidden word; waiting when the captcha provider could not be asked (`captchaUnreachable`: the token
 * was not checked, so the comment is not let through) or under COMMENT_AUDIT; otherwise Akismet decides
 * when configured, and a comment Akismet could not judge waits for moderation rather than being lost or
 * let through.
 */
export async function initialStatus(
  settings: { config: Pick<Config, 'COMMENT_AUDIT' | 'FORBIDDEN_WORDS'>; spamCheck: SpamCheck | undefined },
  comment: SpamCheckInput & { byAdmin: boolean; captchaUnreachable?: boolean },
): Promise<CommentStatus> {
  if (comment.byAdmin) return 'approved';
  if (findForbiddenWord(comment.text, settings.config.FORBIDDEN_WORDS)) return 'spam';
  if (comment.captchaUnreachable) return 'waiting';
  if (settings.config.COMMENT_AUDIT) return 'waiting';
  if (!settings.spamCheck) return 'approved';
  const verdict = await settings.spamCheck(comment);
  return verdict === 'ham' ? 'approved' : verdict === 'spam' ? 'spam' : 'waiting';
}
