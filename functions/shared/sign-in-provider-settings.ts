/**
 * The settings of the sign-in providers (issue 28): OpenID Connect issuers and GitHub. Several issuers are
 * listed by comma lists aligned by position: the n-th entry of `OIDC_ISSUER`, `OIDC_CLIENT_ID`,
 * `OIDC_CLIENT_SECRET` (or `OIDC_CLIENT_SECRET_PARAMETER`) and `OIDC_LABEL` are one issuer's. Read at cold
 * start with the rest of the configuration (config.ts); every problem names its variable and its rule.
 */

/** One OpenID Connect issuer a reader may sign in with. */
export interface OidcIssuerSetting {
  /** The path segment of its sign-in route (`/api/oauth/oidc-1`): `oidc-` and its place in the lists. */
  readonly key: string;
  /** The button's text after "Sign in with": OIDC_LABEL's entry, or the issuer's host. */
  readonly label: string;
  /** The issuer identifier exactly as the issuer's `iss` spells it (with or without its final slash). */
  readonly issuer: string;
  readonly clientId: string;
  /** The client secret itself (local mode), or the SSM SecureString that holds it (AWS). One of the two. */
  readonly clientSecret?: string;
  readonly clientSecretParameter?: string;
}

/** GitHub's OAuth app (or a GitHub Enterprise server's). */
export interface GithubSetting {
  readonly key: 'github';
  readonly label: 'GitHub';
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly clientSecretParameter?: string;
  /** Where the authorize and token endpoints are: https://github.com, or a GitHub Enterprise server. */
  readonly url: string;
  /** GitHub's REST API: https://api.github.com, or an Enterprise server's `/api/v3`. */
  readonly apiUrl: string;
}

/** What {@link readSignInProviders} read: the providers, and every problem found. */
export interface SignInProviderSettings {
  readonly oidcIssuers: readonly OidcIssuerSetting[];
  readonly github?: GithubSetting;
  readonly problems: readonly string[];
}

/** Bounds of the settings: a handful of buttons, and values that fit in a key and a page. */
export const signInProviderLimits = {
  issuers: 10,
  issuerChars: 290,
  clientIdChars: 255,
  secretChars: 512,
  parameterChars: 2048,
  labelChars: 40,
} as const;

const blank = (raw: string | undefined) => raw === undefined || raw.trim() === '';

/** A comma list as its trimmed entries, empty ones kept (they would shift the entries after them). */
const entries = (raw: string | undefined): string[] | undefined =>
  blank(raw) ? undefined : raw!.split(',').map((entry) => entry.trim());

/** Loopback hosts, where a test's or a local issuer may answer plain http. */
const loopbackHost = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Why `value` is not an issuer or server URL (https, or http on loopback; no query or fragment), if it is not. */
export function urlProblem(value: string): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url) return `${value} is not a URL`;
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHost.test(url.hostname));
  if (!secure) return `${value} must be https (http only on 127.0.0.1 or localhost)`;
  if (url.search || url.hash || url.username || url.password) {
    return `${value} must have no query, fragment or credentials`;
  }
  return undefined;
}

/** Reads the OIDC issuers and GitHub from `env`; nothing configured gives no provider and no problem. */
export function readSignInProviders(env: NodeJS.ProcessEnv): SignInProviderSettings {
  const problems: string[] = [];
  const oidcIssuers = readOidcIssuers(env, problems);
  const github = readGithub(env, problems);
  return { oidcIssuers, ...(github ? { github } : {}), problems };
}

