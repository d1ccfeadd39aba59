import type { ApiRequest } from '../shared/http/request.js';
import { keyUnkeyedHash } from '../shared/notify/address-hash.js';
import {
  type ClaimsOf,
  type LinkClaims,
  readLinkToken,
  readUnkeyedUnsubscribeToken,
} from '../shared/notify/link-token.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';

/** The claims of a mail link's token for `purpose`, or undefined for a token that is not one (any reason). */
export type ReadLink = <Purpose extends LinkClaims['purpose']>(
  token: string | undefined,
  purpose: Purpose,
) => Promise<ClaimsOf<Purpose> | undefined>;

/**
 * Reads the token of a mail link (`?token=`) with the link key (never the sign-in key). A token the
 * key refuses is tried once more with the key read again (it may have been rotated since this instance
 * read it); the source reads it again at most every so often, so forged tokens cannot make each request
 * do so. A missing key (LINK_SECRET or LINK_SECRET_PARAMETER not set) refuses every new link.
 *
 * With `unkeyedEra`, an unsubscribe link mailed before the link key existed (signed with a key derived
 * from the sign-in key, its address as the unkeyed SHA-256) is accepted until it expires, its hash keyed
 * with the salt as the suppressions are now: a reader can still leave from an old mail. Moderation links
 * of that time are refused (they lasted days; the owner moderates in `/ui`).
 */
export function createLinkReader({
  linkSecret,
  now,
  unkeyedEra,
}: {
  readonly linkSecret: SecretSource;
  readonly now: () => number;
  /** The sign-in key and the IP-hash salt: to read the unsubscribe links mailed before the link key. */
  readonly unkeyedEra?: { readonly tokenSecret: SecretSource; readonly salt: string };
}): ReadLink {
  const readCurrent: ReadLink = async (token, purpose) => {
    const secret = await linkSecret();
    if (!secret) return undefined;
    const claims = await readLinkToken(secret, token, purpose, now());
    if (claims) return claims;
    const fresh = await linkSecret({ refresh: true });
    return fresh && fresh !== secret ? readLinkToken(fresh, token, purpose, now()) : undefined;
  };
  const readUnkeyedEra = async (token: string) => {
    const signInSecret = await unkeyedEra?.tokenSecret();
    if (!unkeyedEra || !signInSecret) return undefined;
    const claims = await readUnkeyedUnsubscribeToken(signInSecret, token, now());
    return claims && { ...claims, addressHash: keyUnkeyedHash(unkeyedEra.salt, claims.addressHash) };
  };
  return async (token, purpose) => {
    if (!token) return undefined;
    const claims = await readCurrent(token, purpose);
    if (claims || purpose !== 'unsubscribe') return claims;
    return (await readUnkeyedEra(token)) as ClaimsOf<typeof purpose> | undefined;
  };
}

/** A mail link's request, read: its token, its claims, and the query a page's buttons post back with. */
export interface RequestLink<Claims extends LinkClaims> {
  readonly token: string;
  readonly claims: Claims;
  /** The token, and the language when it is not English, so the next page speaks it too. */
  readonly query: Record<string, string>;
}

/** The `?token=` of a mail link's request with its claims for `purpose`, or undefined when it is not one. */
export async function requestLink<Purpose extends LinkClaims['purpose']>(
  readLink: ReadLink,
  request: ApiRequest,
  purpose: Purpose,
): Promise<RequestLink<ClaimsOf<Purpose>> | undefined> {
  const token = request.query('token');
  const claims = await readLink(token, purpose);
  if (token === undefined || !claims) return undefined;
  return { token, claims, query: { token, ...(request.lang === 'en' ? {} : { lang: request.lang }) } };
}
