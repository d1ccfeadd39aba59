import type { Lang } from '../../shared/domain/messages.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import { type LinkPageContext, linkPage, offerPage, paragraph, textsOf } from './link-page.js';

/** What the pages of an address-change link say, in each language; `{site}` is the site's name. */
const texts = {
  en: {
    site: 'this site',
    title: 'Use this address for your account on {site}',
    intro:
      'An account on {site} asked to use this address from now on. If it was you, confirm it; if not, ignore this page and nothing happens.',
    confirm: 'Use this address',
    doneTitle: 'Your address is changed',
    doneText: 'Your account on {site} uses this address from now on: sign in with it.',
    takenTitle: 'This address has an account already',
    takenText: 'Another account on {site} uses this address, so nothing was changed.',
    staleTitle: 'Nothing to change',
    staleText:
      'This link is no longer good: the account changed its password since, was banned, or no longer exists. Nothing was changed.',
  },
  'zh-CN': {
    site: '本站',
    title: '在 {site} 的账户使用此邮箱地址',
    intro:
      '{site} 上的一个账户申请从现在起使用此邮箱地址。如果是你，请确认；如果不是，请忽略此页面，什么都不会发生。',
    confirm: '使用此邮箱地址',
    doneTitle: '邮箱地址已更改',
    doneText: '你在 {site} 的账户从现在起使用此邮箱地址：请用它登录。',
    takenTitle: '此邮箱地址已有账户',
    takenText: '{site} 上的另一个账户使用此邮箱地址，因此未做任何更改。',
    staleTitle: '无需更改',
    staleText: '此链接已失效：该账户此后更改了密码、被封禁或已不存在。未做任何更改。',
  },
} as const satisfies Record<Lang, Record<string, string>>;

type Text = keyof (typeof texts)['en'];

const say = textsOf<Text>(texts);

/** `GET /api/verification` of an address-change link: what it does, and the one button that does it. */
export function addressChangeOfferPage(context: LinkPageContext): HttpResult {
  return offerPage(context, say(context, 'title'), say(context, 'intro'), say(context, 'confirm'));
}

/** The answer of an address change: `done`, `taken` (another account has it: 409), or `stale` (409). */
export function addressChangedPage(
  context: LinkPageContext,
  outcome: 'done' | 'taken' | 'stale',
): HttpResult {
  const [title, text] = {
    done: ['doneTitle', 'doneText'],
    taken: ['takenTitle', 'takenText'],
    stale: ['staleTitle', 'staleText'],
  }[outcome] as [Text, Text];
  return linkPage({
    status: outcome === 'done' ? 200 : 409,
    lang: context.lang,
    title: say(context, title),
    body: paragraph(say(context, text)),
  });
}
