import type { ErasedWithReplies } from './domain/erase-mode.js';
import { templatePublishesMail } from './domain/avatar.js';
import { externalIdentityLimits } from './domain/external-identity.js';
import { parseLevels } from './domain/levels.js';
import { originsFromSecureDomains } from './http/secure-domains.js';
import type { MarkdownFeatures } from './domain/render-markdown.js';
import {
  type GithubSetting,
  type OidcIssuerSetting,
  readSignInProviders,
} from './sign-in-provider-settings.js';
import {
  commaSeparated,
  decimal,
  flag,
  list,
  onUnlessOff,
  optionalUrl,
  originList,
  type Reader,
  RuleError,
  text,
  unlessFalse,
  urlWithDefault,
  wholeNumber,
} from './environment-readers.js';

/** The service's settings, read once from the environment at cold start. */
export interface Config {
  readonly TABLE_NAME: string;
  /** DynamoDB Local's address; unset on AWS. */
  readonly DYNAMODB_ENDPOINT?: string;
  /**
   * Timeouts of each DynamoDB request, in ms; the SDK tries 3 times, so 3 x the request timeout (plus
   * a few hundred ms of backoff) stays inside the functions' 10 s.
   */
  readonly DYNAMODB_CONNECT_TIMEOUT_MS: number;
  readonly DYNAMODB_REQUEST_TIMEOUT_MS: number;
  readonly IPQPS: number;
  readonly IP_HASH_SALT: string;
  /**
   * The origins whose pages may write (`*`: any, the default of a bare function; a deployed stack and
   * `npm start` always name them). Waline's `SECURE_DOMAINS` (bare hosts, as https) is read when it is unset.
   */
  readonly ALLOWED_ORIGINS: string[];
  readonly AVATAR_PROXY?: string;
  /**
   * Avatar URL template (Waline's name): `{{nick}}`, `{{mail|md5}}`, `{{mail|sha256}}`. A bare
   * `{{mail}}` is refused: it would publish every commenter's address.
   */
  readonly GRAVATAR_STR?: string;
  /**
   * Waline's QQ avatar rule (Marginalia's name; Waline always applies it): a nick of digits or a
   * `<digits>@qq.com` mail shows that QQ number's avatar, whose URL spells the number out, so the
   * address. Off by default: every other address is shown as libravatar's md5 of it.
   */
  readonly AVATAR_QQ: boolean;
  readonly DISABLE_USERAGENT: boolean;
  /**
   * Waline's `LEVELS`: the approved-comment thresholds of the levels (`0,10,20,50,100,200`); comments in lists
   * carry `level` and the user wall ranks by it. Unset: no level, and no counter is read to give one.
   */
  readonly LEVELS?: readonly number[];
  /** Waline's `DISABLE_REGION`: new comments get no `addr` (the region their IP is in). */
  readonly DISABLE_REGION: boolean;
  /** The HMAC key of sign-in tokens (Waline's name). Locally; on AWS the SSM parameter below. */
  readonly JWT_TOKEN?: string;
  /** Name of an SSM SecureString holding the token key, read through the extension below. */
  readonly JWT_SECRET_PARAMETER?: string;
  /**
   * The key that signs the links in mails (unsubscribe, approve / spam / delete), a secret of its own, never
   * the sign-in key: the notifier holds it and cannot sign a sign-in token. Locally; on AWS the SSM parameter below.
   */
  readonly LINK_SECRET?: string;
  /** Name of an SSM SecureString holding the link key, read through the extension below. */
  readonly LINK_SECRET_PARAMETER?: string;
  /** Port of the Parameters and Secrets extension that reads it (the layer's own variable). */
  readonly PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: number;
  /**
   * How long a warm instance reuses a secret it read through the extension (the token key, the
   * Akismet key), in seconds; a rotated value is used within this plus the extension's own cache.
   */
  readonly SECRETS_CACHE_SECONDS: number;
  readonly TOKEN_TTL_HOURS: number;
  /**
   * How long a warm instance reuses an article's comments and the recent comments it read, in ms; 0
   * reads DynamoDB on every request. An instance sees its own writes to an article at once; the
   * recent list and other instances' writes within this.
   */
  readonly LIST_CACHE_MS: number;
  /**
   * Which new comments wait for approval (Waline's name): `all` (Waline's on: any value but `first`, `0`,
   * `false`), `first` (an address's comments until an administrator approved one of them), or `off`.
   */
  readonly COMMENT_AUDIT: CommentAudit;
  /**
   * Comma-separated words; a comment whose text, nick or link contains one as a word is marked spam
   * (Waline's name).
   */
  readonly FORBIDDEN_WORDS: string[];
  /** Comma-separated words; a comment whose text, nick or link contains one is refused, 403 (Twikoo's name). */
  readonly BLOCKED_WORDS: string[];
  /** Comma-separated nicks nobody but an administrator may post under, ignoring case (Remark42's name). */
  readonly RESTRICTED_NAMES: string[];
  /**
   * Days after an article's first approved comment when it takes no new ones (Remark42's name); 0 keeps
   * every article open.
   */
  readonly READONLY_AGE: number;
  /** Comma-separated IP hashes (as the moderation list shows them) whose comments are refused. */
  readonly BLOCKED_IP_HASHES: string[];
  /**
   * Minutes after posting during which a signed-in author may edit their own comment (Remark42's
   * `EDIT_TIME`); 0 turns own edits off. Administrators edit any comment at any time.
   */
  readonly EDIT_WINDOW: number;
  /** Waline's `LOGIN`: `force` refuses anonymous comments (401); `open`, the default, takes them. */
  readonly LOGIN: LoginMode;
  /** Akismet spam check, only when a key is set (Waline's name; `false` also turns it off). */
  readonly AKISMET_KEY?: string;
  /** Name of an SSM SecureString holding the Akismet key, read through the extension (on AWS). */
  readonly AKISMET_KEY_PARAMETER?: string;
  /**
   * Cloudflare Turnstile's secret key (Waline's name): with it, an anonymous comment and a sign-in need a
   * `turnstile` token that Turnstile accepts. Read before `RECAPTCHA_V3_SECRET`. Locally; on AWS the SSM
   * parameter below.
   */
  readonly TURNSTILE_SECRET?: string;
  /** Name of an SSM SecureString holding the Turnstile secret, read through the extension (on AWS). */
  readonly TURNSTILE_SECRET_PARAMETER?: string;
  /** reCAPTCHA v3's secret key (Waline's name): as Turnstile's, with a `recaptchaV3` token. */
  readonly RECAPTCHA_V3_SECRET?: string;
  /** Name of an SSM SecureString holding the reCAPTCHA v3 secret, read through the extension (on AWS). */
  readonly RECAPTCHA_V3_SECRET_PARAMETER?: string;
  /** Turnstile's site key (public, Waline's name), for the sign-in page and the local demo. */
  readonly TURNSTILE_KEY?: string;
  /** reCAPTCHA v3's site key (public, Waline's name), for the sign-in page and the local demo. */
  readonly RECAPTCHA_V3_KEY?: string;
  /** Where Turnstile tokens are verified: Cloudflare's siteverify; tests point it at a fake on loopback. */
  readonly TURNSTILE_VERIFY_URL: string;
  /** Where reCAPTCHA tokens are verified: Google's siteverify (recaptcha.net); tests point it elsewhere. */
  readonly RECAPTCHA_VERIFY_URL: string;
  /** The least reCAPTCHA v3 score (0 to 1) a token passes with; 0.5, Google's suggested start. */
  readonly RECAPTCHA_V3_MIN_SCORE: number;
  /** The site's address, for Akismet's `blog` and permalinks (Waline's name). */
  readonly SITE_URL?: string;
  /** The site's name, for the titles of the comment feeds (Waline's name); blank is unset. */
  readonly SITE_NAME?: string;
  /** Waline's `MARKDOWN_HIGHLIGHT`, `_EMOJI`, `_SUB`, `_SUP` and `_TEX`, each on unless turned off. */
  readonly markdown: MarkdownFeatures;
  /**
   * Who may register a visitor account (`POST /api/user`): `open` (an account works once its address is
   * confirmed), `approval` (then an administrator admits it) or `closed` (the default: 403). Both open kinds
   * mail a confirmation link, so they need mail configured (refused at load otherwise).
   */
  readonly REGISTRATION: Registration;
  /**
   * Single sign-on with the site (issue 28, `POST /api/token/sso`): the HS256 key the site's backend signs its
   * assertions with, at least 32 characters. Locally; on AWS the SSM parameter below.
   */
  readonly SSO_SECRET?: string;
  /** Name of an SSM SecureString holding the SSO key, read through the extension (on AWS). */
  readonly SSO_SECRET_PARAMETER?: string;
  /**
   * The site's own OpenID Connect issuer, whose ID tokens (signed with an asymmetric key of its JWKS, found by
   * discovery) are taken as SSO assertions: `https://`, or `http://` on a loopback host only.
   */
  readonly SSO_ISSUER?: string;
  /**
   * The `aud` an SSO assertion must carry: the API's URL (the widget's `serverURL`). Required with any SSO
   * setting above; the stack sets it to the API's address, `npm start` to the local server's.
   */
  readonly SSO_AUDIENCE?: string;
  /**
   * What a commenter's erase (`DELETE /api/my-data`) leaves of a comment others answered: `placeholder` (the
   * default: `[deleted]`, as an author's own delete) or `anonymise` (its text kept, its author's name "Anonymous",
   * address, link and user agent removed).
   */
  readonly ERASE_WITH_REPLIES: ErasedWithReplies;
  /**
   * The WebAuthn relying party id passkeys are made for (a domain: the API's host or a parent of it); unset, the
   * host the request reached (the API's own). Set it when the API answers at more than one address.
   */
  readonly PASSKEY_RP_ID?: string;
  /**
   * The API's public address (as the notifier's SERVER_URL), for the address issuers send readers back to
   * (`<SERVER_URL>/api/oauth/callback`); unset, the address the request came to.
   */
  readonly SERVER_URL?: string;
  /** The OpenID Connect issuers readers may sign in with (OIDC_ISSUER and its lists); absent when none. */
  readonly oidcIssuers?: readonly OidcIssuerSetting[];
  /** GitHub sign-in (GITHUB_CLIENT_ID and its secret); absent when not configured. */
  readonly github?: GithubSetting;
}

