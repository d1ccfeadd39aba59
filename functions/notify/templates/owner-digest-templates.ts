import type { Lang } from '../../shared/domain/messages.js';
import type { MailTemplate } from './mail-template.js';
import { mailStyles, siteLink } from './mail-styles.js';

/**
 * The owner's hourly digest (nunjucks, autoescaped), in each language: told instead of one mail per comment
 * once an hour's owner mails reach AUTHOR_NOTIFY_CAP_PER_HOUR. Variables: `site` (name, url) and `digest`:
 * `count` (comments not mailed one by one), `day`, `from` and `to` (the hour, UTC), `cap`, and `uiUrl` (the
 * administration page, or empty without SERVER_URL). Never a site's custom template: it is not about one comment.
 */

const { box, heading, small } = mailStyles;

const uiLink =
  '{% if digest.uiUrl %}<a href="{{ digest.uiUrl }}">{{ digest.uiUrl }}</a>{% else %}/ui{% endif %}';

/** The digest's templates by language. */
export const ownerDigestTemplates: Readonly<Record<Lang, MailTemplate>> = {
  en: {
    subject:
      "{{ digest.count }} more {{ 'comment' if digest.count == 1 else 'comments' }} on {{ site.name }} in the hour to {{ digest.to }} UTC",
    html: `<div style="${box}">
<h2 style="${heading}">{{ digest.count }} more {{ 'comment' if digest.count == 1 else 'comments' }} on ${siteLink}</h2>
<p>Between {{ digest.from }} and {{ digest.to }} UTC on {{ digest.day }}, {{ digest.count }} more {{ 'comment' if digest.count == 1 else 'comments' }} came in than the {{ digest.cap }} an hour you are mailed about one by one.</p>
<p>See them, and approve those waiting, on the administration page: ${uiLink}</p>
<p style="${small}">One mail like this at most each hour, instead of a mail for every comment.</p>
</div>`,
  },
  'zh-CN': {
    subject: '{{ site.name }} 在 UTC {{ digest.from }}–{{ digest.to }} 又有 {{ digest.count }} 条新评论',
    html: `<div style="${box}">
<h2 style="${heading}">${siteLink} 又有 {{ digest.count }} 条新评论</h2>
<p>UTC {{ digest.day }} {{ digest.from }}–{{ digest.to }}，新评论超过了每小时逐条邮件通知的上限（{{ digest.cap }} 封），其余 {{ digest.count }} 条不再逐条通知。</p>
<p>请在管理页面查看这些评论，并审核等待中的评论：${uiLink}</p>
<p style="${small}">这样的汇总邮件每小时至多一封，代替逐条通知。</p>
</div>`,
  },
};
