import { createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as every authenticator app does it: SHA-1, 6 digits, 30-second steps, a 20-byte secret in
 * base32. Pure: the caller keeps the last accepted step and the recovery-code hashes (table/account-totp.ts).
 */
export const totpParameters = { algorithm: 'SHA1', digits: 6, period: 30, secretBytes: 20 } as const;

/** Steps either side of the current one a code may belong to: a phone's clock 30 s off still signs in. */
const stepWindow = 1;

/** A fresh random secret, base32 (what the otpauth URL and the QR carry). */
export function newTotpSecret(): string {
  return new Secret({ size: totpParameters.secretBytes }).base32;
}

/**
 * The `otpauth://totp/...` URL an authenticator app reads from the QR: `issuer` (the site) and `label` (the
 * account's address) name the entry in the app.
 */
export function otpauthUrl(secret: string, issuer: string, label: string): string {
  return totpOf(secret, issuer, label).toString();
}

/** The time step of `nowMs` (ms since the epoch): the counter a code of that moment is made from. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / totpParameters.period);
}

/** The code of `step` for `secret` (tests and the enrolment test page's counterpart). */
export function totpCodeAt(secret: string, step: number): string {
  return totpOf(secret).generate({ timestamp: step * totpParameters.period * 1000 });
}

/** What checking a code found: the step it belongs to, or why it is refused. */
export type TotpCheck =
  | { readonly ok: true; readonly step: number }
  /** No step of the window makes this code. */
  | { readonly ok: false; readonly reason: 'wrong' }
  /** The code is right but of a step not later than the last accepted one: it was (or could have been) used. */
  | { readonly ok: false; readonly reason: 'reused' };

/**
 * Checks a 6-digit `code` against `secret` at `nowMs`, within one step either side. A code of a step not later
 * than `lastStep` (the last step accepted for the account; -1 for none) is refused as reused: a code is good
 * once, and so is every code before it. The caller stores the step with a condition on the previous one
 * (table/account-totp.ts), so two concurrent sign-ins cannot both use it.
 */
export function checkTotp(secret: string, code: string, nowMs: number, lastStep: number): TotpCheck {
  if (!isTotpCode(code)) return { ok: false, reason: 'wrong' };
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: stepWindow });
  if (delta === null) return { ok: false, reason: 'wrong' };
  const step = totpStep(nowMs) + delta;
  return step > lastStep ? { ok: true, step } : { ok: false, reason: 'reused' };
}

/** Whether `code` has the shape of a TOTP code (six digits); anything else is taken for a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

function totpOf(secret: string, issuer = '', label = 'account'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: totpParameters.algorithm,
    digits: totpParameters.digits,
    period: totpParameters.period,
    secret: Secret.fromBase32(secret),
  });
}

/** How many recovery codes an enrolment gives. */
export const recoveryCodeCount = 10;
/** Letters and digits no one misreads (no 0/o, 1/l/i): 32 of them, 5 bits each. */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 12 characters: 60 bits, too many to guess even with the attempts the sign-in lock allows in a lifetime. */
const recoveryCodeChars = 12;

/** Fresh recovery codes, `xxxx-xxxx-xxxx`: shown once, stored only as {@link hashRecoveryCode} hashes. */
export function newRecoveryCodes(count = recoveryCodeCount): string[] {
  return Array.from({ length: count }, () => {
    const characters = Array.from(
      { length: recoveryCodeChars },
      () => recoveryAlphabet[randomInt(recoveryAlphabet.length)],
    ).join('');
    return characters.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as typed, in the one form it is hashed in: lower case, without spaces or dashes. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * The keyed hash a recovery code is stored under: HMAC-SHA-256 with `key` (secret-box.ts derives it), bound to
 * the account so that a hash copied to another account matches nothing there. Base64url.
 */
export function hashRecoveryCode(key: Buffer, accountId: string, code: string): string {
  return createHmac('sha256', key)
    .update(`${accountId}\n${normaliseRecoveryCode(code)}`)
    .digest('base64url');
}
