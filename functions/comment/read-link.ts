import type { ApiRequest } from '../shared/http/request.js';
import { type ClaimsOf, type LinkClaims, readLinkToken } from '../shared/notify/link-token.js';
import type { SecretSource } from '../shared/storage/parameter-secret.js';

/** The claims of a mail link's token for `purpose`, or undefined for a token that is not one (any reason). */
export type ReadLink = <Purpose extends LinkClaims['purpose']>(
  token: string | undefined,
  purpose: Purpose,
) => Promise<ClaimsOf<Purpose> | undefined>;

/**
 * Reads the token of a mail link (`?token=`) with the link key (never the sign-in key). A token the
 * key refuses is tried once more with the key read again (it may have been rotated since this instance
 * read it); the source reads it again at most every so often, so forged tokens cannot make each request
 * do so. A missing key (LINK_SECRET or LINK_SECRET_PARAMETER not set) refuses every link.
 */
export function createLinkReader({
  linkSecret,
  now,
}: {
  readonly linkSecret: SecretSource;
  readonly now: () => number;
}): ReadLink {
  return async (token, purpose) => {
    if (!token) return undefined;
    const secret = await linkSecret();
    if (!secret) return undefined;
    const claims = await readLinkToken(secret, token, purpose, now());
    if (claims) return claims;
    const fresh = await linkSecret({ refresh: true });
    return fresh && fresh !== secret ? readLinkToken(fresh, token, purpose, now()) : undefined;
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
