import { verifyPassword } from '../shared/auth/password.js';
import { admitAttempt, clientNetwork, signInLimits } from '../shared/auth/sign-in-guard.js';
import { tokenFor } from '../shared/auth/token.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { limits } from '../shared/domain/limits.js';
import { translate } from '../shared/domain/messages.js';
import { presentUser } from '../shared/domain/present-user.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Config } from '../shared/config.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import type { AdminRepository } from '../shared/table/admin-repository.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import { captchaTokenSchema } from '../shared/domain/comment-schemas.js';
import type { CaptchaGuard } from './captcha-guard.js';

const signInBodySchema = z.object({
  email: z.email().check(z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(limits.passwordMaxChars)),
  // Waline's admin and the sign-in page send the captcha token under the widget's names.
  turnstile: captchaTokenSchema,
  recaptchaV3: captchaTokenSchema,
});

/** Sign-in attempts one IP (an IPv6 /64) may make per window. */
const attemptsPerWindow = 10;
const windowMs = 15 * 60 * 1000;
/** How often an attempt that raced another one on the same account reads the account's record again. */
const accountRaceAttempts = 3;

/** A hash no password matches, verified for unknown accounts so their timing matches known ones. */
const decoyHash = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * `POST /api/token {email, password}`: signs an administrator in and answers Waline's user shape
 * with a signed token. Attempts are limited per IP (an IPv6 /64) and window, and per email address
 * with a growing lock (auth/sign-in-guard.ts, which says how the lock is bounded), so passwords cannot
 * be guessed fast from one address or from many. Unknown addresses are limited alike: the answers
 * never tell which addresses are administrators'. With a captcha in force, an attempt without its token is
 * refused before anything is counted, and the token is verified after the IP limit and before the account's
 * lock counts the attempt (a refused token locks nobody out); a provider that cannot be asked is a 503, since
 * a sign-in cannot wait for moderation as a comment can.
 */
export function createSignIn({
  admins,
  config,
  tokenSecret,
  now,
  avatarFor,
  captcha,
}: {
  readonly admins: AdminRepository;
  /** The captcha check (captcha-guard.ts), as on comments. */
  readonly captcha: CaptchaGuard;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'TOKEN_TTL_HOURS'>;
  /** The key that signs tokens; undefined when sign-in is not configured. */
  readonly tokenSecret: SecretSource;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly avatarFor: AvatarFor;
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
    const tooMany = (retryAt: number) =>
      new AppError(
        'rate_limited',
        translate(request.lang, 'tooManySignIns', {
          minutes: Math.max(1, Math.ceil((retryAt - time) / 60_000)),
        }),
      );
    const window = Math.floor(time / windowMs);
    const networkHash = hashIp(config.IP_HASH_SALT, clientNetwork(request.sourceIp));
    // Keyed like IPs: the table keeps no address typed into the form.
    const accountHash = hashIp(config.IP_HASH_SALT, `account:${email.toLowerCase()}`);
    const [attempts, record] = await Promise.all([
      admins.countSignInAttempt(networkHash, window, Math.ceil(((window + 2) * windowMs) / 1000)),
      admins.signInRecord(accountHash, networkHash),
    ]);
    if (attempts > attemptsPerWindow) throw tooMany((window + 1) * windowMs);
    if (!(await captcha.verify(demand, request)).passed) {
      throw new AppError('unavailable', translate(request.lang, 'captchaUnavailable'));
    }

    // Where the administrator signed in lately only the IP limit applies: an attacker who keeps the
    // account locked does not lock its owner out there.
    if (record.networkKnownUntil <= time) {
      let failures = record.failures;
      for (let race = 1; ; race++) {
        const decision = admitAttempt(failures, time);
        if (!decision.admitted) throw tooMany(decision.retryAt);
        const expiresAt = Math.ceil((time + signInLimits.memoryMs) / 1000);
        if (await admins.countAccountAttempt(accountHash, failures, decision.next, expiresAt)) break;
        // Another attempt on this account was counted meanwhile: decide again on the record as it is.
        if (race >= accountRaceAttempts) throw tooMany(time + signInLimits.firstLockMs);
        failures = (await admins.signInRecord(accountHash, networkHash)).failures;
      }
    }

    const account = await admins.find(email);
    const valid = await verifyPassword(password, account?.passwordHash ?? decoyHash);
    if (!account || !valid) throw new AppError('unauthorized', translate(request.lang, 'wrongCredentials'));
    await admins.signedIn(accountHash, networkHash, Math.ceil((time + signInLimits.knownNetworkMs) / 1000));

    const token = await tokenFor(secret, account, time, config.TOKEN_TTL_HOURS);
    return envelope({ ...presentUser(account, avatarFor), token });
  };
}
