import { createHmac } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { CommentStatus } from '../domain/comment.js';
import { addressHashPattern, unkeyedHashPattern } from './address-hash.js';

/**
 * Tokens in the links of a mail: signed (HS256) with a key derived from the link key (LINK_SECRET, on AWS
 * the SSM SecureString LINK_SECRET_PARAMETER names), a secret of its own that the notifier and the comment
 * function share and the sign-in key is not: whoever holds it can sign links, never a sign-in token.
 * Single-purpose (the purpose is signed, and a reader of one purpose refuses every other), expiring, and
 * with no personal data (an address only as its keyed hash, notify/address-hash.ts).
 */

/** What an unsubscribe link does: `rootId` set, the reader may mute that thread; always, leave the site. */
export interface UnsubscribeClaims {
  readonly purpose: 'unsubscribe';
  /** The keyed hash of the reader's address (notify/address-hash.ts). */
  readonly addressHash: string;
  /** The thread the mail was about. */
  readonly rootId?: string;
}

/** What a moderation link in the owner's mail does: one action on one comment, as the owner saw it. */
export interface ModerateClaims {
  readonly purpose: 'moderate';
  readonly action: 'approve' | 'spam' | 'delete';
  readonly commentId: string;
  /**
   * The comment's status when the mail was made (normally `waiting`): the link acts only on a comment
   * still in it, so a decision taken in `/ui` meanwhile is never undone from an old mail.
   */
  readonly status: CommentStatus;
}

/**
 * What a confirmation link does (REPLY_MAIL=confirmed): the reader's address takes reply mail from now on,
 * and the reply notice its confirmation mail stood in for is sent.
 */
export interface ConfirmClaims {
  readonly purpose: 'confirm';
  /** The keyed hash of the reader's address (notify/address-hash.ts). */
  readonly addressHash: string;
  /** The outbox event whose reply notice waits for the click. */
  readonly eventId: string;
}

/**
 * What an account's confirmation link does (registration): the account leaves `unconfirmed`. Single use: the
 * route records the token as used (table/account-limits.ts) before it acts.
 */
export interface AccountConfirmClaims {
  readonly purpose: 'account-confirm';
  readonly accountId: string;
}

/**
 * What a password-reset link does: sets the account's password, once, and only while the account's session
 * version is still the one the link was made under (a reset, a password change or a ban moves it on, so every
 * older reset link dies with the tokens).
 */
export interface AccountResetClaims {
  readonly purpose: 'account-reset';
  readonly accountId: string;
  /** The account's `sessionVersion` when the link was made. */
  readonly version: number;
}

/**
 * What an address-change link does: the account's address becomes the one the link was mailed to, once, and only
 * while the account's session version is the one the link was made under (a password change or a ban kills it).
 * The new address travels sealed (notify/sealed-address.ts): the link carries no address in clear.
 */
export interface AccountAddressClaims {
  readonly purpose: 'account-address';
  readonly accountId: string;
  /** The account's `sessionVersion` when the link was made. */
  readonly version: number;
  /** The new address, sealed with the link key. */
  readonly sealedAddress: string;
}

/**
 * What a commenter's data link does (`/ui/my-data?token=`, 1 hour): with it as a Bearer, `GET /api/my-data` answers
 * everything stored for the address (again, while it lasts) and `DELETE /api/my-data` erases it, once (the route
 * records the token as used before it acts).
 */
export interface MyDataClaims {
  readonly purpose: 'my-data';
  /** The keyed hash of the normalised address (notify/address-hash.ts): every key of its data. */
  readonly addressHash: string;
  /**
   * The normalised address, sealed with the link key (notify/sealed-address.ts): its account claim is found by it,
   * and a link carries no address in clear.
   */
  readonly sealedAddress: string;
}

/** The claims a link token carries. */
export type LinkClaims =
  | UnsubscribeClaims
  | ModerateClaims
  | ConfirmClaims
  | AccountConfirmClaims
  | AccountResetClaims
  | AccountAddressClaims
  | MyDataClaims;

/** The claims of a link token of `Purpose`. */
export type ClaimsOf<Purpose extends LinkClaims['purpose']> = Extract<LinkClaims, { purpose: Purpose }>;

const header = { alg: 'HS256', typ: 'JWT' } as const;
const maxTokenChars = 2048;
const audience = 'marginalia-link';
const idPattern = /^[0-9A-Za-z]{1,64}$/;
/** A sealed address (notify/sealed-address.ts): three base64url parts, bounded. */
const sealedPattern = /^[\w-]{16}\.[\w-]{1,1400}\.[\w-]{22}$/;
const statuses: readonly unknown[] = ['approved', 'waiting', 'spam'] satisfies CommentStatus[];
const actions: readonly unknown[] = ['approve', 'spam', 'delete'] satisfies ModerateClaims['action'][];

/** The signing key from the link key: HMAC(secret, label), so the link key itself signs nothing. */
function signingKey(secret: string): Uint8Array {
  return createHmac('sha256', secret).update('marginalia link tokens v2').digest();
}

/** The key links were signed with before the link key: derived from the sign-in key (read, never signed with). */
function unkeyedEraKey(signInSecret: string): Uint8Array {
  return createHmac('sha256', signInSecret).update('marginalia link tokens v1').digest();
}

/** Signs `claims` as a link token valid until `expiresAtMs`, with the link key `secret`. */
export function signLinkToken(secret: string, claims: LinkClaims, expiresAtMs: number): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader(header)
    .setAudience(audience)
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .sign(signingKey(secret));
}

