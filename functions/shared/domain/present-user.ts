/** A signed-in user as the Waline widget stores it (`localStorage.WALINE_USER`). */
export interface PublicUser {
  objectId: string;
  display_name: string;
  email: string;
  url: string;
  type: 'administrator';
  avatar: string;
  label: null;
}

/** The Waline user shape of an administrator account. */
export function presentUser(
  account: { id: string; email: string; displayName: string; link?: string },
  avatarFor: (author: { nick: string; mail: string }) => string,
): PublicUser {
  return {
    objectId: account.id,
    display_name: account.displayName,
    email: account.email,
    url: account.link ?? '',
    type: 'administrator',
    avatar: avatarFor({ nick: account.displayName, mail: account.email }),
    label: null,
  };
}
