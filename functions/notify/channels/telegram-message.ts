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
  },
  'zh-CN': {
    'owner-new': '{site} 上有新评论了',
    'owner-waiting': '{site} 上有一条评论等待审核',
    reply: '{site} 上有新回复',
    test: '来自 {site} 的测试通知',
  },
};

const phrases: Readonly<Record<Lang, { readonly inReplyTo: string; readonly testBody: string }>> = {
  en: { inReplyTo: 'in reply to', testBody: 'Notifications reach this chat.' },
  'zh-CN': { inReplyTo: '回复', testBody: '通知可以正常发送到这个聊天。' },
};

/** Telegram cuts a message at 4096 characters; the comment is cut well before, so the rest always fits. */
const maxCommentChars = 3000;

/** Text for Telegram's HTML: `&`, `<`, `>` and `"` as entities (the four Telegram's parser knows). */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The message of `notice`. */
export function telegramMessage(notice: Notice, site: SiteSettings): string {
  const { name, postUrl } = siteVariables(site, notice.self);
  const heading = headings[notice.lang][notice.template].replace('{site}', name);
  const lines = [`<b>${escapeTelegramHtml(heading)}</b>`];
  const { self, parent } = notice;
  if (!self) {
    lines.push(escapeTelegramHtml(phrases[notice.lang].testBody));
    return lines.join('\n');
  }
  const page = postUrl
    ? `<a href="${escapeTelegramHtml(postUrl)}">${escapeTelegramHtml(self.url)}</a>`
    : escapeTelegramHtml(self.url);
  const replyTo = parent
    ? ` ${escapeTelegramHtml(phrases[notice.lang].inReplyTo)} <b>${escapeTelegramHtml(parent.nick)}</b>`
    : '';
  lines.push(`<b>${escapeTelegramHtml(self.nick)}</b>${replyTo} · ${page}`);
  lines.push(`<blockquote>${escapeTelegramHtml(cut(htmlToText(self.html), maxCommentChars))}</blockquote>`);
  return lines.join('\n');
}

function cut(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}
