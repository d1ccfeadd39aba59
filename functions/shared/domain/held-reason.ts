import type { Lang } from './messages.js';

/**
 * Why a comment was held (waiting) or marked spam when it was submitted, kept on its item as `heldBecause`
 * (history: an approval keeps it). Only administrators see it (`/ui`, the owner's mail); public answers never
 * carry it. Comments stored before it have none.
 */
export type HeldReason =
  /** A captcha was required and its provider could not be reached: held rather than lost or let through. */
  | 'captcha_unreachable'
  /** `COMMENT_AUDIT=first`: the address has no comment approved by an administrator yet. */
  | 'first_comment'
  /** A `FORBIDDEN_WORDS` word in the text, the nick or the link: spam. */
  | 'word_rule'
  /** Akismet judged it spam. */
  | 'akismet'
  /** Akismet could not judge it (timeout, failure): held. */
  | 'akismet_unreachable'
  /** `COMMENT_AUDIT` holds every comment. */
  | 'audit';

const labels = {
  captcha_unreachable: {
    en: 'the captcha service could not be reached',
    'zh-CN': '无法连接验证码服务',
  },
  first_comment: {
    en: 'first comment from this address (COMMENT_AUDIT=first)',
    'zh-CN': '该邮箱的第一条评论（COMMENT_AUDIT=first）',
  },
  word_rule: {
    en: 'a forbidden word in its text, nick or link (FORBIDDEN_WORDS)',
    'zh-CN': '正文、昵称或网址中含有违禁词（FORBIDDEN_WORDS）',
  },
  akismet: { en: 'Akismet judged it spam', 'zh-CN': 'Akismet 判定为垃圾评论' },
  akismet_unreachable: {
    en: 'Akismet could not be reached',
    'zh-CN': '无法连接 Akismet',
  },
  audit: {
    en: 'every comment waits for approval (COMMENT_AUDIT)',
    'zh-CN': '所有评论都需审核（COMMENT_AUDIT）',
  },
} as const satisfies Record<HeldReason, Record<Lang, string>>;

/** Every held reason. */
export const heldReasons = Object.keys(labels) as readonly HeldReason[];

/** `value` as a held reason, or undefined when it is none (an item written before, or by another version). */
export function asHeldReason(value: unknown): HeldReason | undefined {
  return typeof value === 'string' && Object.hasOwn(labels, value) ? (value as HeldReason) : undefined;
}

/** Why `reason` held a comment, in words, in `lang`: for `/ui` and the owner's mail. */
export function heldReasonLabel(reason: HeldReason, lang: Lang): string {
  return labels[reason][lang];
}
