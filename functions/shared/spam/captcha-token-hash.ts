import { createHmac } from 'node:crypto';

/**
 * The form in which a captcha token is remembered as used (captcha-tokens.ts): HMAC-SHA256 under a key derived
 * from the IP-hash salt with a label of its own (so it is never an IP hash nor an address hash), base64url, 43
 * characters. The table keeps no token, only this.
 */
export type HashCaptchaToken = (token: string) => string;

/** The token hasher of a site whose IP-hash salt is `salt`. */
export function createCaptchaTokenHasher(salt: string): HashCaptchaToken {
  const key = createHmac('sha256', salt).update('marginalia captcha token v1').digest();
  return (token) => createHmac('sha256', key).update(token).digest('base64url');
}
