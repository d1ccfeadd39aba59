import { createHash, createHmac } from 'node:crypto';

/**
 * The form in which an address is kept where it must outlive the comment that gave it (suppressions
 * `MUTE#`, per-recipient caps `MAILCAP#`) and where it goes into links (the unsubscribe token): a keyed
 * hash, HMAC-SHA256 under a key derived from the IP-hash salt (a stored secret, never in the table nor in
 * a mail), of the SHA-256 of the trimmed, lower-cased address; base64url, 43 characters. Without the key,
 * a guessed address cannot be tested against it.
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

/** SHA-256 of the normalised address, hex: the unkeyed hash, the input of the keyed one. */
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

/** The address hasher of a site whose IP-hash salt is `salt`. */
export function createAddressHasher(salt: string): HashAddress {
  const key = addressKey(salt);
  return (address) => createHmac('sha256', key).update(unkeyedAddressHash(address)).digest('base64url');
}
