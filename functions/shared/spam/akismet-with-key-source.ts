import { createAkismetCheck, type SpamCheck } from './akismet.js';

/**
 * Akismet with a key read when a comment needs it (akismet-key.ts): the key can be rotated, created or
 * removed without a deploy. Without a key there is nothing to ask, so every comment is `ham`, as with
 * Akismet off; a key that cannot be read is `unknown`, and the comment waits for moderation.
 */
export function createAkismetCheckWithKeySource(
  key: () => Promise<string | undefined>,
  options: { readonly siteUrl: string; readonly timeoutMs?: number; readonly fetch?: typeof fetch },
): SpamCheck {
  let check: { key: string; run: SpamCheck } | undefined;
  return async (input) => {
    let current: string | undefined;
    try {
      current = await key();
    } catch {
      return 'unknown';
    }
    if (!current) return 'ham';
    if (check?.key !== current)
      check = { key: current, run: createAkismetCheck({ ...options, key: current }) };
    return check.run(input);
  };
}
