import * as z from 'zod';

const flag = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== '' && !/^(0|false)$/i.test(value));

const originList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '*')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(
        z.union([z.literal('*'), z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)]),
      )
      .min(1),
  );

const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(200)).max(1000));

const configSchema = z.object({
  TABLE_NAME: z.string().min(3).max(255),
  DYNAMODB_ENDPOINT: z.url().optional(),
  IPQPS: z.coerce.number().int().min(0).max(86_400).default(60),
  IP_HASH_SALT: z.string().min(16),
  ALLOWED_ORIGINS: originList,
  AVATAR_PROXY: z
    .string()
    .optional()
    .transform((value) => (value && !/^false$/i.test(value) ? value : undefined))
    .pipe(z.url().optional()),
  GRAVATAR_STR: z.string().max(1024).optional(),
  DISABLE_USERAGENT: flag,
  /** The HMAC key of sign-in tokens (Waline's name). Locally; on AWS the SSM parameter below. */
  JWT_TOKEN: z.string().min(32).optional(),
  /** Name of an SSM SecureString holding the token key, read once per cold start. */
  JWT_SECRET_PARAMETER: z.string().min(1).max(2048).optional(),
  /** Port of the Parameters and Secrets extension that reads it (the layer's own variable). */
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: z.coerce.number().int().min(1).max(65_535).default(2773),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /**
   * How long a warm instance reuses an article's comments and the recent comments it read, in ms; 0
   * reads DynamoDB on every request. Its own writes are seen at once, other instances' within this.
   */
  LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** New comments wait for approval (Waline's name). */
  COMMENT_AUDIT: flag,
  /** Comma-separated words; a comment containing one as a word is marked spam (Waline's name). */
  FORBIDDEN_WORDS: list,
  /** Comma-separated IP hashes (as the moderation list shows them) whose comments are refused. */
  BLOCKED_IP_HASHES: list,
  /** Akismet spam check, only when a key is set (Waline's name; `false` also turns it off). */
  AKISMET_KEY: z
    .string()
    .optional()
    .transform((value) => (value && !/^false$/i.test(value) ? value : undefined)),
  /** The site's address, for Akismet's `blog` and permalinks (Waline's name). */
  SITE_URL: z.url().optional(),
});

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
