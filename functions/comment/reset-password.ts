import { accountMailAllowance, type AccountMailing, mailIfAllowed } from './account-mail-allowance.js';
import { claimAccountLink } from './confirm-account.js';
import { admitNetworkAttempt } from './network-attempts.js';
import type { ReadLink } from './read-link.js';
import { hashPassword } from '../shared/auth/password.js';
import { envelope } from '../shared/http/envelope.js';
import type { Config } from '../shared/config.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import { resetBodySchema, resetRequestBodySchema } from '../shared/domain/account-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { AccountLimits } from '../shared/table/account-limits.js';

/** Reset requests one IP (an IPv6 /64) may make per window. */
export const resetRequestsPerWindow = 10;

/** What the reset routes take. */
export interface ResetPasswordDependencies extends AccountMailing {
  readonly accounts: Pick<AccountRepository, 'findByEmail' | 'findById' | 'update'>;
  readonly limits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot' | 'claimLink'>;
  readonly readLink: ReadLink;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  readonly now: () => number;
}

/**
 * `PUT /api/user/password {email}`, Waline's reset request: mails a reset link (single use, 1 hour) when the
 * address has an active account that is not banned, and answers the same success whatever the address (Waline
 * tells unknown ones with an error). Limited per IP (an IPv6 /64) and hour before the address is looked up,
 * and per address and day (the mail's allowance) before anything is queued.
 */
export function createRequestPasswordReset(dependencies: ResetPasswordDependencies): Router {
  const { accounts, limits, config, now } = dependencies;
  return async (request) => {
    const { email } = parseInput(resetRequestBodySchema, request.jsonBody(), request.lang);
    const time = now();
    await admitNetworkAttempt(limits, {
      action: 'reset',
      salt: config.IP_HASH_SALT,
      sourceIp: request.sourceIp,
      lang: request.lang,
      time,
      perWindow: resetRequestsPerWindow,
      tooMany: 'tooManyResets',
    });
    const account = await accounts.findByEmail(email);
    if (account?.state === 'active' && account.type !== 'banned') {
      const mail = { address: email, accountId: account.id, lang: request.lang };
      await mailIfAllowed(dependencies, mail, accountMailAllowance.reset, time);
    }
    return envelope('');
  };
}

/**
 * `POST /api/user/password {token, password}`: the reset page's. Sets the password of the link's account and
 * revokes every token it had, once: the link's keyed hash is recorded as used first, and the write is
 * conditioned on the session version the link was made under (so a link older than the last reset, password
 * change or ban is refused too). Any link that is not good now is the same 400, which says to ask again.
 */
export function createResetPassword(dependencies: ResetPasswordDependencies): Router {
  const { accounts, readLink, now } = dependencies;
  return async (request) => {
    const body = parseInput(resetBodySchema, request.jsonBody(), request.lang);
    const refused = () =>
      new AppError('invalid_input', translate(request.lang, 'resetLinkInvalid'), {
        token: 'is not a valid reset link, has expired or was used already',
      });
    const claims = await readLink(body.token, 'account-reset');
    if (!claims) throw refused();
    const account = await accounts.findById(claims.accountId);
    if (
      account?.state !== 'active' ||
      account.type === 'banned' ||
      account.sessionVersion !== claims.version
    ) {
      throw refused();
    }
    if (!(await claimAccountLink(dependencies, body.token, now()))) throw refused();
    const passwordHash = await hashPassword(body.password);
    const update = await accounts.update(account.id, { passwordHash, revokeTokens: true }, claims.version);
    if (update.status !== 'updated') throw refused();
    return envelope('');
  };
}