/** Who may register an account: anyone, anyone an administrator then admits, or nobody. */
export type Registration = 'open' | 'approval' | 'closed';

/** Which new comments wait for approval: every one, an address's until one is approved, or none. */
export type CommentAudit = 'all' | 'first' | 'off';

/** Waline's switch (blank, `0`, `false`: off; anything else: on) plus `first`, any case. */
const commentAudit: Reader<CommentAudit> = (raw) => {
  if (/^first$/i.test(raw?.trim() ?? '')) return 'first';
  return flag(raw) ? 'all' : 'off';
};

/** Whether anonymous visitors may comment: `open` (the default), or `force` (signed-in accounts only). */
export type LoginMode = 'open' | 'force';

/** Waline's `LOGIN`: `force`, any case, or blank. */
const loginMode: Reader<LoginMode> = (raw) => {
  const value = raw?.trim() ?? '';
  if (/^force$/i.test(value)) return 'force';
  if (value === '') return 'open';
  throw new RuleError('must be force, or unset (anonymous comments are taken)');
};

/** REGISTRATION: `open`, `approval` or `closed` (blank: closed), any case. */
const registration: Reader<Registration> = (raw) => {
  const value = raw?.trim().toLowerCase() || 'closed';
  if (value !== 'open' && value !== 'approval' && value !== 'closed')
    throw new RuleError('must be open, approval or closed');
  return value;
};

