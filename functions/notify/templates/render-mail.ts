import nunjucks from 'nunjucks';
import type { Notice } from '../notice.js';
import type { NotifyConfig } from '../notify-config.js';
import type { ModerationLinks } from '../links.js';
import { defaultTemplates } from './default-templates.js';
import type { MailTemplate } from './mail-template.js';
import { htmlToText } from './html-to-text.js';
import type { SiteSettings } from './site.js';
import { templateVariables } from './template-variables.js';

/**
 * A notice as a mail's subject, HTML and text, rendered with nunjucks as Waline renders its mails: the
 * default templates in the recipient's language, or the site's own (MAIL_SUBJECT, MAIL_TEMPLATE for
 * replies; MAIL_SUBJECT_ADMIN, MAIL_TEMPLATE_ADMIN for the owner's mails), in every language. The links
 * (unsubscribe, moderation) are a footer under the body, so a custom template cannot leave them out.
 */

/** The site's own templates (Waline's names). */
export type CustomMailTemplates = Partial<
  Pick<NotifyConfig, 'MAIL_SUBJECT' | 'MAIL_TEMPLATE' | 'MAIL_SUBJECT_ADMIN' | 'MAIL_TEMPLATE_ADMIN'>
>;

/** The links a mail carries, when it has them. */
export interface MailLinks {
  /** Reader mail: the unsubscribe link (a footer; in the confirmation mail, `links.unsubscribe` in its body). */
  readonly unsubscribe?: string;
  /** The owner's mail about a waiting comment: approve, spam and delete. */
  readonly moderation?: ModerationLinks;
  /** The confirmation mail: the link to receive reply notices (`links.confirm` in its body). */
  readonly confirm?: string;
}

/** A rendered mail. */
export interface RenderedMail {
  /** One line. */
  readonly subject: string;
  /** A whole HTML document. */
  readonly html: string;
  /** The HTML's text. */
  readonly text: string;
}

// No loader: a template can neither include nor extend a file. HTML is autoescaped, as in Waline; a
// subject is text in a header (nodemailer encodes it), where an entity would only show as `&amp;`.
const htmlEnvironment = new nunjucks.Environment([], { autoescape: true });
const textEnvironment = new nunjucks.Environment([], { autoescape: false });
const compiled = new Map<string, nunjucks.Template>();

/** Renders `source` with `variables`, compiling each distinct template once. */
function render(source: string, variables: object, as: 'html' | 'text'): string {
  const key = `${as}\u0000${source}`;
  let template = compiled.get(key);
  if (!template) {
    template = new nunjucks.Template(
      source,
      as === 'html' ? htmlEnvironment : textEnvironment,
      undefined,
      true,
    );
    compiled.set(key, template);
  }
  return template.render(variables);
}

/** Subjects longer than this are cut: a subject is a line, not a message. */
const maxSubjectChars = 200;

/** `notice` as a mail, with `links` in its footer. */
export function renderMail(
  notice: Notice,
  settings: {
    readonly site: SiteSettings;
    readonly templates: CustomMailTemplates;
    readonly links: MailLinks;
  },
): RenderedMail {
  const language = defaultTemplates(notice.lang);
  const template = chosenTemplate(notice, language[notice.template], settings.templates);
  // The confirmation mail's links are in its own words, in its body (no custom template applies to it).
  const inBody = notice.template === 'confirm';
  const variables = {
    ...templateVariables(notice, settings.site),
    ...(inBody
      ? { links: { confirm: settings.links.confirm, unsubscribe: settings.links.unsubscribe } }
      : {}),
  };
  const subject = oneLine(render(template.subject, variables, 'text'));
  const footer = [
    settings.links.moderation
      ? render(
          language.moderationFooter,
          {
            ...variables,
            links: { ...settings.links.moderation, expires: utcMinute(settings.links.moderation.expiresAt) },
          },
          'html',
        )
      : '',
    settings.links.unsubscribe && !inBody
      ? render(
          language.unsubscribeFooter,
          { ...variables, links: { unsubscribe: settings.links.unsubscribe } },
          'html',
        )
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  const html = htmlDocument(render(template.html, variables, 'html'), footer, notice.lang);
  return { subject, html, text: htmlToText(html) };
}

/**
 * A mail about no one comment (the owner's digest): `template` rendered with `variables`, as a document in
 * `lang`, without footer.
 */
export function renderStandaloneMail(template: MailTemplate, variables: object, lang: string): RenderedMail {
  const subject = oneLine(render(template.subject, variables, 'text'));
  const html = htmlDocument(render(template.html, variables, 'html'), '', lang);
  return { subject, html, text: htmlToText(html) };
}

/** The site's template for `notice`, part by part, else the default. */
function chosenTemplate(notice: Notice, fallback: MailTemplate, custom: CustomMailTemplates): MailTemplate {
  switch (notice.template) {
    case 'reply':
      return {
        subject: custom.MAIL_SUBJECT ?? fallback.subject,
        html: custom.MAIL_TEMPLATE ?? fallback.html,
      };
    case 'owner-new':
    case 'owner-waiting':
      return {
        subject: custom.MAIL_SUBJECT_ADMIN ?? fallback.subject,
        html: custom.MAIL_TEMPLATE_ADMIN ?? fallback.html,
      };
    // The site's own templates show the comments: never in a confirmation mail, which has none.
    case 'test':
    case 'confirm':
      return fallback;
  }
}

/** A subject folded to one line (CR and LF can never reach the header), and cut to its limit. */
function oneLine(subject: string): string {
  const folded = subject.replace(/\s+/g, ' ').trim();
  const characters = Array.from(folded);
  return characters.length <= maxSubjectChars
    ? folded
    : `${characters.slice(0, maxSubjectChars - 1).join('')}…`;
}

/** `2026-11-25 17:15 UTC`. */
function utcMinute(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `body` and `footer` as one HTML document; a custom template that is a document keeps its own frame. */
function htmlDocument(body: string, footer: string, lang: string): string {
  if (/<html[\s>]/i.test(body)) {
    const bodyEnd = body.search(/<\/body\s*>/i);
    return bodyEnd < 0 ? `${body}\n${footer}` : `${body.slice(0, bodyEnd)}${footer}\n${body.slice(bodyEnd)}`;
  }
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
${body}
${footer}
</body>
</html>`;
}
