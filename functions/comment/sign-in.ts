import { hashPassword, isImportedHash, verifyPassword } from '../shared/auth/password.js';
import { clientNetwork, signInLimits } from '../shared/auth/sign-in-guard.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { limits } from '../shared/domain/limits.js';
import { translate } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Config } from '../shared/config.js';
import type { Account } from '../shared/domain/account.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { SignInRecords } from '../shared/table/sign-in-records.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import { captchaTokenSchema } from '../shared/domain/comment-schemas.js';
import { accountHashOf, admitAccountAttempt, tooManySignIns } from './account-attempts.js';
import type { CaptchaGuard } from './captcha-guard.js';
import type { IssueSession } from './issue-session.js';
import type { CheckSecondFactor } from './second-factor.js';

const signInBodySchema = z.object({
  email: z.email().check(z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(limits.passwordMaxChars)),
  // Waline's admin and the sign-in page send the captcha token under the widget's names.
  turnstile: captchaTokenSchema,
  recaptchaV3: captchaTokenSchema,
  /** The second factor (second-factor.ts): 6 to 8 digits of an authenticator app, or a recovery code. */
  code: z.optional(
    z.union([z.string().check(z.regex(/^\d{6,8}$/)), z.string().check(z.regex(/^[A-Za-z0-9-]{1,32}$/))]),
  ),
});

/** Sign-in attempts one IP (an IPv6 /64) may make per window. */
const attemptsPerWindow = 10;
const windowMs = 15 * 60 * 1000;

/** A hash no password matches, verified for unknown accounts so their timing matches known ones. */
const decoyHash = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * `POST /api/token {email, password, code?}`: signs an account in (administrator or guest) and answers
 * Waline's user shape with a signed token. Attempts are limited per IP (an IPv6 /64) and window, and per email address
 * with a growing lock (auth/sign-in-guard.ts, which says how the lock is bounded), so passwords cannot
 * be guessed fast from one address or from many. Unknown addresses are limited alike: the answers
 * never tell which addresses are administrators'. With a captcha in force, an attempt without its token is
 * refused before anything is counted, and the token is verified after the IP limit and before the account's
 * lock counts the attempt (a refused token locks nobody out); a provider that cannot be asked is a 503, since
 * a sign-in cannot wait for moderation as a comment can.
 *
 * Then the password: an unknown address, a wrong password and a banned account get the same refusal. Only
 * after a right password does an account that is unconfirmed or awaiting approval learn so (a 403 that says
 * what to do), and an account with a second factor is asked for it (second-factor.ts). A password hash
 * imported from Waline (bcrypt) is replaced by scrypt on the first sign-in it lets through.
 */
export function createSignIn({
  accounts,
  signInRecords,
  secondFactor,
  config,
  tokenSecret,
  now,
  issueSession,
  captcha,
}: {
  readonly accounts: Pick<AccountRepository, 'findByEmail' | 'update'>;
  readonly signInRecords: SignInRecords;
  /** The second factor's check, after the password (second-factor.ts). */
  readonly secondFactor: CheckSecondFactor;
  /** The captcha check (captcha-guard.ts), as on comments. */
  readonly captcha: CaptchaGuard;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  /** The key that signs tokens, read first: without one, sign-in is refused before anything is counted. */
  readonly tokenSecret: SecretSource;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** What ends every sign-in: the account's checks and its token (issue-session.ts). */
  readonly issueSession: IssueSession;
}): Router {
  return async (request) => {
    const body = parseInput(signInBodySchema, request.jsonBody(), request.lang);
    const { email, password } = body;
    const secret = await tokenSecret();
    if (!secret) throw new AppError('forbidden', translate(request.lang, 'signInDisabled'));
    const demand = await captcha.demand(
      { turnstile: body.turnstile, recaptchaV3: body.recaptchaV3 },
      request,
    );

    const time = now();
    const window = Math.floor(time / windowMs);
    const networkHash = hashIp(config.IP_HASH_SALT, clientNetwork(request.sourceIp));
    const accountHash = accountHashOf(config.IP_HASH_SALT, email);
    const [attempts, record] = await Promise.all([
      signInRecords.countSignInAttempt(networkHash, window, Math.ceil(((window + 2) * windowMs) / 1000)),
      signInRecords.signInRecord(accountHash, networkHash),
    ]);
    if (attempts > attemptsPerWindow) throw tooManySignIns(request.lang, time, (window + 1) * windowMs);
    if (!(await captcha.verify(demand, request)).passed) {
      throw new AppError('unavailable', translate(request.lang, 'captchaUnavailable'));
    }

    // Where the administrator signed in lately only the IP limit applies: an attacker who keeps the
    // account locked does not lock its owner out there.
    if (record.networkKnownUntil <= time) {
      await admitAccountAttempt(
        signInRecords,
        { accountHash, networkHash },
        record.failures,
        time,
        request.lang,
      );
    }

    const found = await accounts.findByEmail(email);
    const valid = await verifyPassword(password, found?.passwordHash ?? decoyHash);
    // Unknown, wrong or banned: one answer, so that it tells nobody which addresses have accounts.
    if (!found || !valid || found.type === 'banned') {
      throw new AppError('unauthorized', translate(request.lang, 'wrongCredentials'));
    }
    if (found.state === 'unconfirmed')
      throw new AppError('forbidden', translate(request.lang, 'confirmAddressFirst'));
    if (found.state === 'awaiting-approval') {
      throw new AppError('forbidden', translate(request.lang, 'awaitingApproval'));
    }
    await secondFactor(found, body.code, request.lang);
    await signInRecords.signedIn(
      accountHash,
      networkHash,
      Math.ceil((time + signInLimits.knownNetworkMs) / 1000),
    );
    const account = isImportedHash(found.passwordHash) ? await upgradeHash(accounts, found, password) : found;

    return envelope(await issueSession(account, request.lang));
  };
}

/**
 * Replaces an imported bcrypt hash by scrypt now that the password is known right. Tokens stay good (the
 * password is the same); a concurrent change (the account changed meanwhile) keeps the account as it is.
 */
async function upgradeHash(
  accounts: Pick<AccountRepository, 'update'>,
  account: Account,
  password: string,
): Promise<Account> {
  const update = await accounts.update(
    account.id,
    { passwordHash: await hashPassword(password) },
    account.sessionVersion,
  );
  return update.status === 'updated' ? update.account : account;
}
