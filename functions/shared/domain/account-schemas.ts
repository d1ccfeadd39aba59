import { captchaTokenSchema } from './comment-schemas.js';
import { limits } from './limits.js';
import { profileBodySchema } from './profile-schemas.js';
import * as z from './zod.js';

/**
 * The bodies of the account life-cycle routes (issue 27), in Waline's shapes where Waline has them. Each
 * field's rule is said in words, so a refusal names the field and the rule.
 */

/** An address: one plain address, bounded as a mail is. */
const addressSchema = z.email().check(z.maxLength(limits.mailChars));

/** A new password: as the profile page's, but required. */
export const newPasswordSchema = z
  .string()
  .check(
    z.minLength(limits.passwordMinChars, `must be at least ${limits.passwordMinChars} characters`),
    z.maxLength(limits.passwordMaxChars),
  );

/** A mail link's token, as a page posts it back: printable ASCII, bounded like the links' readers. */
const linkTokenSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(2048), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII'));

/**
 * `POST /api/user`, Waline's registration: `{display_name, email, password, url, turnstile?, recaptchaV3?}`.
 * Other keys (`label`, `type`, a provider's id) are ignored: registration sets none of them.
 */
export const registerBodySchema = z.object({
  // The profile's rules (1 to 100 characters, trimmed, no control characters), but required.
  display_name: z.nonoptional(profileBodySchema.shape.display_name),
  email: addressSchema,
  password: newPasswordSchema,
  url: profileBodySchema.shape.url,
  turnstile: captchaTokenSchema,
  recaptchaV3: captchaTokenSchema,
});

/** A parsed registration. */
export type RegisterBody = z.output<typeof registerBodySchema>;

/** `PUT /api/user/password`, Waline's reset request: the address to mail a reset link to. */
export const resetRequestBodySchema = z.object({ email: addressSchema });

/** `POST /api/user/password`: the reset page's new password, with the token of the mailed link. */
export const resetBodySchema = z.object({ token: linkTokenSchema, password: newPasswordSchema });

/** An avatar an account chooses: an https address (shown as an image to every reader), or empty to remove it. */
const avatarSchema = z.string().check(
  z.maxLength(limits.linkChars),
  z.refine(
    (avatar) => avatar === '' || (/^https:\/\/[^/?#\s]/i.test(avatar) && URL.canParse(avatar)),
    'must be an https address, or empty to remove it',
  ),
);

/**
 * `PUT /api/user`, the signed-in account's own profile (Waline's shape): `display_name`, `url`, `avatar`, and,
 * with `currentPassword` (the account's password now), `password` or `email`. `label` and `type` are
 * administrators' (the route refuses them); other keys are ignored.
 */
export const profileChangeBodySchema = z.object({
  display_name: profileBodySchema.shape.display_name,
  url: profileBodySchema.shape.url,
  avatar: z.optional(avatarSchema),
  password: profileBodySchema.shape.password,
  email: z.optional(addressSchema),
  currentPassword: z.optional(z.string().check(z.maxLength(limits.passwordMaxChars))),
});

/** A parsed `PUT /api/user` body. */
export type ProfileChangeBody = z.output<typeof profileChangeBodySchema>;
