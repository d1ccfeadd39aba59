const wordChar = /[\p{L}\p{N}_]/u;
const latinWord = /^[\p{Script=Latin}\p{N}_]+$/u;

/**
 * The first of `words` that `text` contains, case-insensitively, or undefined. Latin words match
 * whole words only ("ass" is not in "class"); other scripts, which do not separate words with
 * spaces, match as substrings. Plain string search: a user's list can never be a slow regex.
 */
export function findForbiddenWord(text: string, words: readonly string[]): string | undefined {
  const haystack = text.toLowerCase();
  for (const word of words) {
    const needle = word.toLowerCase();
    if (!needle) continue;
    const wholeWord = latinWord.test(needle);
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
      if (!wholeWord) return word;
      const before = haystack[at - 1];
      const after = haystack[at + needle.length];
      if ((!before || !wordChar.test(before)) && (!after || !wordChar.test(after))) return word;
    }
  }
  return undefined;
}
