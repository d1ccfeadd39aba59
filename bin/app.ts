import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { MarginaliaStack, signInProviderVariables } from '../lib/marginalia-stack.js';
import { notificationVariables } from '../lib/notification-settings.js';
import { originsFromSecureDomains } from '../functions/shared/http/secure-domains.js';
import { parseLevels } from '../functions/shared/domain/levels.js';

const app = new App();

// `-c key=value` gives strings, cdk.json gives JSON values: accept both.
const context = (key: string): unknown => {
  const value: unknown = app.node.tryGetContext(key);
  return value === '' ? undefined : value;
};
const text = (key: string): string | undefined => {
  const value = context(key);
  return value === undefined ? undefined : String(value);
};
const number = (key: string): number | undefined => {
  const value = context(key);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new Error(`context ${key}: "${String(value)}" is not a number`);
  return parsed;
};
const flag = (key: string): boolean | undefined => {
  const value = context(key);
  return value === undefined ? undefined : value === true || /^(1|true|yes)$/i.test(String(value));
};
const list = (key: string): string[] | undefined => {
  const value = context(key);
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
  return items.map((item) => item.trim()).filter(Boolean);
};
const texEngine = (value: string | undefined): 'mathjax' | 'katex' | false | undefined => {
  if (value === undefined) return undefined;
  if (/^(0|false)$/i.test(value)) return false;
  if (value === 'mathjax' || value === 'katex') return value;
  throw new Error(`context markdownTex: "${value}" is not mathjax, katex or false`);
};
/** `registration` (or Waline's `REGISTRATION`): open, approval or closed, any case. */
const registrationOf = (value: string | undefined): 'open' | 'approval' | 'closed' | undefined => {
  const given = (value ?? text('REGISTRATION'))?.trim().toLowerCase();
  if (given === undefined) return undefined;
  if (given === 'open' || given === 'approval' || given === 'closed') return given;
  throw new Error(`context registration: "${given}" is not open, approval or closed`);
};
/** `eraseWithReplies` (or `ERASE_WITH_REPLIES`): placeholder or anonymise, any case. */
const eraseWithRepliesOf = (value: string | undefined): 'placeholder' | 'anonymise' | undefined => {
  const given = (value ?? text('ERASE_WITH_REPLIES'))?.trim().toLowerCase();
  if (given === undefined) return undefined;
  if (given === 'placeholder' || given === 'anonymise') return given;
  throw new Error(`context eraseWithReplies: "${given}" is not placeholder or anonymise`);
};
const retention = (key: string): RetentionDays | undefined => {
  const days = number(key);
  if (days === undefined) return undefined;
  if (!(Object.values(RetentionDays) as unknown[]).includes(days)) {
    throw new Error(
      `context ${key}: ${days} is not a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, ...)`,
    );
  }
  return days as RetentionDays;
};

/** `levels`: Waline's LEVELS, a comma list (or a JSON array) of non-decreasing whole thresholds. */
const levels = (): number[] | undefined => {
  const items = list('levels');
  if (items === undefined) return undefined;
  try {
    return parseLevels(items.join(','));
  } catch (error) {
    throw new Error(`context levels: ${(error as Error).message}`, { cause: error });
  }
};

/** `allowedOrigins`, or Waline's name for it, `SECURE_DOMAINS` (hosts like `blog.example`): one setting, given once. */
const allowedOrigins = (): string[] | undefined => {
  const origins = list('allowedOrigins');
  const secureDomains = list('SECURE_DOMAINS');
  if (origins !== undefined && secureDomains !== undefined) {
    throw new Error('allowedOrigins and SECURE_DOMAINS are the same setting: give one of them');
  }
  return origins ?? (secureDomains === undefined ? undefined : originsFromSecureDomains(secureDomains));
};

new MarginaliaStack(app, 'Marginalia', {
  description: 'Marginalia: Waline-compatible comments and reading counts (API Gateway, Lambda, DynamoDB).',
  allowedOrigins: allowedOrigins(),
  ipqps: number('ipqps'),
  listCacheMs: number('listCacheMs'),
  avatarProxy: text('avatarProxy'),
  gravatarStr: text('gravatarStr'),
  disableUserAgent: flag('disableUserAgent'),
  disableRegion: flag('disableRegion'),
  levels: levels(),
  avatarQq: flag('avatarQq'),
  throttleRateLimit: number('throttleRateLimit'),
  throttleBurstLimit: number('throttleBurstLimit'),
  // Unset (the default): no reservation, so the first deploy works on a new account (docs/deploy.md).
  commentConcurrency: number('commentConcurrency'),
  articleConcurrency: number('articleConcurrency'),
  maxReadUnits: number('maxReadUnits'),
  maxWriteUnits: number('maxWriteUnits'),
  logRetention: retention('logRetentionDays'),
  accessLogRetention: retention('accessLogRetentionDays'),
  alarmEmail: text('alarmEmail'),
  monthlyBudgetUsd: number('monthlyBudgetUsd'),
  alarmErrorThreshold: number('alarmErrorThreshold'),
  alarmCapacityPercent: number('alarmCapacityPercent'),
  jwtSecretParameterName: text('jwtSecretParameterName'),
  linkSecretParameterName: text('linkSecretParameterName'),
  commentAudit: /^first$/i.test(text('commentAudit') ?? '') ? 'first' : flag('commentAudit'),
  registration: registrationOf(text('registration')),
  eraseWithReplies: eraseWithRepliesOf(text('eraseWithReplies')),
  forbiddenWords: list('forbiddenWords'),
  blockedWords: list('blockedWords'),
  restrictedNames: list('restrictedNames'),
  readonlyAge: number('readonlyAge'),
  blockedIpHashes: list('blockedIpHashes'),
  akismetKeyParameterName: text('akismetKeyParameterName'),
  turnstileSecretParameterName: text('turnstileSecretParameterName'),
  recaptchaV3SecretParameterName: text('recaptchaV3SecretParameterName'),
  turnstileKey: text('turnstileKey'),
  recaptchaV3Key: text('recaptchaV3Key'),
  recaptchaV3MinScore: number('recaptchaV3MinScore'),
  ssoSecretParameterName: text('ssoSecretParameterName'),
  ssoIssuer: text('ssoIssuer'),
  ssoAudience: text('ssoAudience'),
  siteUrl: text('siteUrl'),
  siteName: text('siteName'),
  passkeyRpId: text('passkeyRpId'),
  markdown: {
    highlight: flag('markdownHighlight'),
    emoji: flag('markdownEmoji'),
    sub: flag('markdownSub'),
    sup: flag('markdownSup'),
    tex: texEngine(text('markdownTex')),
  },
  // `rootsByLikeIndex=false`, the first upgrade deploy from 0.1.0 as 0.2 named it, is `upgradeIndexes=1`.
  upgradeIndexes: number('upgradeIndexes') ?? (flag('rootsByLikeIndex') === false ? 1 : undefined),
  // Under Waline's names (-c AUTHOR_EMAIL=owner@example.com -c SMTP_HOST=...): docs/notifications-setup.md.
  notifications: Object.fromEntries(notificationVariables.map((name) => [name, text(name)])),
  // Under the function's names (-c OIDC_ISSUER=... -c GITHUB_CLIENT_ID=...): docs/sign-in-providers.md.
  signInProviders: Object.fromEntries(signInProviderVariables.map((name) => [name, text(name)])),
});
