import type { Lang } from '../../shared/domain/messages.js';
import type { AccountMailKind } from '../../shared/table/account-mail-event.js';
import type { MailTemplate } from './mail-template.js';
import { mailStyles, siteLink } from './mail-styles.js';

/**
 * The account mails (nunjucks, autoescaped), in each language; the subjects of the confirmation and the reset
 * are Waline's. Variables: `site` (name, url), `name` (the account's display name: the only thing a user
 * chose that a mail shows), `link` (the confirmation or reset link), `loginUrl` and `forgotUrl` (the sign-in
 * and reset-request pages), `hours` (how long the link works) and `change` (`password` or `email`). Never a
 * site's custom template: they are not about a comment.
 */

const { box, heading, small } = mailStyles;

const button = '<p><a href="{{ link }}">{{ link }}</a></p>';

/** The account mails' templates by kind and language. */
export const accountMailTemplates: Readonly<Record<AccountMailKind, Readonly<Record<Lang, MailTemplate>>>> = {
  confirm: {
    en: {
      subject: '[{{ site.name }}] Registration Confirm Mail',
      html: `<div style="${box}">
<h2 style="${heading}">Confirm your account on ${siteLink}</h2>
<p>Hello {{ name }}, someone (we hope you) registered an account on {{ site.name }} with this address. To confirm it, open this link and press the button:</p>
${button}
<p style="${small}">The link works once, for {{ hours }} hours. If you did not register, ignore this mail: nothing happens without the button.</p>
</div>`,
    },
    'zh-CN': {
      subject: '【{{ site.name }}】注册确认邮件',
      html: `<div style="${box}">
<h2 style="${heading}">确认你在 ${siteLink} 的账户</h2>
<p>{{ name }}，你好。有人（希望是你）用此邮箱地址在 {{ site.name }} 注册了账户。请打开以下链接并按下按钮完成确认：</p>
${button}
<p style="${small}">链接只能使用一次，{{ hours }} 小时内有效。如果不是你注册的，请忽略此邮件：不按按钮就什么都不会发生。</p>
</div>`,
    },
  },
  'confirm-address': {
    en: {
      subject: '[{{ site.name }}] Confirm your new address',
      html: `<div style="${box}">
<h2 style="${heading}">Confirm your new address on ${siteLink}</h2>
<p>Hello {{ name }}, the account {{ name }} on {{ site.name }} asked to use this address from now on. To make the change, open this link and press the button:</p>
${button}
<p style="${small}">The link works once, for {{ hours }} hours. If you did not ask, ignore this mail: nothing changes without the button.</p>
</div>`,
    },
    'zh-CN': {
      subject: '【{{ site.name }}】确认你的新邮箱地址',
      html: `<div style="${box}">
<h2 style="${heading}">确认你在 ${siteLink} 的新邮箱地址</h2>
<p>{{ name }}，你好。{{ site.name }} 上的账户 {{ name }} 申请从现在起使用此邮箱地址。请打开以下链接并按下按钮完成更改：</p>
${button}
<p style="${small}">链接只能使用一次，{{ hours }} 小时内有效。如果不是你申请的，请忽略此邮件：不按按钮就什么都不会改变。</p>
</div>`,
    },
  },
  reset: {
    en: {
      subject: '[{{ site.name }}] Reset Password',
      html: `<div style="${box}">
<h2 style="${heading}">Choose a new password on ${siteLink}</h2>
<p>Hello {{ name }}, someone asked for a new password for your account on {{ site.name }}. To choose one, open this link:</p>
${button}
<p style="${small}">The link works once, for {{ hours }} hour. If you did not ask, ignore this mail: your password stays as it is.</p>
</div>`,
    },
    'zh-CN': {
      subject: '【{{ site.name }}】重置密码',
      html: `<div style="${box}">
<h2 style="${heading}">在 ${siteLink} 设置新密码</h2>
<p>{{ name }}，你好。有人为你在 {{ site.name }} 的账户申请了新密码。请打开以下链接设置新密码：</p>
${button}
<p style="${small}">链接只能使用一次，{{ hours }} 小时内有效。如果不是你申请的，请忽略此邮件：密码不会改变。</p>
</div>`,
    },
  },
  'my-data': {
    en: {
      subject: '[{{ site.name }}] Your data on {{ site.name }}',
      html: `<div style="${box}">
<h2 style="${heading}">Your comments on ${siteLink}</h2>
<p>Hello, someone (we hope you) asked to see or erase what {{ site.name }} keeps for this address. Open this link to download it, or to erase it:</p>
${button}
<p style="${small}">The link works for {{ hours }} hour; it erases once. If you did not ask, ignore this mail: nothing happens without the link.</p>
</div>`,
    },
    'zh-CN': {
      subject: '【{{ site.name }}】你在 {{ site.name }} 的数据',
      html: `<div style="${box}">
<h2 style="${heading}">你在 ${siteLink} 的评论</h2>
<p>你好。有人（希望是你）申请查看或删除 {{ site.name }} 为此邮箱地址保存的数据。打开以下链接即可下载或删除：</p>
${button}
<p style="${small}">链接 {{ hours }} 小时内有效，删除只能进行一次。如果不是你申请的，请忽略此邮件：不打开链接就什么都不会发生。</p>
</div>`,
    },
  },
  changed: {
    en: {
      subject:
        "[{{ site.name }}] {% if change == 'passkey-added' %}A passkey was added to your account{% elif change == 'passkey-removed' %}A passkey was removed from your account{% else %}Your {{ 'password' if change == 'password' else 'address' }} was changed{% endif %}",
      html: `<div style="${box}">
<h2 style="${heading}">Your account on ${siteLink} changed</h2>
<p>Hello {{ name }}, {% if change == 'passkey-added' %}a passkey was just added to your account on {{ site.name }}: it signs in alone, without the password{% elif change == 'passkey-removed' %}a passkey was just removed from your account on {{ site.name }}{% else %}the {{ 'password' if change == 'password' else 'e-mail address' }} of your account on {{ site.name }} was just changed{{ ', and every earlier sign-in ended' if change == 'password' }}{% endif %}.</p>
<p>If it was you, there is nothing to do. If not, choose a new password now: {% if forgotUrl %}<a href="{{ forgotUrl }}">{{ forgotUrl }}</a>{% else %}from the sign-in page{% endif %}, and tell the site's owner.</p>
</div>`,
    },
    'zh-CN': {
      subject:
        "【{{ site.name }}】{% if change == 'passkey-added' %}你的账户添加了一个通行密钥{% elif change == 'passkey-removed' %}你的账户移除了一个通行密钥{% else %}你的{{ '密码' if change == 'password' else '邮箱地址' }}已更改{% endif %}",
      html: `<div style="${box}">
<h2 style="${heading}">你在 ${siteLink} 的账户已更改</h2>
<p>{{ name }}，你好。{% if change == 'passkey-added' %}你在 {{ site.name }} 的账户刚刚添加了一个通行密钥：它无需密码即可登录{% elif change == 'passkey-removed' %}你在 {{ site.name }} 的账户刚刚移除了一个通行密钥{% else %}你在 {{ site.name }} 的账户{{ '密码' if change == 'password' else '邮箱地址' }}刚刚被更改{{ '，之前的所有登录均已失效' if change == 'password' }}{% endif %}。</p>
<p>如果是你本人操作，无需处理。如果不是，请立即设置新密码：{% if forgotUrl %}<a href="{{ forgotUrl }}">{{ forgotUrl }}</a>{% else %}在登录页面操作{% endif %}，并告知站长。</p>
</div>`,
    },
  },
  'already-registered': {
    en: {
      subject: '[{{ site.name }}] Someone tried to register with your address',
      html: `<div style="${box}">
<h2 style="${heading}">You already have an account on ${siteLink}</h2>
<p>Hello {{ name }}, someone tried to register on {{ site.name }} with this address, which already has an account. Nothing was changed.</p>
<p>If it was you: sign in{% if loginUrl %} at <a href="{{ loginUrl }}">{{ loginUrl }}</a>{% endif %}, or choose a new password{% if forgotUrl %} at <a href="{{ forgotUrl }}">{{ forgotUrl }}</a>{% endif %}. If not, ignore this mail.</p>
<p style="${small}">One mail like this a day at most.</p>
</div>`,
    },
    'zh-CN': {
      subject: '【{{ site.name }}】有人尝试用你的邮箱地址注册',
      html: `<div style="${box}">
<h2 style="${heading}">你已经在 ${siteLink} 有账户了</h2>
<p>{{ name }}，你好。有人尝试用此邮箱地址在 {{ site.name }} 注册，而该地址已有账户。未做任何更改。</p>
<p>如果是你本人：请登录{% if loginUrl %}（<a href="{{ loginUrl }}">{{ loginUrl }}</a>）{% endif %}，或设置新密码{% if forgotUrl %}（<a href="{{ forgotUrl }}">{{ forgotUrl }}</a>）{% endif %}。如果不是，请忽略此邮件。</p>
<p style="${small}">此类邮件每天至多一封。</p>
</div>`,
    },
  },
};