/**
 * SSO_ISSUER: an https URL, or http on a loopback host (a local issuer). Kept as written, a trailing slash
 * included: an ID token's `iss` must be exactly the issuer (OpenID Connect Core 3.1.3.7).
 */
const ssoIssuer: Reader<string | undefined> = (raw) => {
  const issuer = optionalUrl(raw);
  if (issuer === undefined) return undefined;
  // Accounts are keyed by `oidc:<issuer>` (domain/external-identity.ts bounds it).
  if (issuer.length > externalIdentityLimits.providerChars - 'oidc:'.length)
    throw new RuleError(
      `must be at most ${externalIdentityLimits.providerChars - 'oidc:'.length} characters`,
    );
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    throw new RuleError('must be an https URL (http only on 127.0.0.1, localhost or [::1])');
  if (url.search || url.hash) throw new RuleError('must be the issuer URL alone, without ? or #');
  return issuer;
};

/** ERASE_WITH_REPLIES: `placeholder` or `anonymise` (blank: placeholder), any case. */
const erasedWithReplies: Reader<ErasedWithReplies> = (raw) => {
  const value = raw?.trim().toLowerCase() || 'placeholder';
  if (value !== 'placeholder' && value !== 'anonymise')
    throw new RuleError('must be placeholder or anonymise');
  return value;
};

