import { createHash } from 'node:crypto';

/**
 * The form in which an address is kept where it must outlive the comment that gave it (suppressions,
 * per-recipient caps) and where it goes into links: SHA-256 of the trimmed, lower-cased address, hex.
 */
export function addressHash(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('hex');
}
