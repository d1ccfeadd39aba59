import { verifyPassword } from '../shared/auth/password.js';
import { invalidField } from '../shared/domain/invalid-field.js';
import {
  proveSecondFactor,
  maxSecondFactorCodeChars,
  secondFactorKeys,
} from '../shared/auth/second-factor.js';
import { sealSecret, openSecret } from '../shared/auth/secret-box.js';
import {
  checkTotp,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
} from '../shared/auth/totp.js';
import { AppError } from '../shared/domain/errors.js';
import { once } from '../shared/once.js';
import { limits } from '../shared/domain/limits.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { type ApiRequest, parseInput, singleQuery } from '../shared/http/request.js';
import type { HttpResult } from '../shared/http/http-types.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountTotpStore } from '../shared/table/account-totp.js';

/** The QR renderer (uqr), imported by the first enrolment of an instance: no other request draws one. */
const loadQr = once(() => import('../shared/auth/totp-qr.js'));

/** How long an enrolment waits for its first code: time to scan the QR and type one, not to leave it lying. */
export const pendingEnrolmentMs = 10 * 60 * 1000;

/** The signed-in account a request's token names, as read for the request. */
export interface SignedInAccount {
  readonly id: string;
  readonly email: string;
  /** Never shown: turning TOTP off checks the password against it. */
  readonly passwordHash: string;
}

