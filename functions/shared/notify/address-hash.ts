import { createHash, createHmac } from 'node:crypto';
import { normalizeAddress } from './normalize-address.js';

/**
 * The form in which an address is kept where it must outlive the comment that gave it (suppressions
 * `MUTE#`, per-recipient caps `MAILCAP#`, confirmations `CONFIRM#`) and where it goes into links (the
 * unsubscribe and confirmation tokens): a keyed hash, HMAC-SHA256 under a key derived from the IP-hash salt
 * (a stored secret, never in the table nor in a mail), of the SHA-256 of the normalised address
 * (normalize-address.ts: `Jo+x@gmail.com` and `j.o@gmail.com` are one); base64url, 43 characters. Without
 * the key, a guessed address cannot be tested against it.
 */
export type HashAddress = (address: string) => string;

/** What a keyed address hash looks like (43 base64url characters). */
export const addressHashPattern = /^[A-Za-z0-9_-]{43}$/;

/** What the unkeyed hash that suppressions carried before looks like (64 hex digits): only the migration reads it. */
export const unkeyedHashPattern = /^[0-9a-f]{64}$/;

/** The address key from the salt: HMAC(salt, label), so an address hash is never an IP hash nor the reverse. */
function addressKey(salt: string): Buffer {
  return createHmac('sha256', salt).update('marginalia address hash v1').digest();
}

/**
 * SHA-256 of the trimmed, lower-cased address, hex: the unkeyed hash suppressions carried before they were
 * keyed, and the input of the former keyed hash ({@link createFormerAddressHasher}).
 */
export function unkeyedAddressHash(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('hex');
}

/**
 * The keyed hash of an address whose unkeyed hash (SHA-256 hex) is `unkeyed`: what lets `npm run migrate`
 * rewrite a suppression kept under the unkeyed hash without knowing the address.
 */
export function keyUnkeyedHash(salt: string, unkeyed: string): string {
  return createHmac('sha256', addressKey(salt)).update(unkeyed).digest('base64url');
}

/**
 * The address hasher of a site whose IP-hash salt is `salt`: the keyed hash of the normalised address. For an
 * address that normalisation leaves as it was (no `+tag`, no dot at Gmail) it is the former hash, so what
 * was stored under that stays found.
 */
export function createAddressHasher(salt: string): HashAddress {
  const key = addressKey(salt);
  return (address) =>
    createHmac('sha256', key)
      .update(unkeyedAddressHash(normalizeAddress(address)))
      .digest('base64url');
}

/**
 * The hasher before normalisation: the keyed hash of the trimmed, lower-cased address, as written as it is.
 * Read only: unsubscribe links mailed before carry it (they work for a year), so the notifier also checks
 * suppressions under it, and `npm run migrate` copies them to the normalised hash.
 */
export function createFormerAddressHasher(salt: string): HashAddress {
  const key = addressKey(salt);
  return (address) => createHmac('sha256', key).update(unkeyedAddressHash(address)).digest('base64url');
}
