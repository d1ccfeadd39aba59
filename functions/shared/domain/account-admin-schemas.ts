import { coercedInt } from './coerced-int.js';
import { commentIdSchema, controlCharacters } from './comment-schemas.js';
import * as z from './zod.js';

/** The longest label an administrator may give an account (Waline's badge). */
export const labelMaxChars = 32;

/** `GET /api/user?page&pageSize` by an administrator: a page of accounts (Waline's admin sends `page` only). */
export const accountListQuerySchema = z.object({
  page: coercedInt({ min: 1, max: 10_000, default: 1 }),
  pageSize: coercedInt({ min: 1, max: 100, default: 10 }),
});

/** An account id in a path: a ULID (or a migrated administrator's id), letters and digits. */
export const accountIdSchema = commentIdSchema;

/**
 * `PUT /api/user/{id}` by an administrator, each key optional: `type`, a `label` (a string of up to 32
 * characters; `null` or `''` removes it), and `state: 'active'` to admit an account awaiting approval.
 */
export const accountAdminChangeSchema = z.object({
  type: z.optional(z.enum(['administrator', 'guest', 'banned'])),
  label: z.optional(
    z.nullable(
      z
        .pipe(
          z.string(),
          z.transform((text) => text.trim()),
        )
        .check(
          z.maxLength(labelMaxChars),
          z.refine((text) => !controlCharacters.test(text), 'must not contain control characters'),
        ),
    ),
  ),
  state: z.optional(z.literal('active')),
  /** `false` turns the account's TOTP off without a code: a lost authenticator, or a rotated token key. */
  totp: z.optional(z.literal(false)),
});
