import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * Tokens in the links of a mail: signed (HS256) with a key derived from the sign-in key for this use
 * alone, so a link token is never a sign-in token nor the reverse; single-purpose (the purpose and action
 * are signed), expiring, and with no personal data (an address only as its hash).
 */

/** What an unsubscribe link does: `rootId` set, the reader may mute that thread; always, leave the site. */
export interface UnsubscribeClaims {
  readonly purpose: 'unsubscribe';
  /** notify/address-hash.ts of the reader's address. */
  readonly addressHash: string;
  /** The thread the mail was about. */
  readonly rootId?: string;
}

/** What a moderation link in the owner's mail does: one action on one comment. */
export interface ModerateClaims {
  readonly purpose: 'moderate';
  readonly action: 'approve' | 'spam' | 'delete';
  readonly commentId: string;
}

/** The claims a link token carries. */
export type LinkClaims = UnsubscribeClaims | ModerateClaims;

const header = { alg: 'HS256', typ: 'JWT' } as const;
const maxTokenChars = 2048;
const audience = 'marginalia-link';

/** The link-token key from the sign-in key: HMAC(secret, label), so neither key opens the other's tokens. */
function linkKey(secret: string): Uint8Array {
  return createHmac('sha256', secret).update('marginalia link tokens v1').digest();
}

/** Signs `claims` as a link token valid until `expiresAtMs`. */
export function signLinkToken(secret: string, claims: LinkClaims, expiresAtMs: number): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader(header)
    .setAudience(audience)
    .setExpirationTime(Math.floor(expiresAtMs / 1000))
    .sign(linkKey(secret));
}

/** The claims of `token` when it is a link token of `purpose`, signed with `secret`'s link key and unexpired at `nowMs`. */
export async function readLinkToken<Purpose extends LinkClaims['purpose']>(
  secret: string,
  token: string | undefined,
  purpose: Purpose,
  nowMs: number,
): Promise<Extract<LinkClaims, { purpose: Purpose }> | undefined> {
  if (!token || token.length > maxTokenChars) return undefined;
  try {
    const { payload } = await jwtVerify(token, linkKey(secret), {
      algorithms: [header.alg],
      typ: header.typ,
      audience,
      currentDate: new Date(nowMs),
      // Every link we sign expires: a token without `exp` is not one of ours.
      requiredClaims: ['exp'],
    });
    if (payload.purpose !== purpose) return undefined;
    if (purpose === 'unsubscribe') {
      const { addressHash, rootId } = payload;
      if (typeof addressHash !== 'string' || !/^[0-9a-f]{64}$/.test(addressHash)) return undefined;
      if (rootId !== undefined && (typeof rootId !== 'string' || !/^[0-9A-Za-z]{1,64}$/.test(rootId))) {
        return undefined;
      }
      return { purpose, addressHash, ...(rootId === undefined ? {} : { rootId }) } as Extract<
        LinkClaims,
        { purpose: Purpose }
      >;
    }
    const { action, commentId } = payload;
    if (action !== 'approve' && action !== 'spam' && action !== 'delete') return undefined;
    if (typeof commentId !== 'string' || !/^[0-9A-Za-z]{1,64}$/.test(commentId)) return undefined;
    return { purpose, action, commentId } as Extract<LinkClaims, { purpose: Purpose }>;
  } catch {
    // Bad signature, expired, wrong audience or shape: a link we did not sign, or one no longer valid.
    return undefined;
  }
}
