import type { Lang } from '../../shared/domain/messages.js';
import type { NoticeTemplate } from '../notice.js';
import { englishTemplates } from './mail-templates-en.js';
import { chineseTemplates } from './mail-templates-zh-cn.js';

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

const templatesByLang: Readonly<Record<Lang, LanguageTemplates>> = {
  en: englishTemplates,
  'zh-CN': chineseTemplates,
};

/** The default templates in `lang`. */
export function defaultTemplates(lang: Lang): LanguageTemplates {
  return templatesByLang[lang];
}
