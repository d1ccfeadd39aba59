/** The domains where Gmail ignores dots in the local part: `j.doe@gmail.com` is `jdoe@gmail.com`. */
const dotlessDomains = new Set(['gmail.com', 'googlemail.com']);

/**
 * The form of an address that caps, suppressions and confirmations key on, so that one inbox is one
 * allowance however its address is spelt: trimmed and lower-cased, a `+tag` removed from the local part
 * (`jo+news@` is `jo@`), and the dots of the local part removed at gmail.com and googlemail.com. Mail
 * still goes to the address as written. A text without `@` is only trimmed and lower-cased.
 */
export function normalizeAddress(address: string): string {
  const lowered = address.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  if (at < 0) return lowered;
  const domain = lowered.slice(at + 1);
  const tagless = lowered.slice(0, at).split('+')[0] ?? '';
  const local = dotlessDomains.has(domain) ? tagless.replaceAll('.', '') : tagless;
  return `${local}@${domain}`;
}