function readOidcIssuers(env: NodeJS.ProcessEnv, problems: string[]): OidcIssuerSetting[] {
  const limits = signInProviderLimits;
  const issuers = entries(env.OIDC_ISSUER);
  const lists = {
    OIDC_CLIENT_ID: entries(env.OIDC_CLIENT_ID),
    OIDC_CLIENT_SECRET: entries(env.OIDC_CLIENT_SECRET),
    OIDC_CLIENT_SECRET_PARAMETER: entries(env.OIDC_CLIENT_SECRET_PARAMETER),
    OIDC_LABEL: entries(env.OIDC_LABEL),
  };
  if (!issuers) {
    for (const [name, list] of Object.entries(lists)) {
      if (list) problems.push(`${name}: is set without OIDC_ISSUER, the issuers it belongs to`);
    }
    return [];
  }
  const before = problems.length;
  if (issuers.length > limits.issuers) {
    problems.push(`OIDC_ISSUER: must list at most ${limits.issuers} issuers`);
  }
  issuers.forEach((issuer, index) => {
    const problem =
      issuer.length > limits.issuerChars
        ? `must be at most ${limits.issuerChars} characters`
        : urlProblem(issuer);
    if (problem) problems.push(`OIDC_ISSUER: entry ${index + 1}: ${problem}`);
  });
  if (new Set(issuers).size !== issuers.length) problems.push('OIDC_ISSUER: must not list an issuer twice');
  const aligned = (name: keyof typeof lists, maxChars: number, required: boolean) => {
    const list = lists[name];
    if (!list) {
      if (required) problems.push(`${name}: must be set with OIDC_ISSUER, one entry per issuer`);
      return;
    }
    if (list.length !== issuers.length) {
      problems.push(
        `${name}: must have one entry per OIDC_ISSUER entry (${issuers.length}), in the same order; has ${list.length}`,
      );
    }
    list.forEach((entry, index) => {
      if (entry === '') problems.push(`${name}: entry ${index + 1} is empty`);
      else if (entry.length > maxChars)
        problems.push(`${name}: entry ${index + 1} must be at most ${maxChars} characters`);
    });
  };
  aligned('OIDC_CLIENT_ID', limits.clientIdChars, true);
  aligned('OIDC_LABEL', limits.labelChars, false);
  if (lists.OIDC_CLIENT_SECRET && lists.OIDC_CLIENT_SECRET_PARAMETER) {
    problems.push('OIDC_CLIENT_SECRET: give it or OIDC_CLIENT_SECRET_PARAMETER, not both');
  } else if (lists.OIDC_CLIENT_SECRET_PARAMETER) {
    aligned('OIDC_CLIENT_SECRET_PARAMETER', limits.parameterChars, true);
  } else {
    aligned('OIDC_CLIENT_SECRET', limits.secretChars, true);
  }
  if (problems.length > before) return [];
  return issuers.map((issuer, index) => {
    const secret = lists.OIDC_CLIENT_SECRET?.[index];
    const parameter = lists.OIDC_CLIENT_SECRET_PARAMETER?.[index];
    return {
      key: `oidc-${index + 1}`,
      label: lists.OIDC_LABEL?.[index] ?? new URL(issuer).host,
      issuer,
      clientId: lists.OIDC_CLIENT_ID?.[index] ?? '',
      ...(secret ? { clientSecret: secret } : {}),
      ...(parameter ? { clientSecretParameter: parameter } : {}),
    };
  });
}

function readGithub(env: NodeJS.ProcessEnv, problems: string[]): GithubSetting | undefined {
  const limits = signInProviderLimits;
  const clientId = env.GITHUB_CLIENT_ID?.trim() || undefined;
  const secret = env.GITHUB_CLIENT_SECRET?.trim() || undefined;
  const parameter = env.GITHUB_CLIENT_SECRET_PARAMETER?.trim() || undefined;
  const url = env.GITHUB_URL?.trim() || 'https://github.com';
  const apiUrl = env.GITHUB_API_URL?.trim() || 'https://api.github.com';
  const before = problems.length;
  if (!clientId) {
    if (secret || parameter) problems.push('GITHUB_CLIENT_SECRET: is set without GITHUB_CLIENT_ID');
    return undefined;
  }
  if (clientId.length > limits.clientIdChars) {
    problems.push(`GITHUB_CLIENT_ID: must be at most ${limits.clientIdChars} characters`);
  }
  if (secret && parameter) {
    problems.push('GITHUB_CLIENT_SECRET: give it or GITHUB_CLIENT_SECRET_PARAMETER, not both');
  } else if (!secret && !parameter) {
    problems.push(
      'GITHUB_CLIENT_SECRET: must be set with GITHUB_CLIENT_ID (or GITHUB_CLIENT_SECRET_PARAMETER)',
    );
  } else if ((secret?.length ?? 0) > limits.secretChars) {
    problems.push(`GITHUB_CLIENT_SECRET: must be at most ${limits.secretChars} characters`);
  } else if ((parameter?.length ?? 0) > limits.parameterChars) {
    problems.push(`GITHUB_CLIENT_SECRET_PARAMETER: must be at most ${limits.parameterChars} characters`);
  }
  for (const [name, value] of [
    ['GITHUB_URL', url],
    ['GITHUB_API_URL', apiUrl],
  ] as const) {
    const problem = urlProblem(value);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  if (problems.length > before) return undefined;
  return {
    key: 'github',
    label: 'GitHub',
    clientId,
    ...(secret ? { clientSecret: secret } : {}),
    ...(parameter ? { clientSecretParameter: parameter } : {}),
    url: url.replace(/\/+$/, ''),
    apiUrl: apiUrl.replace(/\/+$/, ''),
  };
}
