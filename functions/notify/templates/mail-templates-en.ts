import type { LanguageTemplates } from './mail-template.js';
import { mailStyles, siteLink } from './mail-styles.js';

/**
 * The English mails (nunjucks, autoescaped: `| safe` only on the comments, which are mail-safe HTML).
 * The wording follows Waline's `en.json`, so a migrating site's mails read the same.
 */

const { box, heading, quote, small } = mailStyles;

/** The English templates. */
export const englishTemplates: LanguageTemplates = {
  reply: {
    subject: 'Your comment on {{ site.name }} received a reply',
    html: `<div style="${box}">
<h2 style="${heading}">Your comment on ${siteLink} received a reply</h2>
<p>{{ parent.nick }}, you wrote:</p>
<div style="${quote}">{{ parent.comment | safe }}</div>
<p><strong>{{ self.nick }}</strong> replied:</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if site.postUrl %}<p><a href="{{ site.postUrl }}">View the reply</a> on ${siteLink}.</p>{% endif %}
</div>`,
  },
  'owner-new': {
    subject: 'New comment on {{ site.name }}',
    html: `<div style="${box}">
<h2 style="${heading}">New comment on ${siteLink}</h2>
<p><strong>{{ self.nick }}</strong> wrote{% if parent %} in reply to <strong>{{ parent.nick }}</strong>{% endif %}:</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if site.postUrl %}<p><a href="{{ site.postUrl }}">View it on its page</a></p>{% endif %}
</div>`,
  },
  'owner-waiting': {
    subject: 'A comment on {{ site.name }} is waiting for approval',
    html: `<div style="${box}">
<h2 style="${heading}">A comment on ${siteLink} is waiting for approval</h2>
<p><strong>{{ self.nick }}</strong> wrote on {{ self.url }}{% if parent %}, in reply to <strong>{{ parent.nick }}</strong>{% endif %}:</p>
<div style="${quote}">{{ self.comment | safe }}</div>
{% if self.heldReason %}<p>Held because: {{ self.heldReason }}.</p>{% endif %}
<p>Nobody else sees it until you approve it.</p>
</div>`,
  },
  test: {
    subject: 'Test notification from {{ site.name }}',
    html: `<div style="${box}">
<h2 style="${heading}">Test notification from ${siteLink}</h2>
<p>This mail was sent from the administration page to check the notifications: they work.</p>
</div>`,
  },
  confirm: {
    subject: 'Someone replied to a comment on {{ site.name }}: get reply notices?',
    html: `<div style="${box}">
<h2 style="${heading}">Someone replied on ${siteLink}</h2>
<p>Someone replied to a comment left on ${siteLink} with this address. To receive that reply and the next ones by mail, confirm:</p>
<p><a href="{{ links.confirm }}">Receive reply notices</a></p>
<p style="${small}">If you did not comment there, ignore this mail: nothing more is sent to this address, and no other such mail comes for 30 days. The link asks you to confirm, and works for 30 days.</p>
<p style="${small}">Never receive one again: <a href="{{ links.unsubscribe }}">stop every mail from {{ site.name }}</a> to this address.</p>
</div>`,
  },
  unsubscribeFooter: `<p style="${small}">You receive this mail because you commented on {{ site.name }} with this address.
<a href="{{ links.unsubscribe }}">Unsubscribe</a>: stop the mails about this thread, or every mail from {{ site.name }}.</p>`,
  moderationFooter: `<p><a href="{{ links.approve }}">Approve</a> · <a href="{{ links.spam }}">Mark as spam</a> · <a href="{{ links.delete }}">Delete</a></p>
<p style="${small}">Each link asks you to confirm, and works until {{ links.expires }}.</p>`,
};
