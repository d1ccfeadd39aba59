import type { Config } from '../shared/config.js';
import { verifyPassword } from '../shared/auth/password.js';
import { hashIp } from '../shared/domain/hashing.js';
import { limits as inputLimits } from '../shared/domain/limits.js';
import type { ApiRequest } from '../shared/http/request.js';
import type { Router } from '../shared/http/http-function.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import { accountConfirmedPage, accountConfirmOfferPage } from './pages/account-link-page.js';
import { invalidLinkPage, type LinkPageContext, siteLabel } from './pages/link-page.js';
import { type ReadLink, type RequestLink, requestLink } from './read-link.js';

/** What the confirmation routes take. */
export interface ConfirmAccountDependencies {
  readonly readLink: ReadLink;
  readonly accounts: Pick<AccountRepository, 'findById' | 'update'>;
  readonly limits: Pick<AccountLimits, 'claimLink' | 'countAttempt'>;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'REGISTRATION'>;
  readonly now: () => number;
  /** `SITE_NAME` and `SITE_URL`, to name the site. */
  readonly site: { readonly name?: string; readonly url?: string };
}

/** Password checks one account's confirmation may make per window: the link cannot be used to guess fast. */
export const confirmChecksPerWindow = 5;
const checkWindowMs = 15 * 60 * 1000;

/** The `password` field of the confirmation form (urlencoded), bounded; undefined when absent or empty. */
function formPassword(request: ApiRequest): string | undefined {
  const password = new URLSearchParams(request.textBody?.() ?? '').get('password') ?? '';
  return password === '' || password.length > inputLimits.passwordMaxChars ? undefined : password;
}

/** How long a used account link is remembered: longer than any account link lives (24 hours). */
const usedLinkMemoryMs = 25 * 60 * 60 * 1000;

/** The keyed hash an account link is remembered as used under: the table keeps no token. */
export function accountLinkHash(salt: string, token: string): string {
  return hashIp(salt, `account-link:${token}`);
}

/** Records the link `token` as used; false when it was used before. */
export function claimAccountLink(
  {
    limits,
    config,
  }: { readonly limits: Pick<AccountLimits, 'claimLink'>; readonly config: Pick<Config, 'IP_HASH_SALT'> },
  token: string,
  time: number,
): Promise<boolean> {
  return limits.claimLink(
    accountLinkHash(config.IP_HASH_SALT, token),
    time,
    Math.ceil((time + usedLinkMemoryMs) / 1000),
  );
}

function pageContext(
  request: ApiRequest,
  link: RequestLink<{ purpose: 'account-confirm'; accountId: string }>,
  site: ConfirmAccountDependencies['site'],
): LinkPageContext {
  return { lang: request.lang, site: siteLabel(site), query: link.query };
}

/** The sign-in page beside this route: `/api/verification` and `/verification` both reach `/ui/login`. */
function signInUrl(request: ApiRequest): string {
  return request.path.startsWith('/api/') ? '../ui/login' : 'ui/login';
}

/**
 * `GET /api/verification?token=` (Waline's route; its mail link's page): says what the link does and offers
 * one button. It changes nothing itself, so a link scanner that opens it confirms nobody.
 */
export function createShowAccountConfirmation({ readLink, site }: ConfirmAccountDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'account-confirm');
    if (!link) return invalidLinkPage(request.lang);
    return accountConfirmOfferPage(pageContext(request, link, site));
  };
}

/**
 * `POST /api/verification?token=`: the form's. With the password chosen at registration (counted per account and
 * window before it is hashed), an `unconfirmed` account becomes `active`, or `awaiting-approval` under
 * REGISTRATION=approval: the mailbox alone does not confirm an account someone else registered with that address
 * and a password of theirs. A wrong password changes nothing and leaves the link usable. The link works once: its
 * keyed hash is recorded before the write (a conditional put), and the write is conditioned on the session
 * version read with the state.
 */
export function createConfirmAccount(dependencies: ConfirmAccountDependencies): Router {
  const { readLink, accounts, config, now, site } = dependencies;
  return async (request) => {
    const link = await requestLink(readLink, request, 'account-confirm');
    if (!link) return invalidLinkPage(request.lang);
    const context = pageContext(request, link, site);
    const account = await accounts.findById(link.claims.accountId);
    if (!account || account.state !== 'unconfirmed' || account.type === 'banned') {
      return accountConfirmedPage(context, 'stale', signInUrl(request));
    }
    const time = now();
    const window = Math.floor(time / checkWindowMs);
    const attempts = await dependencies.limits.countAttempt(
      'confirm',
      hashIp(config.IP_HASH_SALT, `confirm:${account.id}`),
      window,
      Math.ceil(((window + 2) * checkWindowMs) / 1000),
    );
    const password = formPassword(request);
    if (
      attempts > confirmChecksPerWindow ||
      !password ||
      !(await verifyPassword(password, account.passwordHash))
    ) {
      return accountConfirmOfferPage(context, true);
    }
    if (!(await claimAccountLink(dependencies, link.token, time))) return invalidLinkPage(request.lang);
    const state = config.REGISTRATION === 'approval' ? 'awaiting-approval' : 'active';
    const update = await accounts.update(account.id, { state }, account.sessionVersion);
    if (update.status !== 'updated') return accountConfirmedPage(context, 'stale', signInUrl(request));
    return accountConfirmedPage(context, state, signInUrl(request));
  };
}