/** The name of an SSM parameter. */
const parameterName = text({ max: 2048, optional: true });

/**
 * Waline's `MARKDOWN_TEX`: `mathjax` (its default) or `katex` turn TeX on, `0` or `false` off. Both
 * render MathML here (functions/shared/domain/tex-to-mathml.ts), where Waline's MathJax draws SVG.
 */
const texSetting: Reader<boolean> = (raw) => {
  if (!/^(|mathjax|katex|0|false)$/i.test(raw?.trim() ?? ''))
    throw new RuleError('must be mathjax, katex, 0 or false');
  return onUnlessOff(raw);
};

/** A captcha secret: as the provider's console shows it, bounded. */
const captchaSecret = text({ max: 512, optional: true });

/**
 * A captcha site key: letters, digits, `_` and `-` (as Turnstile's `0x4AAA…` and reCAPTCHA's `6Lc…` are), since
 * it goes into a page and into the address of the provider's script.
 */
const siteKey: Reader<string | undefined> = (raw) => {
  const key = text({ max: 256, optional: true })(raw?.trim());
  if (key !== undefined && !/^[A-Za-z0-9_-]+$/.test(key))
    throw new RuleError('must be letters, digits, _ and - (a site key as the provider gives it)');
  return key;
};

const levelThresholds: Reader<readonly number[] | undefined> = (raw) => {
  try {
    return parseLevels(raw);
  } catch (error) {
    throw new RuleError((error as Error).message);
  }
};

const avatarTemplate: Reader<string | undefined> = (raw) => {
  const template = text({ max: 1024, optional: true })(raw);
  if (template !== undefined && templatePublishesMail(template)) {
    throw new RuleError(
      'must hash the mail, as {{mail|md5}} or {{mail|sha256}}: a bare {{mail}} publishes every address',
    );
  }
  return template;
};

/**
 * A WebAuthn relying party id: a domain name (lower case, dot-separated labels), never an IP address or a URL,
 * which browsers refuse as an RP ID.
 */
