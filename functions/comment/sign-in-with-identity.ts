import type { Config } from '../shared/config.js';
import type { Account } from '../shared/domain/account.js';
import type { ExternalIdentity } from '../shared/domain/external-identity.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { ReplyConfirmations } from '../shared/table/reply-confirmations.js';

/**
 * The account of an identity another party vouched for (issue 28), made at its first sign-in: what every
 * external method (OIDC, GitHub, the site's SSO) hands to {@link IssueSession} (issue-session.ts).
 */
export type AccountOfIdentity = (identity: ExternalIdentity) => Promise<Account>;

/** What {@link createAccountOfIdentity} takes. */
export interface AccountOfIdentityDependencies {
  readonly accounts: Pick<AccountRepository, 'findByIdentity' | 'createWithIdentity'>;
  /** A verified address is recorded as confirmed for reply mail (REPLY_MAIL=confirmed). */
  readonly confirmations: Pick<ReplyConfirmations, 'confirm'>;
  readonly hashAddress: HashAddress;
  readonly config: Pick<Config, 'REGISTRATION'>;
  readonly now: () => number;
  /** A new account id (a ULID) for an account made at `time`. */
  readonly newId: (time: number) => string;
}

/**
 * Builds {@link AccountOfIdentity}. The account is found by `(provider, subject)` alone, never by address: an
 * issuer that says `a@example.com` does not get the password account of that address. A first sign-in makes a
 * guest account (never an administrator) with the provider's profile; it waits for an administrator under
 * REGISTRATION=approval and is active otherwise: configuring a provider is the owner's choice to let its users
 * in, REGISTRATION=closed closes only registration by password. An address the provider marks verified counts as
 * confirmed for reply mail from then on; an unverified one is kept as the contact and confirms nothing.
 */
export function createAccountOfIdentity({
  accounts,
  confirmations,
  hashAddress,
  config,
  now,
  newId,
}: AccountOfIdentityDependencies): AccountOfIdentity {
  return async (identity) => {
    const { provider, subject } = identity;
    const known = await accounts.findByIdentity(provider, subject);
    if (known) return known;
    const time = now();
    const account = {
      id: newId(time),
      email: identity.email?.address ?? '',
      ...(identity.email ? { emailVerified: identity.email.verified } : {}),
      displayName: identity.profile.displayName,
      ...(identity.profile.link ? { link: identity.profile.link } : {}),
      ...(identity.profile.avatar ? { avatar: identity.profile.avatar } : {}),
      type: 'guest',
      state: config.REGISTRATION === 'approval' ? 'awaiting-approval' : 'active',
      // No password verifies against an empty hash (auth/password.ts): such an account signs in by its provider.
      passwordHash: '',
      sessionVersion: 0,
      createdAt: time,
      identity: { provider, subject },
    } as const satisfies Account;
    if ((await accounts.createWithIdentity(account)) === 'exists') {
      // A first sign-in of the same identity at the same time made it: that one is the account.
      const made = await accounts.findByIdentity(provider, subject);
      if (made) return made;
      throw new Error(`the account of ${provider} ${subject} was neither made nor found`);
    }
    if (identity.email?.verified) await confirmations.confirm(hashAddress(identity.email.address), time);
    return account;
  };
}
