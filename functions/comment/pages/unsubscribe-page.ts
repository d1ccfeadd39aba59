import type { HttpResult } from '../../shared/http/http-types.js';
import { type LinkPageContext, linkPage, paragraph, postButton, siteText } from './link-page.js';

/** What an unsubscribe page says, in each language; `{site}` is the site's name. */
const texts = {
  en: {
    site: 'this site',
    title: 'Mail from {site}',
    intro:
      'This link came in a mail from {site} about a reply to your comment. You can stop such mail here: nothing changes until you press a button.',
    thread: 'Mute this thread',
    threadText: 'No more mail about replies in this discussion.',
    leave: 'No more mail from this site',
    leaveText: 'No mail from {site} at all, about any comment.',
    threadDone: 'This thread is muted',
    threadDoneText: 'You will get no more mail about replies in this discussion.',
    siteDone: 'No more mail from {site}',
    siteDoneText: 'Your address will get no more mail from {site}.',
    refused: 'Nothing was changed',
    noThread: 'scope: this link names no thread; choose scope=site to leave the site.',
    badScope: 'scope: must be thread or site (or a one-click body, List-Unsubscribe=One-Click).',
  },
  'zh-CN': {
    site: '本站',
    title: '来自 {site} 的邮件',
    intro: '此链接来自 {site} 发送的回复通知邮件。你可以在这里停止接收此类邮件：按下按钮之前不会有任何更改。',
    thread: '静音此讨论',
    threadText: '不再接收此讨论中回复的邮件。',
    leave: '不再接收本站邮件',
    leaveText: '不再接收 {site} 关于任何评论的邮件。',
    threadDone: '已静音此讨论',
    threadDoneText: '你将不再收到此讨论中回复的邮件。',
    siteDone: '不再接收 {site} 的邮件',
    siteDoneText: '你的地址将不再收到 {site} 的任何邮件。',
    refused: '未做任何更改',
    noThread: 'scope：此链接没有指定讨论；请用 scope=site 退订整个站点。',
    badScope: 'scope：必须是 thread 或 site（或一键退订的请求体 List-Unsubscribe=One-Click）。',
  },
} as const;

type Text = keyof (typeof texts)['en'];

/** What an unsubscribe page shows: the site's name, the language, and the link's own query. */
export type UnsubscribePageContext = LinkPageContext;

const say = (context: UnsubscribePageContext, key: Text): string => siteText(texts, context, key);

function leaveChoice(context: UnsubscribePageContext): string {
  return `<div class="choice">${paragraph(say(context, 'leaveText'))}${postButton(
    { ...context.query, scope: 'site' },
    say(context, 'leave'),
    'danger',
  )}</div>`;
}

/** `GET /api/notification/unsubscribe`: what the link does, and a button for each choice (the thread's only when the link names one). */
export function unsubscribeOfferPage(context: UnsubscribePageContext, canMuteThread: boolean): HttpResult {
  const thread = canMuteThread
    ? `<div class="choice">${paragraph(say(context, 'threadText'))}${postButton(
        { ...context.query, scope: 'thread' },
        say(context, 'thread'),
      )}</div>`
    : '';
  return linkPage({
    status: 200,
    lang: context.lang,
    title: say(context, 'title'),
    body: `${paragraph(say(context, 'intro'))}\n<div class="choices">${thread}${leaveChoice(context)}</div>`,
  });
}

/** The answer of a recorded choice; after muting a thread, leaving the whole site is still offered. */
export function unsubscribedPage(context: UnsubscribePageContext, scope: 'thread' | 'site'): HttpResult {
  const done =
    scope === 'thread'
      ? { title: say(context, 'threadDone'), text: say(context, 'threadDoneText') }
      : { title: say(context, 'siteDone'), text: say(context, 'siteDoneText') };
  return linkPage({
    status: 200,
    lang: context.lang,
    title: done.title,
    body: `${paragraph(done.text)}${scope === 'thread' ? `\n<div class="choices">${leaveChoice(context)}</div>` : ''}`,
  });
}

/** The 400 page of a valid link asked for what it cannot do: a scope that is not one, or a thread it does not name. */
export function unsubscribeRefusedPage(
  context: UnsubscribePageContext,
  problem: 'noThread' | 'badScope',
): HttpResult {
  return linkPage({
    status: 400,
    lang: context.lang,
    title: say(context, 'refused'),
    body: paragraph(say(context, problem)),
  });
}
