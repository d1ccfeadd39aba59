import { hashPassword } from '../shared/auth/password.js';
import { clientNetwork } from '../shared/auth/sign-in-guard.js';
import type { Config } from '../shared/config.js';
import type { Account } from '../shared/domain/account.js';
import { registerBodySchema } from '../shared/domain/account-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { translate } from '../shared/domain/messages.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { QueueAccountMail } from '../shared/table/account-mail-event.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import { accountMailAllowance, type AccountMailPlan, takeAccountMailSlot } from './account-mail-allowance.js';
import type { CaptchaGuard } from './captcha-guard.js';

/** Registrations one IP (an IPv6 /64) may make per window. */
export const registrationsPerWindow = 5;
const windowMs = 60 * 60 * 1000;

/** What registration takes. */
export interface RegisterAccountDependencies {
  readonly accounts: Pick<AccountRepository, 'findByEmail' | 'create'>;
  readonly limits: Pick<AccountLimits, 'countAttempt' | 'takeMailSlot'>;
  readonly queueMail: QueueAccountMail;
  readonly captcha: CaptchaGuard;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'REGISTRATION'>;
  /** The keyed hash of a normalised address (per-address mail limits). */
  readonly hashAddress: HashAddress;
  readonly now: () => number;
  /** A new ULID for `time`: the account's id, and each mail event's. */
  readonly newId: (time: number) => string;
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
  const { accounts, limits, queueMail, captcha, config, hashAddress, now, newId } = dependencies;
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
    const window = Math.floor(time / windowMs);
    const networkHash = hashIp(config.IP_HASH_SALT, clientNetwork(request.sourceIp));
    const expiresAt = Math.ceil(((window + 2) * windowMs) / 1000);
    if ((await limits.countAttempt('register', networkHash, window, expiresAt)) > registrationsPerWindow) {
      const minutes = Math.max(1, Math.ceil(((window + 1) * windowMs - time) / 60_000));
      throw new AppError('rate_limited', translate(request.lang, 'tooManyRegistrations', { minutes }));
    }
    if (!(await captcha.verify(demand, request)).passed) {
      throw new AppError('unavailable', translate(request.lang, 'registrationUnavailable'));
    }

    const passwordHash = await hashPassword(body.password);
    const existing = await accounts.findByEmail(body.email);
    const plan = existing ? planForExisting(existing) : undefined;
    if (existing) {
      if (plan) await mailIfAllowed(dependencies, body.email, existing.id, plan, request.lang, time);
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
    await mailIfAllowed(
      dependencies,
      body.email,
      account.id,
      accountMailAllowance.confirm,
      request.lang,
      time,
    );
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

/** Queues `plan`'s mail to the account when the address has a slot of its kind left. */
async function mailIfAllowed(
  { limits, queueMail, hashAddress, newId }: RegisterAccountDependencies,
  address: string,
  accountId: string,
  plan: AccountMailPlan,
  lang: 'en' | 'zh-CN',
  time: number,
): Promise<void> {
  if (!(await takeAccountMailSlot(limits, hashAddress(address), plan, time))) return;
  await queueMail(newId(time), time, { accountId, mail: plan.mail, lang });
}
