import { hashPassword } from '../shared/auth/password.js';
import type { Config } from '../shared/config.js';
import type { Account } from '../shared/domain/account.js';
import { registerBodySchema } from '../shared/domain/account-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import {
  accountMailAllowance,
  type AccountMailing,
  type AccountMailPlan,
  mailIfAllowed,
} from './account-mail-allowance.js';
import type { CaptchaGuard } from './captcha-guard.js';
import { admitNetworkAttempt } from './network-attempts.js';

/** Registrations one IP (an IPv6 /64) may make per window. */
export const registrationsPerWindow = 5;

/** What registration takes. */
export interface RegisterAccountDependencies extends AccountMailing {
  readonly accounts: Pick<AccountRepository, 'findByEmail' | 'create' | 'update'>;
  readonly limits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot'>;
  readonly captcha: CaptchaGuard;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'REGISTRATION'>;
  readonly now: () => number;
}

/** Waline's answer of a registration whose mail was sent: the same whatever the address. */
const mailSent = () => envelope({ verify: true });

/**
 * `POST /api/user`, Waline's registration. Closed (REGISTRATION=closed, the default): 403. Otherwise, before
 * anything costly: the body's rules, the captcha's token, and the IP's registrations per hour; then the
 * captcha's verdict and the password's hash (always, so a known address answers as slowly as a new one).
 *
 * The answer never tells whether the address has an account: it is always `{verify: true}`. What happens
 * differs, by mail only, to the address's owner: a new address gets an `unconfirmed` guest account (never an
 * administrator) and a single-use confirmation link (24 hours); an unconfirmed one gets its link again (the
 * account is left as it was: a second registrant's password never replaces the first's); an active one gets
 * "someone tried to register with your address" (at most once a day); a banned one gets nothing, and nothing
 * is written (a ban sticks). Every mail counts against the address's allowance of its kind.
 */
export function createRegisterAccount(dependencies: RegisterAccountDependencies): Router {
  const { accounts, limits, captcha, config, now, newId } = dependencies;
  return async (request) => {
    if (config.REGISTRATION === 'closed') {
      throw new AppError('forbidden', translate(request.lang, 'registrationClosed'));
    }
    const body = parseInput(registerBodySchema, request.jsonBody(), request.lang);
    const demand = await captcha.demand(
      { turnstile: body.turnstile, recaptchaV3: body.recaptchaV3 },
      request,
    );

    const time = now();
    await admitNetworkAttempt(limits, {
      action: 'register',
      salt: config.IP_HASH_SALT,
      sourceIp: request.sourceIp,
      lang: request.lang,
      time,
      perWindow: registrationsPerWindow,
      tooMany: 'tooManyRegistrations',
    });
    if (!(await captcha.verify(demand, request)).passed) {
      throw new AppError('unavailable', translate(request.lang, 'registrationUnavailable'));
    }

    const passwordHash = await hashPassword(body.password);
    const existing = await accounts.findByEmail(body.email);
    const plan = existing ? planForExisting(existing) : undefined;
    if (existing) {
      // An address nobody confirmed yet takes the latest registration's password and profile: the confirmation
      // asks for that password, so whoever registered it first (its owner or not) cannot hold it, and an owner who
      // forgot theirs registers again. Only the mailbox confirms, so no registration takes an account over.
      if (existing.state === 'unconfirmed' && existing.type !== 'banned') {
        await accounts.update(existing.id, {
          passwordHash,
          displayName: body.display_name,
          link: body.url ?? '',
          revokeTokens: true,
        });
      }
      const mail = { address: body.email, accountId: existing.id, lang: request.lang };
      if (plan) await mailIfAllowed(dependencies, mail, plan, time);
      return mailSent();
    }

    const account: Account = {
      id: newId(time),
      email: body.email,
      displayName: body.display_name,
      ...(body.url ? { link: body.url } : {}),
      // Registration never makes an administrator, whoever comes first.
      type: 'guest',
      state: 'unconfirmed',
      passwordHash,
      sessionVersion: 0,
      createdAt: time,
    };
    // Another registration of this address won the race: it mails its own link; this one answers the same.
    if ((await accounts.create(account)) === 'exists') return mailSent();
    const mail = { address: body.email, accountId: account.id, lang: request.lang };
    await mailIfAllowed(dependencies, mail, accountMailAllowance.confirm, time);
    return mailSent();
  };
}

/** The mail an existing account's address gets when someone registers with it, if any. */
function planForExisting(account: Account): AccountMailPlan | undefined {
  if (account.type === 'banned') return undefined;
  if (account.state === 'unconfirmed') return accountMailAllowance.confirm;
  if (account.state === 'active') return accountMailAllowance['already-registered'];
  // Awaiting approval: the owner confirmed already and waits for an administrator; nothing to tell.
  return undefined;
}
