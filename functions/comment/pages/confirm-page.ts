import type { HttpResult } from '../../shared/http/http-types.js';
import { type LinkPageContext, linkPage, offerPage, paragraph, siteText } from './link-page.js';

/** What a confirmation page says, in each language; `{site}` is the site's name. */
const texts = {
  en: {
    site: 'this site',
    title: 'Reply notices from {site}',
    intro:
      'Someone replied to a comment left on {site} with your address. Confirm to receive that reply by mail, and the replies after it. Nothing changes until you press the button.',
    confirm: 'Receive reply notices',
    doneTitle: 'Reply notices are on',
    doneText:
      'Your address now receives mail about replies on {site}; the reply that is waiting is on its way. Each mail has a link to stop them.',
  },
  'zh-CN': {
    site: '本站',
    title: '来自 {site} 的回复通知',
    intro:
      '有人回复了用您的邮箱地址在 {site} 上发表的评论。确认后，您将通过邮件收到这条回复以及之后的回复。按下按钮之前不会有任何更改。',
    confirm: '接收回复通知',
    doneTitle: '已开启回复通知',
    doneText: '您的地址将收到 {site} 上的回复邮件；等待中的回复正在发送。每封邮件都带有停止接收的链接。',
  },
} as const;

type Text = keyof (typeof texts)['en'];

/** What a confirmation page shows: the site's name, the language, and the link's own query. */
export type ConfirmPageContext = LinkPageContext;

const say = (context: ConfirmPageContext, key: Text): string => siteText(texts, context, key);

/** `GET /api/notification/confirm`: what the link does, and the one button that does it. */
export function confirmOfferPage(context: ConfirmPageContext): HttpResult {
  return offerPage(context, say(context, 'title'), say(context, 'intro'), say(context, 'confirm'));
}

/** The answer of a recorded confirmation. */
export function confirmedPage(context: ConfirmPageContext): HttpResult {
  return linkPage({
    status: 200,
    lang: context.lang,
    title: say(context, 'doneTitle'),
    body: paragraph(say(context, 'doneText')),
  });
}
