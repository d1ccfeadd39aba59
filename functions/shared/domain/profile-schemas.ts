import { controlCharacters, wellFormed } from './comment-schemas.js';
import { limits } from './limits.js';
import * as z from './zod.js';

const noControlCharacters = z.refine<string>(
  (text) => !controlCharacters.test(text),
  'must not contain control characters',
);

/** A string, trimmed before `checked` judges it. */
const trimmed = (checked: z.ZodMiniString<string>) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((text) => text.trim()),
    ),
    checked,
  );

/**
 * `PUT /api/user`, Waline's shape: the signed-in administrator's display name, link (`url`) and password,
 * each optional. An empty `password` changes nothing, as on Waline; an empty `url` removes the link.
 * `email` may only repeat the account's own (the route checks it: an account is keyed by its address).
 * Other keys Waline's admin page sends (`label`, `avatar`, `2fa`...) are ignored: administrators here have
 * no label, and their avatar is computed from their address like everyone's.
 */
export const profileBodySchema = z.object({
  display_name: z.optional(
    trimmed(
      z
        .string()
        .check(
          z.minLength(1, 'must not be blank'),
          z.maxLength(limits.nickChars),
          noControlCharacters,
          wellFormed,
        ),
    ),
  ),
  url: z.optional(
    trimmed(
      z.string().check(
        z.maxLength(limits.linkChars),
        noControlCharacters,
        z.refine(
          // The widget shows it as an href: a web address or nothing, never `javascript:` and friends.
          (link) => link === '' || (/^https?:\/\/[^/?#\s]/i.test(link) && URL.canParse(link)),
          'must be an http(s) address, or empty to remove it',
        ),
      ),
    ),
  ),
  password: z.optional(
    z.string().check(
      z.maxLength(limits.passwordMaxChars),
      z.refine(
        (password) => password === '' || password.length >= limits.passwordMinChars,
        `must be at least ${limits.passwordMinChars} characters`,
      ),
    ),
  ),
  email: z.optional(z.string().check(z.maxLength(limits.mailChars))),
});

/** A parsed `PUT /api/user` body. */
export type ProfileBody = z.output<typeof profileBodySchema>;
