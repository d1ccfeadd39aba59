import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption of the secrets an account keeps at rest (its TOTP secret): AES-256-GCM under a key derived by HKDF
 * (SHA-256) from the token key, with the account's id as additional data, so that a sealed secret copied onto
 * another account does not open there. Stored as `v1.<iv>.<ciphertext><tag>` (base64url).
 */

/** What a derived key is for: each purpose gets its own key, never the token key itself. */
export type KeyPurpose = 'totp-secret' | 'recovery-code';

const version = 'v1';
const ivBytes = 12;
const tagBytes = 16;

/** A 32-byte key for `purpose` derived from `rootKey` (the token key): HKDF-SHA-256, no salt, the purpose as info. */
export function deriveKey(rootKey: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), `marginalia/${purpose}/${version}`, 32));
}

/** Encrypts `plaintext` for the account `accountId` with a {@link deriveKey} key. */
export function sealSecret(key: Buffer, accountId: string, plaintext: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(accountId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [version, iv.toString('base64url'), sealed.toString('base64url')].join('.');
}

/**
 * The plaintext of a {@link sealSecret} value, or undefined when it is not one, was sealed for another account,
 * was altered, or was sealed under another key (the token key changed since).
 */
export function openSecret(key: Buffer, accountId: string, sealed: string): string | undefined {
  const [scheme, ivText, bodyText, ...rest] = sealed.split('.');
  if (scheme !== version || !ivText || !bodyText || rest.length > 0) return undefined;
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== ivBytes || body.length < tagBytes) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
    decipher.setAAD(Buffer.from(accountId, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - tagBytes));
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - tagBytes)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    // GCM refuses a wrong key, a wrong account or any altered byte alike: none of them is a secret of ours.
    return undefined;
  }
}
