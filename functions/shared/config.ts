import { z } from 'zod';

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