const passkeyRelyingParty: Reader<string | undefined> = (raw) => {
  const value = raw?.trim().toLowerCase();
  if (!value) return undefined;
  if (
    value.length > 253 ||
    !/^(?=.*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(
      value,
    )
  ) {
    throw new RuleError('must be a domain name such as comments.example.com (no scheme, port or path)');
  }
  return value;
};

/**
 * Each setting read from the variable of its name, but `markdown`, read from the five MARKDOWN_* below, and the
 * sign-in providers, read from their lists (sign-in-provider-settings.ts).
 */
const readers: {
  readonly [Name in Exclude<keyof Config, 'markdown' | 'oidcIssuers' | 'github'>]-?: Reader<Config[Name]>;
} = {
  TABLE_NAME: text({ min: 3, max: 255 }),
  DYNAMODB_ENDPOINT: optionalUrl,
  DYNAMODB_CONNECT_TIMEOUT_MS: wholeNumber({ min: 10, max: 60_000, default: 1000 }),
  DYNAMODB_REQUEST_TIMEOUT_MS: wholeNumber({ min: 10, max: 60_000, default: 2500 }),
  IPQPS: wholeNumber({ min: 0, max: 86_400, default: 60 }),
  IP_HASH_SALT: text({ min: 16 }),
  ALLOWED_ORIGINS: originList,
  AVATAR_PROXY: (raw) => optionalUrl(unlessFalse(raw)),
  GRAVATAR_STR: avatarTemplate,
  AVATAR_QQ: flag,
  DISABLE_USERAGENT: flag,
  LEVELS: levelThresholds,
  DISABLE_REGION: flag,
  JWT_TOKEN: text({ min: 32, optional: true }),
  JWT_SECRET_PARAMETER: parameterName,
  LINK_SECRET: text({ min: 32, optional: true }),
  LINK_SECRET_PARAMETER: parameterName,
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: wholeNumber({ min: 1, max: 65_535, default: 2773 }),
  SECRETS_CACHE_SECONDS: wholeNumber({ min: 0, max: 3600, default: 120 }),
  TOKEN_TTL_HOURS: wholeNumber({ min: 1, max: 24 * 90, default: 24 * 7 }),
  LIST_CACHE_MS: wholeNumber({ min: 0, max: 60_000, default: 1000 }),
  COMMENT_AUDIT: commentAudit,
  FORBIDDEN_WORDS: list(1000, 200),
  BLOCKED_WORDS: list(1000, 200),
  RESTRICTED_NAMES: list(1000, 100),
  // Up to a hundred years: a whole number of days, as Remark42 counts them.
  READONLY_AGE: wholeNumber({ min: 0, max: 36_500, default: 0 }),
  BLOCKED_IP_HASHES: list(1000, 200),
  // Up to a week, in whole minutes.
  EDIT_WINDOW: wholeNumber({ min: 0, max: 10_080, default: 15 }),
  LOGIN: loginMode,
  AKISMET_KEY: unlessFalse,
  AKISMET_KEY_PARAMETER: parameterName,
  TURNSTILE_SECRET: captchaSecret,
  TURNSTILE_SECRET_PARAMETER: parameterName,
  RECAPTCHA_V3_SECRET: captchaSecret,
  RECAPTCHA_V3_SECRET_PARAMETER: parameterName,
  TURNSTILE_KEY: siteKey,
  RECAPTCHA_V3_KEY: siteKey,
  TURNSTILE_VERIFY_URL: urlWithDefault('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  RECAPTCHA_VERIFY_URL: urlWithDefault('https://recaptcha.net/recaptcha/api/siteverify'),
  RECAPTCHA_V3_MIN_SCORE: decimal({ min: 0, max: 1, default: 0.5 }),
  SITE_URL: optionalUrl,
  SITE_NAME: (raw) => text({ max: 200, optional: true })(raw?.trim()),
  REGISTRATION: registration,
  SSO_SECRET: text({ min: 32, max: 512, optional: true }),
  SSO_SECRET_PARAMETER: parameterName,
  SSO_ISSUER: ssoIssuer,
  // The audience is a URL (the API's): bounded like one; accounts are keyed by the site, not by it.
  SSO_AUDIENCE: (raw) => text({ max: 2048, optional: true })(raw?.trim()),
  ERASE_WITH_REPLIES: erasedWithReplies,
  PASSKEY_RP_ID: passkeyRelyingParty,
  SERVER_URL: optionalUrl,
};

const markdownReaders: { readonly [Feature in keyof MarkdownFeatures]: readonly [string, Reader<boolean>] } =
  {
    highlight: ['MARKDOWN_HIGHLIGHT', onUnlessOff],
    emoji: ['MARKDOWN_EMOJI', onUnlessOff],
    sub: ['MARKDOWN_SUB', onUnlessOff],
    sup: ['MARKDOWN_SUP', onUnlessOff],
    tex: ['MARKDOWN_TEX', texSetting],
  };

/** Parses `env` into a Config, or throws one error naming every bad variable and its rule. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const read = <T>(name: string, reader: Reader<T>): T | undefined => {
    try {
      return reader(source[name]);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      problems.push(`${name}: ${error.message}`);
      return undefined;
    }
  };
  const secureDomains = commaSeparated(env.SECURE_DOMAINS);
  if (secureDomains.length > 0 && env.ALLOWED_ORIGINS?.trim()) {
    problems.push("SECURE_DOMAINS: is ALLOWED_ORIGINS under Waline's name; give one of them");
  }
  const source: NodeJS.ProcessEnv =
    secureDomains.length > 0 && !env.ALLOWED_ORIGINS?.trim()
      ? { ...env, ALLOWED_ORIGINS: originsFromSecureDomains(secureDomains).join(',') }
      : env;
  const settings: Record<string, unknown> = {};
  for (const [name, reader] of Object.entries(readers) as [string, Reader<unknown>][]) {
    const value = read(name, reader);
    // An unset optional setting is left out, as a missing key, not an undefined one.
    if (value !== undefined) settings[name] = value;
  }
  const markdown = Object.fromEntries(
    Object.entries(markdownReaders).map(([feature, [name, reader]]) => [feature, read(name, reader)]),
  );
  const providers = readSignInProviders(source);
  problems.push(
    ...captchaKeyProblems(source),
    ...registrationProblems(source),
    ...ssoProblems(source),
    ...providers.problems,
  );
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return {
    ...settings,
    markdown,
    ...(providers.oidcIssuers.length > 0 ? { oidcIssuers: providers.oidcIssuers } : {}),
    ...(providers.github ? { github: providers.github } : {}),
  } as unknown as Config;
}

/**
 * The server checks the token of the captcha whose secret is in force (Turnstile's when one is given, else
 * reCAPTCHA v3's: secrets/captcha-secret.ts); the sign-in page sends the token of the site key it has
 * (Turnstile's first: comment/pages/captcha-widget.ts). Unless both are the same provider, every sign-in is
 * refused, the administrator's too: so that provider's key must be set, and Turnstile's must not stand in for it.
 */
function captchaKeyProblems(env: NodeJS.ProcessEnv): string[] {
  const given = (name: string) => Boolean(env[name]?.trim());
  if (given('TURNSTILE_SECRET') || given('TURNSTILE_SECRET_PARAMETER')) {
    return given('TURNSTILE_KEY')
      ? []
      : [
          'TURNSTILE_KEY: must be set with a Turnstile secret (TURNSTILE_SECRET or TURNSTILE_SECRET_PARAMETER): ' +
            'without it the sign-in page sends no Turnstile token, and every sign-in is refused',
        ];
  }
  if (!given('RECAPTCHA_V3_SECRET') && !given('RECAPTCHA_V3_SECRET_PARAMETER')) return [];
  const problems: string[] = [];
  if (!given('RECAPTCHA_V3_KEY')) {
    problems.push(
      'RECAPTCHA_V3_KEY: must be set with a reCAPTCHA v3 secret (RECAPTCHA_V3_SECRET or ' +
        'RECAPTCHA_V3_SECRET_PARAMETER): without it the sign-in page sends no reCAPTCHA token, and every sign-in is refused',
    );
  }
  if (given('TURNSTILE_KEY')) {
    problems.push(
      'TURNSTILE_KEY: must not be set when the captcha is reCAPTCHA v3 (no Turnstile secret): the sign-in page ' +
        'would send a Turnstile token, and every sign-in would be refused',
    );
  }
  return problems;
}

/**
 * The variables that give the notifier a way to mail (notify-config.ts: SMTP, or SES on AWS, where the stack
 * also sets `MAIL_TRANSPORT`): registration mails its confirmation link, so without one nobody could finish.
 */
const mailVariables = ['SMTP_HOST', 'SMTP_SERVICE', 'SES_IDENTITY', 'MAIL_TRANSPORT'] as const;

/** REGISTRATION other than `closed` without mail: every new account would wait for a link never sent. */
function registrationProblems(env: NodeJS.ProcessEnv): string[] {
  const value = env.REGISTRATION?.trim().toLowerCase();
  if (!value || value === 'closed' || (value !== 'open' && value !== 'approval')) return [];
  if (mailVariables.some((name) => Boolean(env[name]?.trim()))) return [];
  return [
    `REGISTRATION: ${value} needs mail configured (${mailVariables.join(', ')}): a new account is confirmed ` +
      'through a mailed link; set up mail, or leave REGISTRATION=closed',
  ];
}

/**
 * An SSO assertion's `aud` names the API it is for (docs/single-sign-on.md): with any way to verify one set
 * (SSO_SECRET, SSO_SECRET_PARAMETER, SSO_ISSUER), the audience must be known, or every assertion is refused.
 */
function ssoProblems(env: NodeJS.ProcessEnv): string[] {
  const given = (name: string) => Boolean(env[name]?.trim());
  if (!['SSO_SECRET', 'SSO_SECRET_PARAMETER', 'SSO_ISSUER'].some(given) || given('SSO_AUDIENCE')) return [];
  return [
    "SSO_AUDIENCE: must be set with SSO_SECRET, SSO_SECRET_PARAMETER or SSO_ISSUER: it is the API's URL, which " +
      'every assertion must name as its aud',
  ];
}
