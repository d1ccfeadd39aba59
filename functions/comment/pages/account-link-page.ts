import type { Lang } from '../../shared/domain/messages.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { escapeHtml } from './page-shell.js';
import { limits } from '../../shared/domain/limits.js';
import { type LinkPageContext, linkPage, paragraph, textsOf } from './link-page.js';

/** What the pages of an account's confirmation link say, in each language; `{site}` is the site's name. */
const texts = {
  en: {
    site: 'this site',
    title: 'Confirm your account on {site}',
    intro:
      'Someone registered an account on {site} with your address. If it was you, confirm it; if not, ignore this page and nothing happens.',
    confirm: 'Confirm my account',
    password: 'The password you chose when you registered',
    passwordWrong: 'That is not the password this account was registered with. Nothing was changed.',
    doneTitle: 'Your account is confirmed',
    doneText: 'You can now sign in on {site}.',
    awaitingTitle: 'Your address is confirmed',
    awaitingText: 'An administrator of {site} admits new accounts; you can sign in once they have.',
    staleTitle: 'Nothing to confirm',
    staleText: 'This account is confirmed already, or no longer exists. Nothing was changed.',
    signIn: 'Sign in',
  },
  'zh-CN': {
    site: '本站',
    title: '确认你在 {site} 的账户',
    intro:
      '有人用你的邮箱地址在 {site} 注册了账户。如果是你本人，请确认；如果不是，请忽略此页面，什么都不会发生。',
    confirm: '确认我的账户',
    password: '注册时设置的密码',
    passwordWrong: '密码与注册此账户时设置的不符。未做任何更改。',
    doneTitle: '账户已确认',
    doneText: '你现在可以登录 {site}。',
    awaitingTitle: '邮箱地址已确认',
    awaitingText: '{site} 的新账户需要管理员审核；审核通过后即可登录。',
    staleTitle: '无需确认',
    staleText: '此账户已确认，或已不存在。未做任何更改。',
    signIn: '登录',
  },
} as const satisfies Record<Lang, Record<string, string>>;

type Text = keyof (typeof texts)['en'];

const say = textsOf<Text>(texts);

/**
 * `GET /api/verification`: what the link does, and the form that does it. The form asks for the password chosen
 * at registration: whoever registered an address they do not own cannot confirm it, and its owner, following the
 * mail, cannot activate an account whose password someone else chose. `wrong`: the answer to a wrong one (403).
 */
export function accountConfirmOfferPage(context: LinkPageContext, wrong = false): HttpResult {
  const action = `?${new URLSearchParams(context.query).toString()}`;
  const form =
    `<form method="post" action="${escapeHtml(action)}">` +
    `<label>${escapeHtml(say(context, 'password'))} <input type="password" name="password" required ` +
    `maxlength="${limits.passwordMaxChars}" autocomplete="current-password"></label> ` +
    `<button type="submit">${escapeHtml(say(context, 'confirm'))}</button></form>`;
  return linkPage({
    status: wrong ? 403 : 200,
    lang: context.lang,
    title: say(context, 'title'),
    body: [
      paragraph(say(context, 'intro')),
      ...(wrong ? [paragraph(say(context, 'passwordWrong'))] : []),
      `<div class="choices">${form}</div>`,
    ].join('\n'),
  });
}

/**
 * The answer of a confirmation: `active` (with a link to sign in), `awaiting-approval`, or `stale` (confirmed
 * already, or gone: 409).
 */
export function accountConfirmedPage(
  context: LinkPageContext,
  outcome: 'active' | 'awaiting-approval' | 'stale',
  signInUrl: string,
): HttpResult {
  if (outcome === 'stale') {
    return linkPage({
      status: 409,
      lang: context.lang,
      title: say(context, 'staleTitle'),
      body: paragraph(say(context, 'staleText')),
    });
  }
  const active = outcome === 'active';
  const signIn = `<p><a href="${signInUrl}">${say(context, 'signIn')}</a></p>`;
  return linkPage({
    status: 200,
    lang: context.lang,
    title: say(context, active ? 'doneTitle' : 'awaitingTitle'),
    body: `${paragraph(say(context, active ? 'doneText' : 'awaitingText'))}${active ? `\n${signIn}` : ''}`,
  });
}
