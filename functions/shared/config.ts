import { templatePublishesMail } from './domain/avatar.js';
import { coercedInt } from './domain/coerced-int.js';
import type { MarkdownFeatures } from './domain/render-markdown.js';
import * as z from './domain/zod.js';

const flag = z.pipe(
  z.optional(z.string()),
  z.transform((value) => value !== undefined && value !== '' && !/^(0|false)$/i.test(value)),
);

/** A comma-separated variable as its trimmed, non-empty items; `fallback` when it is unset. */
const commaSeparated = (fallback: string) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((value) =>
      (value ?? fallback)
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  );

const originList = z.pipe(
  commaSeparated('*'),
  z
    .array(
      z.union([
        z.literal('*'),
        z.pipe(
          z.url({ protocol: /^https?$/ }),
          z.transform((url) => new URL(url).origin),
        ),
      ]),
    )
    .check(z.minLength(1)),
);

const list = z.pipe(commaSeparated(''), z.array(z.string().check(z.maxLength(200))).check(z.maxLength(1000)));

/** A Waline `MARKDOWN_*` switch: on unless `0` or `false` (any case), so on when unset or empty. */
const onUnlessOff = z.pipe(
  z.optional(z.string()),
  z.transform((value) => value === undefined || !/^(0|false)$/i.test(value)),
);

/**
 * Waline's `MARKDOWN_TEX`: `mathjax` (its default) or `katex` turn TeX on, `0` or `false` off. Both
 * render MathML here (functions/shared/domain/tex-to-mathml.ts), where Waline's MathJax draws SVG.
 */
const texSetting = z.pipe(
  z.optional(z.string().check(z.regex(/^(|mathjax|katex|0|false)$/i, 'must be mathjax, katex, 0 or false'))),
  z.transform((value) => !/^(0|false)$/i.test(value ?? '')),
);

/** An optional setting that `false` (any case) also turns off. */
const unlessFalse = z.pipe(
  z.optional(z.string()),
  z.transform((value) => (value && !/^false$/i.test(value) ? value : undefined)),
);

const environmentSchema = z.object({
  TABLE_NAME: z.string().check(z.minLength(3), z.maxLength(255)),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  /**
   * Timeouts of each DynamoDB request, in ms; the SDK tries 3 times, so 3 x the request timeout (plus
   * a few hundred ms of backoff) stays inside the functions' 10 s.
   */
  DYNAMODB_CONNECT_TIMEOUT_MS: coercedInt({ min: 10, max: 60_000, default: 1000 }),
  DYNAMODB_REQUEST_TIMEOUT_MS: coercedInt({ min: 10, max: 60_000, default: 2500 }),
  IPQPS: coercedInt({ min: 0, max: 86_400, default: 60 }),
  IP_HASH_SALT: z.string().check(z.minLength(16)),
  ALLOWED_ORIGINS: originList,
  AVATAR_PROXY: z.pipe(unlessFalse, z.optional(z.url())),
  /**
   * Avatar URL template (Waline's name): `{{nick}}`, `{{mail|md5}}`, `{{mail|sha256}}`. A bare
   * `{{mail}}` is refused: it would publish every commenter's address.
   */
  GRAVATAR_STR: z.optional(
    z.string().check(
      z.maxLength(1024),
      z.refine(
        (template) => !templatePublishesMail(template),
        'must hash the mail, as {{mail|md5}} or {{mail|sha256}}: a bare {{mail}} publishes every address',
      ),
    ),
  ),
  /**
   * Waline's QQ avatar rule (Marginalia's name; Waline always applies it): a nick of digits or a
   * `<digits>@qq.com` mail shows that QQ number's avatar, whose URL spells the number out, so the
   * address. Off by default: every other address is shown as libravatar's md5 of it.
   */
  AVATAR_QQ: flag,
  DISABLE_USERAGENT: flag,
  /** The HMAC key of sign-in tokens (Waline's name). Locally; on AWS the SSM parameter below. */
  JWT_TOKEN: z.optional(z.string().check(z.minLength(32))),
  /** Name of an SSM SecureString holding the token key, read through the extension below. */
  JWT_SECRET_PARAMETER: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  /**
   * The key that signs the links in mails (unsubscribe, approve / spam / delete), a secret of its own, never
   * the sign-in key: the notifier holds it and cannot sign a sign-in token. Locally; on AWS the SSM parameter below.
   */
  LINK_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** Name of an SSM SecureString holding the link key, read through the extension below. */
  LINK_SECRET_PARAMETER: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  /** Port of the Parameters and Secrets extension that reads it (the layer's own variable). */
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: coercedInt({ min: 1, max: 65_535, default: 2773 }),
  /**
   * How long a warm instance reuses a secret it read through the extension (the token key, the
   * Akismet key), in seconds; a rotated value is used within this plus the extension's own cache.
   */
  SECRETS_CACHE_SECONDS: coercedInt({ min: 0, max: 3600, default: 120 }),
  TOKEN_TTL_HOURS: coercedInt({ min: 1, max: 24 * 90, default: 24 * 7 }),
  /**
   * How long a warm instance reuses an article's comments and the recent comments it read, in ms; 0
   * reads DynamoDB on every request. An instance sees its own writes to an article at once; the
   * recent list and other instances' writes within this.
   */
  LIST_CACHE_MS: coercedInt({ min: 0, max: 60_000, default: 1000 }),
  /** New comments wait for approval (Waline's name). */
  COMMENT_AUDIT: flag,
  /** Comma-separated words; a comment containing one as a word is marked spam (Waline's name). */
  FORBIDDEN_WORDS: list,
  /** Comma-separated IP hashes (as the moderation list shows them) whose comments are refused. */
  BLOCKED_IP_HASHES: list,
  /** Akismet spam check, only when a key is set (Waline's name; `false` also turns it off). */
  AKISMET_KEY: unlessFalse,
  /** Name of an SSM SecureString holding the Akismet key, read through the extension (on AWS). */
  AKISMET_KEY_PARAMETER: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  /** The site's address, for Akismet's `blog` and permalinks (Waline's name). */
  SITE_URL: z.optional(z.url()),
  /** The site's name, for the titles of the comment feeds (Waline's name); blank is unset. */
  SITE_NAME: z.pipe(
    z.optional(z.string().check(z.maxLength(200))),
    z.transform((name) => name?.trim() || undefined),
  ),
  /** Waline's markdown extensions, each on unless turned off (grouped as `markdown` below). */
  MARKDOWN_HIGHLIGHT: onUnlessOff,
  MARKDOWN_EMOJI: onUnlessOff,
  MARKDOWN_SUB: onUnlessOff,
  MARKDOWN_SUP: onUnlessOff,
  MARKDOWN_TEX: texSetting,
});

/** The settings, with the MARKDOWN_* switches as the renderer takes them. */
const configSchema = z.pipe(
  environmentSchema,
  z.transform(
    ({ MARKDOWN_HIGHLIGHT, MARKDOWN_EMOJI, MARKDOWN_SUB, MARKDOWN_SUP, MARKDOWN_TEX, ...settings }) => {
      const markdown: MarkdownFeatures = {
        highlight: MARKDOWN_HIGHLIGHT,
        emoji: MARKDOWN_EMOJI,
        sub: MARKDOWN_SUB,
        sup: MARKDOWN_SUP,
        tex: MARKDOWN_TEX,
      };
      return { ...settings, markdown };
    },
  ),
);

/** The service's settings, read once from the environment at cold start. */
export type Config = z.output<typeof configSchema>;

/** Parses `env` into a Config, or throws one error naming every bad variable and its rule. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}
