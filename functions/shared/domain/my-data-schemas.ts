import { captchaTokenSchema } from './comment-schemas.js';
import { limits } from './limits.js';
import * as z from './zod.js';

/**
 * `POST /api/my-data {email, turnstile?, recaptchaV3?}`: the address a commenter asks their data for (the link is
 * mailed there), and the captcha's token where one is in force.
 */
export const myDataRequestBodySchema = z.object({
  email: z.email().check(z.maxLength(limits.mailChars)),
  turnstile: captchaTokenSchema,
  recaptchaV3: captchaTokenSchema,
});
