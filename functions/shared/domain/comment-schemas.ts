import { limits } from './limits.js';
import { countUrlSchema, pagePathSchema } from './page-path.js';
import { coercedInt } from './coerced-int.js';
import * as z from './zod.js';

/** Sort orders of the list; `create_time` is the documented alias of oldest first. */
export const sortOrders = ['insertedAt_desc', 'insertedAt_asc', 'like_desc'] as const;

/** A sort order of the list. */
export type SortOrder = (typeof sortOrders)[number];

/** Comment ids: ours are ULIDs; imported ones are alphanumeric too. Numbers are accepted as text. */
export const commentIdSchema = z.pipe(
  z.pipe(z.union([z.string(), z.number().check(z.int(), z.nonnegative())]), z.transform(String)),
  z.string().check(z.regex(/^[A-Za-z0-9]+$/, 'must be letters and digits'), z.maxLength(limits.idChars)),
);

/** `GET /api/comment?path&page&pageSize&sortBy`. */
export const listQuerySchema = z.object({
  path: pagePathSchema,
  page: coercedInt({ min: 1, max: 100_000, default: 1 }),
  pageSize: coercedInt({ min: 1, max: limits.pageSizeMax, default: 10 }),
  sortBy: z.pipe(
    z._default(z.enum([...sortOrders, 'create_time']), 'insertedAt_desc'),
    z.transform((sort): SortOrder => (sort === 'create_time' ? 'insertedAt_asc' : sort)),
  ),
});

/** `GET /api/comment?type=count&url=...`: no url (or only empty ones) means the whole site. */
export const countQuerySchema = z.object({
  url: z.array(countUrlSchema).check(z.maxLength(limits.pathsPerRequest)),
});

/** `GET /api/comment?type=recent&count=N`. */
export const recentQuerySchema = z.object({
  count: coercedInt({ min: 1, max: limits.recentCountMax, default: 10 }),
});

/** `GET /api/comment/rss?path&count`: the site's feed, or one page's with `path`. */
export const feedQuerySchema = z.object({
  path: z.optional(pagePathSchema),
  count: coercedInt({ min: 1, max: limits.feedItemsMax, default: 20 }),
});

/** C0 and C1 control characters and DEL: browsers drop them inside URLs (`java\tscript:`). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, but for tab, newline and carriage return, which a comment's text may hold. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharactersButWhitespace = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Text is well-formed Unicode: a lone surrogate cannot be stored as UTF-8 faithfully, and JSON writes
 * each as six bytes.
 */
export const wellFormed = z.refine<string>(
  (text) => !loneSurrogate.test(text),
  'must be well-formed Unicode (no lone surrogates)',
);

const optionalText = (max: number) =>
  z.pipe(
    z.nullish(
      z.string().check(
        z.maxLength(max),
        z.refine((text) => !controlCharacters.test(text), 'must not contain control characters'),
        wellFormed,
      ),
    ),
    z.transform((value) => value?.trim() ?? ''),
  );

/**
 * A comment's raw text: up to `limits.commentChars`, not blank, no control characters but tab, newline
 * and carriage return (JSON writes each other one as six bytes: they would only inflate answers).
 */
export const commentTextSchema = z.string().check(
  z.maxLength(limits.commentChars),
  z.refine((text) => text.trim().length > 0, 'must not be blank'),
  z.refine(
    (text) => !controlCharactersButWhitespace.test(text),
    'must not contain control characters other than tab, newline and carriage return',
  ),
  wellFormed,
);

/** A captcha token as the widget sends it (`turnstile`, `recaptchaV3`): bounded, and absent when blank. */
export const captchaTokenSchema = z.optional(
  z
    .string()
    .check(z.maxLength(limits.captchaTokenChars), z.regex(/^[\x21-\x7e]*$/, 'must be printable ASCII')),
);

/** `POST /api/comment`: the widget's body, captcha tokens included; other unknown keys are ignored. */
export const submitBodySchema = z
  .object({
    comment: commentTextSchema,
    url: pagePathSchema,
    nick: optionalText(limits.nickChars),
    mail: optionalText(limits.mailChars),
    link: optionalText(limits.linkChars).check(
      z.refine(
        // The widget renders `link` as an href: only web addresses (a bare host gets https://).
        (link) => link === '' || /^https?:\/\//i.test(link) || !/^[a-z][a-z0-9+.-]*:/i.test(link),
        'must be an http(s) address',
      ),
    ),
    ua: optionalText(limits.userAgentChars),
    pid: z.nullish(commentIdSchema),
    rid: z.nullish(commentIdSchema),
    at: optionalText(limits.nickChars),
    turnstile: captchaTokenSchema,
    recaptchaV3: captchaTokenSchema,
  })
  .check(
    z.refine((body) => (body.pid == null) === (body.rid == null), {
      message: 'pid and rid go together: a reply names its parent and its thread root',
      path: ['rid'],
    }),
  );

/** A parsed comment submission. */
export type SubmitBody = z.output<typeof submitBodySchema>;

/** `PUT /api/comment/{id}` from an anonymous visitor: exactly a like or an unlike. */
export const likeBodySchema = z.strictObject({ like: z.boolean() });
