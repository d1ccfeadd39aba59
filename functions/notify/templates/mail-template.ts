import type { NoticeTemplate } from '../notice.js';

/** One mail's templates (nunjucks): its subject, and its HTML body (the text body is derived from it). */
export interface MailTemplate {
  readonly subject: string;
  readonly html: string;
}

/** The default mails of one language, and the footers added to every mail, custom or not. */
export type LanguageTemplates = Readonly<Record<NoticeTemplate, MailTemplate>> & {
  /** Under every reply mail: the visible unsubscribe link (`links.unsubscribe`). */
  readonly unsubscribeFooter: string;
  /** Under the owner's mail about a waiting comment: `links.approve`, `links.spam`, `links.delete`, `links.expires`. */
  readonly moderationFooter: string;
};
