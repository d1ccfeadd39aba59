import { type ExternalIdentity, externalIdentityLimits } from './external-identity.js';
import { limits } from './limits.js';
import { isPlainAddress } from './mail-address.js';

/** The name an account gets when its provider gives none. */
export const unnamedReader = 'Reader';

/** `value` when it is a string; undefined otherwise. */
const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f]/g;

/** A profile's display name: trimmed, control characters out, bounded as a nick. */
export function displayNameOf(...candidates: unknown[]): string {
  for (const candidate of candidates) {
    const name = textOf(candidate)?.replace(controlCharacters, '').trim();
    if (name) return [...name].slice(0, limits.nickChars).join('');
  }
  return unnamedReader;
}

/** An http(s) URL within the link bound, or undefined: a profile's link or picture. */
export function webUrlOf(value: unknown): string | undefined {
  const text = textOf(value)?.trim();
  if (!text || text.length > limits.linkChars || !URL.canParse(text)) return undefined;
  return /^https?:$/.test(new URL(text).protocol) ? text : undefined;
}

/** A plain address, or undefined. */
export function addressOf(value: unknown): string | undefined {
  const text = textOf(value)?.trim();
  return text && isPlainAddress(text) ? text : undefined;
}

/**
 * The identity an OpenID Connect issuer's validated ID token claims name (`provider`: `oidc:<issuer>`): `sub`;
 * `name` or `preferred_username`; `picture`; `website` or `profile`; `email`, verified only when
 * `email_verified` is exactly `true`. Undefined when `sub` is missing or longer than OIDC allows.
 */
export function identityFromClaims(
  provider: string,
  claims: Readonly<Record<string, unknown>>,
): ExternalIdentity | undefined {
  const subject = textOf(claims.sub);
  if (!subject || subject.length > externalIdentityLimits.subjectChars) return undefined;
  if (provider.length > externalIdentityLimits.providerChars) return undefined;
  const link = webUrlOf(claims.website) ?? webUrlOf(claims.profile);
  const avatar = webUrlOf(claims.picture);
  const address = addressOf(claims.email);
  return {
    provider,
    subject,
    profile: {
      displayName: displayNameOf(claims.name, claims.preferred_username, claims.nickname),
      ...(link ? { link } : {}),
      ...(avatar ? { avatar } : {}),
    },
    ...(address ? { email: { address, verified: claims.email_verified === true } } : {}),
  };
}
