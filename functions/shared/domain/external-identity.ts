/**
 * Identities vouched for by someone else than our password check (issue 28): an OpenID Connect issuer, GitHub,
 * or the site's own login (SSO). An account made from one is keyed by `(provider, subject)`, never by its
 * address alone: two issuers may both claim an address, and only one of them may be right.
 */

/** An identity another party vouched for, as the sign-in flow read it from their answer. */
export interface ExternalIdentity {
  /**
   * Who vouches, as a stable string: `oidc:<issuer URL>` (a sign-in button's issuer, or the site's own SSO_ISSUER:
   * one person, one account), `github`, or `sso:site` (the site backend's HS256 assertions). At most
   * {@link externalIdentityLimits}.
   */
  readonly provider: string;
  /** The provider's id of the person: OIDC's `sub`, GitHub's numeric id (as a string), the SSO `sub`. */
  readonly subject: string;
  /** What the provider says of the person, taken when the account is made (the reader edits it later). */
  readonly profile: {
    readonly displayName: string;
    readonly link?: string;
    readonly avatar?: string;
  };
  /**
   * The person's address, if the provider gave one. Only `verified: true` counts as confirmed: reply mail goes
   * to it without a confirmation mail. An unverified one is kept as the account's contact but mails nobody.
   */
  readonly email?: { readonly address: string; readonly verified: boolean };
}

/** Bounds of an identity's key parts: OIDC allows a `sub` of 255 ASCII characters. */
export const externalIdentityLimits = { providerChars: 300, subjectChars: 255 } as const;
