import * as z from 'zod';
import { limits } from './limits.js';
import { countUrlSchema, pagePathSchema } from './page-path.js';

/** Sort orders of the list; `create_time` is the documented alias of oldest first. */
export const sortOrders = ['insertedAt_desc', 'insertedAt_asc', 'like_desc'] as const;

/** A sort order of the list. */
export type SortOrder = (typeof sortOrders)[number];

/** Comment ids: ours are ULIDs; imported ones are alphanumeric too. Numbers are accepted as text. */
export const commentIdSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'must be letters and digits')
      .max(limits.idChars),
  );

/** `GET /api/comment?path&page&pageSize&sortBy`. */
export const listQuerySchema = z.object({
  path: pagePathSchema,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(limits.pageSizeMax).default(10),
  sortBy: z
    .enum([...sortOrders, 'create_time'])
    .default('insertedAt_desc')
    .transform((sort): SortOrder => (sort === 'create_time' ? 'insertedAt_asc' : sort)),
});

/** `GET /api/comment?type=count&url=...`: no url (or only empty ones) means the whole site. */
export const countQuerySchema = z.object({
  url: z.array(countUrlSchema).max(limits.pathsPerRequest),
});

/** `GET /api/comment?type=recent&count=N`. */
export const recentQuerySchema = z.object({
  count: z.coerce.number().int().min(1).max(limits.recentCountMax).default(10),
});

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    // Browsers drop control characters inside URLs (`java\tscript:`): refuse them everywhere.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not contain control characters')
    .nullish()
    .transform((value) => value?.trim() ?? '');

/** `POST /api/comment`: the widget's body; unknown keys (captcha tokens...) are ignored. */
export const submitBodySchema = z
  .object({
    comment: z
      .string()
      .max(limits.commentChars)
      .refine((text) => text.trim().length > 0, 'must not be blank'),
    url: pagePathSchema,
    nick: optionalText(limits.nickChars),
    mail: optionalText(limits.mailChars),
    link: optionalText(limits.linkChars).refine(
      // The widget renders `link` as an href: only web addresses (a bare host gets https://).
      (link) => link === '' || /^https?:\/\//i.test(link) || !/^[a-z][a-z0-9+.-]*:/i.test(link),
      'must be an http(s) address',
    ),
    ua: optionalText(limits.userAgentChars),
    pid: commentIdSchema.nullish(),
    rid: commentIdSchema.nullish(),
    at: optionalText(limits.nickChars),
  })
  .refine((body) => (body.pid == null) === (body.rid == null), {
    message: 'pid and rid go together: a reply names its parent and its thread root',
    path: ['rid'],
  });

/** A parsed comment submission. */
export type SubmitBody = z.output<typeof submitBodySchema>;

/** `PUT /api/comment/{id}` from an anonymous visitor: exactly a like or an unlike. */
export const likeBodySchema = z.object({ like: z.boolean() }).strict();