/** The unsubscribe claims in `payload` (its hash of the form `pattern`), or undefined when a field is missing or malformed. */
function unsubscribeClaims(
  { addressHash, rootId }: JWTPayload,
  pattern = addressHashPattern,
): UnsubscribeClaims | undefined {
  if (typeof addressHash !== 'string' || !pattern.test(addressHash)) return undefined;
  if (rootId !== undefined && (typeof rootId !== 'string' || !idPattern.test(rootId))) return undefined;
  return { purpose: 'unsubscribe', addressHash, ...(rootId === undefined ? {} : { rootId }) };
}

/** The moderation claims in `payload`, or undefined when a field is missing or malformed. */
function moderateClaims({ action, commentId, status }: JWTPayload): ModerateClaims | undefined {
  if (!actions.includes(action) || !statuses.includes(status)) return undefined;
  if (typeof commentId !== 'string' || !idPattern.test(commentId)) return undefined;
  return {
    purpose: 'moderate',
    action: action as ModerateClaims['action'],
    commentId,
    status: status as CommentStatus,
  };
}

/** The confirmation claims in `payload`, or undefined when a field is missing or malformed. */
function confirmClaims({ addressHash, eventId }: JWTPayload): ConfirmClaims | undefined {
  if (typeof addressHash !== 'string' || !addressHashPattern.test(addressHash)) return undefined;
  if (typeof eventId !== 'string' || !idPattern.test(eventId)) return undefined;
  return { purpose: 'confirm', addressHash, eventId };
}

/** The account confirmation claims in `payload`, or undefined when a field is missing or malformed. */
function accountConfirmClaims({ accountId }: JWTPayload): AccountConfirmClaims | undefined {
  if (typeof accountId !== 'string' || !idPattern.test(accountId)) return undefined;
  return { purpose: 'account-confirm', accountId };
}

/** The password-reset claims in `payload`, or undefined when a field is missing or malformed. */
function accountResetClaims({ accountId, version }: JWTPayload): AccountResetClaims | undefined {
  if (typeof accountId !== 'string' || !idPattern.test(accountId)) return undefined;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return undefined;
  return { purpose: 'account-reset', accountId, version };
}

/** The address-change claims in `payload`, or undefined when a field is missing or malformed. */
function accountAddressClaims({
  accountId,
  version,
  sealedAddress,
}: JWTPayload): AccountAddressClaims | undefined {
  const reset = accountResetClaims({ accountId, version });
  if (!reset || typeof sealedAddress !== 'string' || !sealedPattern.test(sealedAddress)) return undefined;
  return { purpose: 'account-address', accountId: reset.accountId, version: reset.version, sealedAddress };
}

/** The data link claims in `payload`, or undefined when a field is missing or malformed. */
function myDataClaims({ addressHash, sealedAddress }: JWTPayload): MyDataClaims | undefined {
  if (typeof addressHash !== 'string' || !addressHashPattern.test(addressHash)) return undefined;
  if (typeof sealedAddress !== 'string' || !sealedPattern.test(sealedAddress)) return undefined;
  return { purpose: 'my-data', addressHash, sealedAddress };
}

/** The reader of each purpose's claims. */
const claimsOf = {
  unsubscribe: (payload: JWTPayload) => unsubscribeClaims(payload),
  moderate: moderateClaims,
  confirm: confirmClaims,
  'account-confirm': accountConfirmClaims,
  'account-reset': accountResetClaims,
  'account-address': accountAddressClaims,
  'my-data': myDataClaims,
} as const satisfies Record<LinkClaims['purpose'], (payload: JWTPayload) => LinkClaims | undefined>;

/**
 * The claims of `token` when it is a link token of `purpose`, signed with the link key `secret` and
 * unexpired at `nowMs`. Only `purpose`'s fields are read, and only after the signed purpose was found to
 * be `purpose`: a token of another purpose is refused even when it carries every field this one needs.
 */
export async function readLinkToken<Purpose extends LinkClaims['purpose']>(
  secret: string,
  token: string | undefined,
  purpose: Purpose,
  nowMs: number,
): Promise<ClaimsOf<Purpose> | undefined> {
  const payload = await verifiedPayload(signingKey(secret), token, nowMs);
  if (payload?.purpose !== purpose) return undefined;
  return claimsOf[purpose](payload) as ClaimsOf<Purpose> | undefined;
}

/**
 * The claims of an unsubscribe link mailed before the link key existed: signed with a key derived from the
 * sign-in key `signInSecret`, its address as the unkeyed hash (`addressHash` here is that SHA-256, for the
 * caller to key). Read only so that such links keep working until they expire (a year after their mail);
 * a moderation link of that time, or any token not of this form, is refused.
 */
export async function readUnkeyedUnsubscribeToken(
  signInSecret: string,
  token: string | undefined,
  nowMs: number,
): Promise<UnsubscribeClaims | undefined> {
  const payload = await verifiedPayload(unkeyedEraKey(signInSecret), token, nowMs);
  if (payload?.purpose !== 'unsubscribe') return undefined;
  return unsubscribeClaims(payload, unkeyedHashPattern);
}

/** The payload of `token` when `key` signed it as a link token unexpired at `nowMs`, else undefined. */
async function verifiedPayload(
  key: Uint8Array,
  token: string | undefined,
  nowMs: number,
): Promise<JWTPayload | undefined> {
  if (!token || token.length > maxTokenChars) return undefined;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [header.alg],
      typ: header.typ,
      audience,
      currentDate: new Date(nowMs),
      // Every link we sign expires: a token without `exp` is not one of ours.
      requiredClaims: ['exp'],
    });
    return payload;
  } catch {
    // Bad signature, expired, wrong audience or shape: a link we did not sign, or one no longer valid.
    return undefined;
  }
}
