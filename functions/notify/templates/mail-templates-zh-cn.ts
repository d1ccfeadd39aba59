import type { LanguageTemplates } from './mail-template.js';
import { mailStyles, siteLink } from './mail-styles.js';

/**
 * The Chinese mails (nunjucks, autoescaped: `| safe` only on the comments, which are mail-safe HTML).
 * The wording follows Waline's `zh-CN.json`, so a migrating site's mails read the same.
 */

const { box, heading, quote, small } = mailStyles;

/** The Chinese (zh-CN) templates. */
export const chineseTemplates: LanguageTemplates = {
  reply: {
    subject: '{{ parent.nick }}，『{{ site.name }}』上的评论收到了回复',
    html: `<div style="${box}">
<h2 style="${heading}">您在${siteLink}上的评论有了新的回复</h2>
<p>{{ parent.nick }}，您曾发表评论：</p>
<div style="${quote}">{{ parent.comment | safe }}</div>
<p><strong>{{ self.nick }}</strong> 回复说：</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if site.postUrl %}<p>您可以<a href="{{ site.postUrl }}">查看回复的完整内容</a>，欢迎再次光临${siteLink}。</p>{% endif %}
</div>`,
  },
  'owner-new': {
    subject: '{{ site.name }} 上有新评论了',
    html: `<div style="${box}">
<h2 style="${heading}">${siteLink} 上有新评论了</h2>
<p><strong>{{ self.nick }}</strong>{% if parent %} 回复 <strong>{{ parent.nick }}</strong>{% endif %} 说：</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if site.postUrl %}<p><a href="{{ site.postUrl }}">在页面上查看</a></p>{% endif %}
</div>`,
  },
  'owner-waiting': {
    subject: '{{ site.name }} 上有一条评论等待审核',
    html: `<div style="${box}">
<h2 style="${heading}">${siteLink} 上有一条评论等待审核</h2>
<p><strong>{{ self.nick }}</strong> 在 {{ self.url }}{% if parent %} 回复 <strong>{{ parent.nick }}</strong>{% endif %} 说：</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if self.heldReason %}<p>待审原因：{{ self.heldReason }}。</p>{% endif %}
<p>在您通过审核之前，其他人看不到这条评论。</p>
</div>`,
  },
  test: {
    subject: '来自 {{ site.name }} 的测试通知',
    html: `<div style="${box}">
<h2 style="${heading}">来自 ${siteLink} 的测试通知</h2>
<p>这封邮件由管理页面发出，用于检查通知设置：通知工作正常。</p>
</div>`,
  },
  confirm: {
    subject: '{{ site.name }} 上有人回复了一条评论：是否接收回复通知？',
    html: `<div style="${box}">
<h2 style="${heading}">${siteLink} 上有人回复了</h2>
<p>有人回复了用这个邮箱地址在${siteLink}上发表的评论。如需通过邮件接收这条回复及以后的回复，请确认：</p>
<p><a href="{{ links.confirm }}">接收回复通知</a></p>
<p style="${small}">如果您没有在那里发表评论，请忽略这封邮件：不会再向这个地址发送任何邮件，30 天内也不会再收到此类邮件。此链接会先请您确认，有效期 30 天。</p>
<p style="${small}">如不想再收到此类邮件，请<a href="{{ links.unsubscribe }}">退订 {{ site.name }} 发往这个地址的所有邮件</a>。</p>
</div>`,
  },
  unsubscribeFooter: `<p style="${small}">您收到这封邮件，是因为您曾用这个邮箱地址在 {{ site.name }} 上发表评论。
<a href="{{ links.unsubscribe }}">退订</a>：不再接收这个讨论串的邮件，或不再接收 {{ site.name }} 的任何邮件。</p>`,
  moderationFooter: `<p><a href="{{ links.approve }}">通过</a> · <a href="{{ links.spam }}">标记为垃圾评论</a> · <a href="{{ links.delete }}">删除</a></p>
<p style="${small}">每个链接都会先请您确认，有效期至 {{ links.expires }}。</p>`,
};
