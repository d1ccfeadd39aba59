import { tokenFor } from '../shared/auth/token.js';
import type { Config } from '../shared/config.js';
import type { Account } from '../shared/domain/account.js';
import type { AvatarFor } from '../shared/domain/avatar.js';
import { AppError } from '../shared/domain/errors.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import { type PublicUser, presentUser } from '../shared/domain/present-user.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';

/** What every sign-in answers (Waline's `POST /api/token`): the account's own view of itself and a token. */
export type SignedInUser = PublicUser & { readonly token: string };

/**
 * Ends every sign-in, whatever proved who the person is (password and second factor, an OIDC issuer, GitHub, a
 * passkey, the site's SSO): refuses an account that may not sign in, and mints the project's token for one that
 * may. The methods differ only in how they find the account.
 */
export type IssueSession = (account: Account, lang: Lang) => Promise<SignedInUser>;

/** What {@link createIssueSession} takes. */
export interface IssueSessionDependencies {
  /** The key that signs tokens; undefined when sign-in is not configured. */
  readonly tokenSecret: SecretSource;
  readonly config: Pick<Config, 'TOKEN_TTL_HOURS'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly avatarFor: AvatarFor;
}

/**
 * Builds {@link IssueSession}. A banned account is refused (403), and so is one whose owner has not confirmed it
 * or that waits for an administrator, each with a message that says so: the caller has already proved who it is.
 * The token is good for TOKEN_TTL_HOURS and carries the account's session version (auth/token.ts).
 */
export function createIssueSession({
  tokenSecret,
  config,
  now,
  avatarFor,
}: IssueSessionDependencies): IssueSession {
  return async (account, lang) => {
    const secret = await tokenSecret();
    if (!secret) throw new AppError('forbidden', translate(lang, 'signInDisabled'));
    if (account.type === 'banned') throw new AppError('forbidden', translate(lang, 'accountBanned'));
    if (account.state === 'unconfirmed')
      throw new AppError('forbidden', translate(lang, 'confirmAddressFirst'));
    if (account.state === 'awaiting-approval') {
      throw new AppError('forbidden', translate(lang, 'awaitingApproval'));
    }
    const token = await tokenFor(secret, account, now(), config.TOKEN_TTL_HOURS);
    return { ...presentUser(account, avatarFor), token };
  };
}
