import { accountMailAllowance, type AccountMailing, takeAccountMailSlot } from './account-mail-allowance.js';
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
import { sealAddress } from '../shared/notify/sealed-address.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountLimits } from '../shared/table/account-limits.js';

/** Reset requests one IP (an IPv6 /64) may make per window. */
export const resetRequestsPerWindow = 10;

/** What the reset routes take. */
export interface ResetPasswordDependencies extends AccountMailing {
  readonly accounts: Pick<AccountRepository, 'findById' | 'update'>;
  readonly limits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot' | 'claimLink'>;
  readonly readLink: ReadLink;
  /** The link key: a reset request's address travels to the notifier sealed with it. */
  readonly linkSecret: SecretSource;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  readonly now: () => number;
}

/**
 * `PUT /api/user/password {email}`, Waline's reset request: answers the same success whatever the address (Waline
 * tells unknown ones with an error), and does the same work for every address, so that neither the answer nor its
 * time tells whether the address has an account. Limited per IP (an IPv6 /64) and hour, then per address and day
 * (the mail's allowance: 5), it queues a reset event carrying the address sealed with the link key; the notifier
 * looks the address up and mails a reset link (single use, 1 hour) only to an active account that is not banned
 * (account-mail-channel.ts).
 */
export function createRequestPasswordReset(dependencies: ResetPasswordDependencies): Router {
  const { limits, config, linkSecret, hashAddress, queueMail, now, newId } = dependencies;
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
    const key = await linkSecret();
    if (!key) throw new AppError('unavailable', translate(request.lang, 'resetLinksOff'));
    // No account is read here: the slot and the event are written for a stranger's address as for a member's.
    if (await takeAccountMailSlot(limits, hashAddress(email), accountMailAllowance.reset, time)) {
      await queueMail(newId(time), time, {
        accountId: '',
        mail: 'reset',
        lang: request.lang,
        sealedTo: sealAddress(key, email),
      });
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
