import { findForbiddenWord } from './forbidden-words.js';

/** The fields of a comment the word rules read, by the names of the submitted body. */
export type RuledField = 'comment' | 'nick' | 'link';

/** What the word rules read of a comment. */
export interface RuledFields {
  readonly text: string;
  readonly nick: string;
  readonly link: string;
}

/**
 * The first field of `comment` (its text, then its nick, then its link) that contains one of `words`, matched
 * as forbidden-words.ts matches (a Latin word as a whole word, other scripts as substrings), or undefined.
 */
export function fieldWithWord(comment: RuledFields, words: readonly string[]): RuledField | undefined {
  if (words.length === 0) return undefined;
  if (findForbiddenWord(comment.text, words)) return 'comment';
  if (findForbiddenWord(comment.nick, words)) return 'nick';
  if (findForbiddenWord(comment.link, words)) return 'link';
  return undefined;
}

/**
 * A name as it looks: compatibility forms folded (a fullwidth `Ａ` is `A`), invisible format characters
 * (zero-width spaces and joiners, direction marks) and surrounding spaces removed, lower case.
 */
function displayedName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .trim()
    .toLowerCase();
}

/**
 * True when `nick` looks like one of `names` (Remark42's RESTRICTED_NAMES): equal once case, surrounding
 * spaces, compatibility forms and invisible characters are set aside, so `Admin\u200B` or `Ａdmin` cannot pass
 * for a reserved `admin`.
 */
export function isRestrictedName(nick: string, names: readonly string[]): boolean {
  const wanted = displayedName(nick);
  return wanted !== '' && names.some((name) => displayedName(name) === wanted);
}
