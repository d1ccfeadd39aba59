import type { Lang } from '../../shared/domain/messages.js';
import type { LanguageTemplates } from './mail-template.js';
import { englishTemplates } from './mail-templates-en.js';
import { chineseTemplates } from './mail-templates-zh-cn.js';

const templatesByLang: Readonly<Record<Lang, LanguageTemplates>> = {
  en: englishTemplates,
  'zh-CN': chineseTemplates,
};

/** The default templates in `lang`. */
export function defaultTemplates(lang: Lang): LanguageTemplates {
  return templatesByLang[lang];
}
