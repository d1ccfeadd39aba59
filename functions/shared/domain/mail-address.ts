/**
 * One plain address, as the notifier mails (notify-config.ts `singleAddress`): no list, no display name, no
 * white space, a dot in the domain. What a comment's `mail` must be to count as an address at all.
 */
const plainAddress = /^[^\s,;:<>"()[\]\\@]+@[^\s,;:<>"()[\]\\@]+\.[^\s,;:<>"()[\]\\@]+$/;

/** True when `mail` is one plain address (trimmed); an empty or made-up mail is not. */
export function isPlainAddress(mail: string): boolean {
  const trimmed = mail.trim();
  return trimmed.length <= 254 && plainAddress.test(trimmed);
}
