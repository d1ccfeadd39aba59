import { AppError } from './errors.js';
import { type Lang, translate } from './messages.js';

/** The 400 of a value the rules refuse, naming the field and the rule (as `details` too). */
export function invalidField(lang: Lang, field: string, rule: string): AppError {
  return new AppError('invalid_input', translate(lang, 'invalidInput', { problems: `${field}: ${rule}` }), {
    [field]: rule,
  });
}
