import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * An address an outbox event must carry for one mail (the former address of an account whose address
 * changed: the notifier reads the account when it sends, and finds the new one there), sealed with AES-256-GCM
 * under a key derived from the link key, so the table never holds it in clear and nobody without the link key
 * can read or forge it. Form: `iv.ciphertext.tag`, each base64url.
 */

const label = 'marginalia sealed address v1';

function keyOf(linkSecret: string): Buffer {
  return createHmac('sha256', linkSecret).update(label).digest();
}

/** `address` sealed under the link key `linkSecret`. */
export function sealAddress(linkSecret: string, address: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(linkSecret), iv);
  const sealed = Buffer.concat([cipher.update(address, 'utf8'), cipher.final()]);
  return [iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The address `sealed` holds, or undefined when the link key did not seal it (or it was changed). */
export function openAddress(linkSecret: string, sealed: string): string | undefined {
  const [iv, text, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !text || !tag || iv.length !== 12 || tag.length !== 16 || text.length > 1024) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(linkSecret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
