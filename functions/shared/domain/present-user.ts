import type { Account, AccountType } from './account.js';

/**
 * A signed-in user as the Waline widget stores it (`localStorage.WALINE_USER`): the account's own view of
 * itself, never its password hash nor its TOTP secret.
 */
export interface PublicUser {
  /** The account's id (a string, as Waline's LeanCloud ids). */
  objectId: string;
  display_name: string;
  /** The account's own address: this shape is only ever answered to the account itself or an administrator. */
  email: string;
  url: string;
  type: AccountType;
  avatar: string;
  label: string | null;
  /** Whether the account has a second factor; never the secret. */
  totp: boolean;
}

/** The Waline user shape of `account`; its avatar is its own, or computed from its address. */
export function presentUser(
  account: Pick<Account, 'id' | 'email' | 'displayName' | 'link' | 'avatar' | 'label' | 'type' | 'totp'>,
  avatarFor: (author: { nick: string; mail: string }) => string,
): PublicUser {
  return {
    objectId: account.id,
    display_name: account.displayName,
    email: account.email,
    url: account.link ?? '',
    type: account.type,
    avatar: account.avatar ?? avatarFor({ nick: account.displayName, mail: account.email }),
    label: account.label ?? null,
    totp: account.totp !== undefined,
  };
}
