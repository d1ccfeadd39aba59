/**
 * Accounts: administrators and visitors alike (issue 27). One item per account, `USER#<id>` / `USER`
 * (table/keys.ts `keys.account`), and one claim of its address, `EMAIL#<normalised address>` / `USER`
 * (`keys.accountEmail`), written in the same transaction so that an address has at most one account. A
 * comment written by a signed-in account stores its id as `userId` (Waline's `user_id`); reads overlay the
 * account's current public profile (`AuthorProfile`) on it.
 */

/** Waline's user `type`: who the account is to the widget. `banned` can neither sign in nor post. */
export type AccountType = 'administrator' | 'guest' | 'banned';

/**
 * Where an account is in its life: `unconfirmed` until its owner follows the mailed link (registration),
 * `awaiting-approval` until an administrator admits it (`REGISTRATION=approval`), then `active`. Only an
 * active account that is not banned signs in.
 */
export type AccountState = 'active' | 'unconfirmed' | 'awaiting-approval';

/** The second factor of an account: a TOTP secret (encrypted at rest) and its single-use recovery codes. */
export interface AccountTotp {
  /** The TOTP secret, encrypted with a key derived from the token key (never returned). */
  readonly secret: string;
  /** The last time step whose code was accepted: a code of that step or an earlier one is refused. */
  readonly lastStep: number;
  /** Keyed hashes of the recovery codes not yet used. */
  readonly recoveryHashes: readonly string[];
}

/** An account as the table holds it. The password hash and the TOTP secret never leave the server. */
export interface Account {
  /** A ULID string (migrated administrators keep their id): the widget's `objectId` and comments' `user_id`. */
  readonly id: string;
  /** The address as typed (mail goes there); its normalised form is what is unique. */
  readonly email: string;
  readonly displayName: string;
  /** Waline's `url`. */
  readonly link?: string;
  /** An avatar URL the account chose; absent: the avatar is computed from the address. */
  readonly avatar?: string;
  /** A badge set by administrators only (Waline's `label`). */
  readonly label?: string;
  readonly type: AccountType;
  readonly state: AccountState;
  /** scrypt (auth/password.ts), or a bcrypt hash imported from Waline until its first sign-in upgrades it. */
  readonly passwordHash: string;
  /**
   * Tokens carry the version they were issued under (`ver`); a token of another version is refused. A password
   * change, a ban or "sign out everywhere" increments it, which revokes every token issued before.
   */
  readonly sessionVersion: number;
  readonly totp?: AccountTotp;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt?: number;
  /** The account's id in the Waline database it was imported from, if any (import maps `user_id` with it). */
  readonly walineId?: string;
  /**
   * The identity an account signed up with elsewhere (issue 28: OIDC, GitHub, the site's SSO): such an account
   * is found by it (`keys.accountIdentity`), has no password (`passwordHash` is `''`, which no password
   * verifies) and holds no address claim: its address, if any, is its contact only, never a sign-in name.
   */
  readonly identity?: { readonly provider: string; readonly subject: string };
  /**
   * Whether `email` is known to be its owner's: true for an account whose address claim was confirmed by mail, or
   * whose identity provider marked it verified. Absent on password accounts (their `state` says it).
   */
  readonly emailVerified?: boolean;
}

/** What reads overlay on an account's comments, and what the user wall shows: never the password or TOTP. */
export interface AuthorProfile {
  readonly id: string;
  readonly displayName: string;
  readonly link?: string;
  readonly avatar?: string;
  readonly label?: string;
  readonly type: AccountType;
  /** For the computed avatar only, and for administrators' views: never in a public answer. */
  readonly email: string;
}

/** The names of the account item's attributes (table/keys.ts builds its keys). */
export const accountAttributes = {
  id: 'id',
  email: 'email',
  displayName: 'displayName',
  link: 'link',
  avatar: 'avatar',
  label: 'label',
  type: 'type',
  state: 'state',
  passwordHash: 'passwordHash',
  sessionVersion: 'sessionVersion',
  totpSecret: 'totpSecret',
  totpLastStep: 'totpLastStep',
  recoveryHashes: 'recoveryHashes',
  /** An enrolment not yet confirmed: its secret, sealed like `totpSecret` (table/account-totp.ts). */
  totpPendingSecret: 'totpPendingSecret',
  /** Until when (ms since the epoch) the pending secret can be confirmed. */
  totpPendingUntil: 'totpPendingUntil',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  walineId: 'walineId',
  identityProvider: 'identityProvider',
  identitySubject: 'identitySubject',
  emailVerified: 'emailVerified',
} as const;

/** The attributes a profile overlay reads (a projection of the account item). */
export const authorProfileAttributes = [
  accountAttributes.id,
  accountAttributes.email,
  accountAttributes.displayName,
  accountAttributes.link,
  accountAttributes.avatar,
  accountAttributes.label,
  accountAttributes.type,
] as const;