/** What the two-factor routes need from the rest of the function. */
export interface TwoFactorDependencies {
  /** The account behind a request's `Authorization` (any account, not only administrators); undefined: none. */
  readonly signedIn: (request: ApiRequest) => Promise<SignedInAccount | undefined>;
  /**
   * The per-account attempt limit the sign-in uses (auth/sign-in-guard.ts), around a check of the password and
   * code: `admit` counts the attempt (throwing a 429 while the account is locked) before any hashing, and
   * `succeeded` forgets the failures. One lock for guesses at the sign-in and here.
   */
  readonly attempts: {
    readonly admit: (email: string, request: ApiRequest) => Promise<void>;
    readonly succeeded: (email: string, request: ApiRequest) => Promise<void>;
  };
  /** A fresh token for the account after its session version grew to `sessionVersion` (enrolment revokes others). */
  readonly tokenAfter: (account: SignedInAccount, sessionVersion: number) => Promise<string | undefined>;
  readonly totp: AccountTotpStore;
  /** The key that signs tokens: the second factor's keys are derived from it (auth/second-factor.ts). */
  readonly tokenSecret: SecretSource;
  /** The name authenticator apps show for the site (SITE_NAME, else the host of SITE_URL). */
  readonly issuer: string;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

const codeSchema = z.string().check(z.minLength(1), z.maxLength(maxSecondFactorCodeChars));
const passwordSchema = z.string().check(z.minLength(1), z.maxLength(limits.passwordMaxChars));
const confirmBodySchema = z.object({
  code: z.string().check(z.regex(/^\s*\d{6}\s*$/, 'must be 6 digits')),
  /** The account's password: a token alone (read off the blog by XSS) must not bind an attacker's authenticator. */
  password: passwordSchema,
});
const disableBodySchema = z.object({ password: passwordSchema, code: codeSchema });
const emailQuerySchema = z.object({ email: z.email().check(z.maxLength(254)) });

/** An answer that holds a secret or recovery codes: no cache anywhere keeps it. */
const uncached = (result: HttpResult): HttpResult => ({
  ...result,
  headers: { ...result.headers, 'cache-control': 'no-store' },
});

/**
 * `/api/token/2fa` (Waline's path and names): TOTP for every account.
 *
 * - `GET` by a signed-in account without TOTP: a fresh secret, answered once as `{enable: false, otpauth_url,
 *   secret, qr}` (the QR an SVG data URL rendered here) and kept sealed (auth/secret-box.ts) as the account's
 *   pending enrolment for {@link pendingEnrolmentMs}; another GET replaces it. With TOTP on: `{enable: true}` and
 *   never the secret. This GET writes, as Waline's enrolment is a GET; it writes only the caller's own pending
 *   secret, which nothing trusts until a code confirms it.
 * - `GET ?email=` without a token (Waline's admin page asks it to decide whether to show a code field):
 *   `{enable: false}` for every address, so it tells nothing about accounts; the sign-in answers when a code is
 *   needed, after the password.
 * - `POST {code, password}`: with the account's password (counted against its sign-in lock before it is hashed: a
 *   token read off the blog cannot bind an attacker's authenticator and lock its owner out), the code of the STORED
 *   pending secret (never one the client sends) turns TOTP on, answers ten recovery codes once, and revokes every
 *   other token (they were signed in without the second factor); the answer carries the caller's new one. An
 *   account without a password (made from an external identity) signs in through its provider, whose second
 *   factor applies: it is refused.
 * - `DELETE {password, code}`: turns TOTP off with the password and a TOTP or recovery code, counted against the
 *   account's sign-in lock like a sign-in. Other tokens stay: whoever turns it off had the password and a code.
 */
export function createTwoFactorRoutes(dependencies: TwoFactorDependencies): {
  readonly show: Router;
  readonly confirm: Router;
  readonly disable: Router;
} {
  const { signedIn, totp, now } = dependencies;

  const keysOf = async (lang: Lang) => {
    const secret = await dependencies.tokenSecret();
    if (!secret) throw new AppError('forbidden', translate(lang, 'signInDisabled'));
    return secondFactorKeys(secret);
  };
  const requireSignedIn = async (request: ApiRequest) => {
    const account = await signedIn(request);
    if (!account) throw new AppError('unauthorized', translate(request.lang, 'twoFactorNeedsSignIn'));
    return account;
  };

  const show: Router = async (request) => {
    const account = await signedIn(request);
    if (!account) {
      if (singleQuery(request, 'email') === undefined) {
        throw new AppError('unauthorized', translate(request.lang, 'twoFactorNeedsSignIn'));
      }
      parseInput(emailQuerySchema, { email: request.query('email') }, request.lang);
      return envelope({ enable: false });
    }
    const keys = await keysOf(request.lang);
    const stored = await totp.read(account.id);
    if (!stored) throw new AppError('unauthorized', translate(request.lang, 'twoFactorNeedsSignIn'));
    if (stored.secret) return uncached(envelope({ enable: true }));

    const secret = newTotpSecret();
    const started = await totp.startEnrolment(
      account.id,
      sealSecret(keys.secret, account.id, secret),
      now() + pendingEnrolmentMs,
    );
    // Turned on by another request meanwhile: the secret of this one is nobody's.
    if (!started) return uncached(envelope({ enable: true }));
    const url = otpauthUrl(secret, dependencies.issuer, account.email);
    return uncached(
      envelope({ enable: false, otpauth_url: url, secret, qr: (await loadQr()).qrDataUrl(url) }),
    );
  };

  const confirm: Router = async (request) => {
    const account = await requireSignedIn(request);
    const { code, password } = parseInput(confirmBodySchema, request.jsonBody(), request.lang);
    const keys = await keysOf(request.lang);
    if (account.passwordHash === '') {
      throw new AppError('forbidden', translate(request.lang, 'twoFactorNeedsPassword'));
    }
    const stored = await totp.read(account.id);
    if (!stored) throw new AppError('unauthorized', translate(request.lang, 'twoFactorNeedsSignIn'));
    if (stored.secret) throw new AppError('duplicate', translate(request.lang, 'twoFactorAlreadyOn'));
    // Counted before the password is hashed, on the sign-in's lock: guesses with a stolen token stay slow.
    await dependencies.attempts.admit(account.email, request);
    if (!(await verifyPassword(password, account.passwordHash))) {
      throw new AppError('unauthorized', translate(request.lang, 'wrongPassword'), {
        password: 'is not the account\u2019s password',
      });
    }
    await dependencies.attempts.succeeded(account.email, request);
    const time = now();
    const pending = stored.pending && stored.pending.until > time ? stored.pending : undefined;
    const secret = pending && openSecret(keys.secret, account.id, pending.secret);
    if (!pending || secret === undefined)
      throw invalidField(request.lang, 'code', 'no enrolment is pending; start again');
    const check = checkTotp(secret, code.trim(), time, -1);
    if (!check.ok)
      throw invalidField(request.lang, 'code', 'is not the code of the secret shown; try the next one');

    const recoveryCodes = newRecoveryCodes();
    const version = await totp.confirmEnrolment(
      account.id,
      pending.secret,
      check.step,
      recoveryCodes.map((recoveryCode) => hashRecoveryCode(keys.recovery, account.id, recoveryCode)),
      time,
    );
    // Another GET replaced the pending secret, or another POST confirmed it, since it was read.
    if (version === undefined)
      throw invalidField(request.lang, 'code', 'the enrolment changed meanwhile; start again');
    const token = await dependencies.tokenAfter(account, version);
    return uncached(envelope({ enable: true, recovery_codes: recoveryCodes, ...(token ? { token } : {}) }));
  };

  const disable: Router = async (request) => {
    const account = await requireSignedIn(request);
    const body = parseInput(disableBodySchema, request.jsonBody(), request.lang);
    const keys = await keysOf(request.lang);
    const stored = await totp.read(account.id);
    if (!stored) throw new AppError('unauthorized', translate(request.lang, 'twoFactorNeedsSignIn'));
    if (!stored.secret) return envelope({ enable: false });

    // Counted before the password is hashed: refused guesses stay cheap and share the sign-in's lock.
    await dependencies.attempts.admit(account.email, request);
    if (!(await verifyPassword(body.password, account.passwordHash))) {
      throw new AppError('unauthorized', translate(request.lang, 'wrongPassword'));
    }
    const time = now();
    const proof = proveSecondFactor(keys, account.id, stored, body.code, time);
    if (!proof.ok || !(await totp.disable(account.id, stored.secret, proof.proof, time))) {
      throw new AppError('unauthorized', translate(request.lang, 'wrongSecondFactor'), { code: 'wrong' });
    }
    await dependencies.attempts.succeeded(account.email, request);
    return envelope({ enable: false });
  };

  return { show, confirm, disable };
}
