import type { Lang } from '../../shared/domain/messages.js';
import type { Notice, NoticeTemplate } from '../notice.js';
import { htmlToText } from '../templates/html-to-text.js';
import { type SiteSettings, siteVariables } from '../templates/site.js';

/**
 * A notice as a Telegram message in Telegram's HTML (parse_mode HTML): only the tags Telegram allows
 * (`b`, `a`, `blockquote`), every text escaped for it, the comment reduced to its text. No address of
 * anyone: the chat may be a group, and Telegram is a third party.
 */

const headings: Readonly<Record<Lang, Readonly<Record<NoticeTemplate, string>>>> = {
  en: {
    'owner-new': 'New comment on {site}',
    'owner-waiting': 'A comment on {site} is waiting for approval',
    reply: 'New reply on {site}',
    test: 'Test notification from {site}',
    confirm: 'Someone replied on {site}',
  },
  'zh-CN': {
    'owner-new': '{site} 上有新评论了',
    'owner-waiting': '{site} 上有一条评论等待审核',
    reply: '{site} 上有新回复',
    test: '来自 {site} 的测试通知',
    confirm: '{site} 上有人回复了',
  },
};

const phrases: Readonly<Record<Lang, { readonly inReplyTo: string; readonly testBody: string }>> = {
  en: { inReplyTo: 'in reply to', testBody: 'Notifications reach this chat.' },
  'zh-CN': { inReplyTo: '回复', testBody: '通知可以正常发送到这个聊天。' },
};

/**
 * Telegram refuses a message longer than 4,096 characters (after its entities are parsed). The message is
 * measured as sent, escaped and with its tags, in UTF-16 units (never fewer than Telegram's characters), so
 * what is measured is never shorter than what Telegram counts.
 */
export const maxTelegramMessageChars = 4096;

/** What each part may take, escaped: their sum leaves the comment at least 2,000 characters. */
const budgets = { heading: 300, nick: 150, pageText: 300, pageLink: 1000 } as const;

/** Text for Telegram's HTML: `&`, `<`, `>` and `"` as entities (the four Telegram's parser knows). */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * `text` escaped, cut (at a whole character, never inside an entity, and marked `…`) so that the escaped
 * text is at most `max` UTF-16 units.
 */
export function escapedCut(text: string, max: number): string {
  const escaped = escapeTelegramHtml(text);
  if (escaped.length <= max) return escaped;
  let kept = '';
  for (const character of text) {
    const next = escapeTelegramHtml(character);
    if (kept.length + next.length + 1 > max) break;
    kept += next;
  }
  return `${kept}…`;
}

/** The message of `notice`: never more than {@link maxTelegramMessageChars}, however long its parts. */
export function telegramMessage(notice: Notice, site: SiteSettings): string {
  const { name, postUrl } = siteVariables(site, notice.self);
  const [before = '', after = ''] = headings[notice.lang][notice.template].split('{site}');
  const heading = escapedCut(`${before}${name}${after}`, budgets.heading);
  const lines = [`<b>${heading}</b>`];
  const { self, parent } = notice;
  if (!self) {
    lines.push(escapeTelegramHtml(phrases[notice.lang].testBody));
    return lines.join('\n');
  }
  const pageText = escapedCut(self.url, budgets.pageText);
  const href = escapeTelegramHtml(postUrl);
  // A link cannot be cut: one too long to fit is left out, and the page's path shows alone.
  const page = postUrl && href.length <= budgets.pageLink ? `<a href="${href}">${pageText}</a>` : pageText;
  const replyTo = parent
    ? ` ${escapeTelegramHtml(phrases[notice.lang].inReplyTo)} <b>${escapedCut(parent.nick, budgets.nick)}</b>`
    : '';
  lines.push(`<b>${escapedCut(self.nick, budgets.nick)}</b>${replyTo} · ${page}`);
  const quoteTags = '<blockquote></blockquote>';
  const used = lines.reduce((sum, line) => sum + line.length + 1, 0) + quoteTags.length;
  lines.push(`<blockquote>${escapedCut(htmlToText(self.html), maxTelegramMessageChars - used)}</blockquote>`);
  return lines.join('\n');
}
