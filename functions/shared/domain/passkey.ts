/**
 * Passkeys (WebAuthn, issue 28): an account may keep several, each one item in the account's partition
 * (`USER#<accountId>` / `PASSKEY#<credentialId>`: table/keys.ts `keys.passkey`), and sign in with any of them
 * alone. The public key and sign counter never leave the server.
 */

/** One passkey of an account, as the table holds it. */
export interface Passkey {
  readonly accountId: string;
  /** The credential id, base64url (as the browser and the user handle's lookup name it). */
  readonly credentialId: string;
  /** The credential's COSE public key, base64url. */
  readonly publicKey: string;
  /** The authenticator's sign counter after its last use; 0 for authenticators that keep none. */
  readonly counter: number;
  /** How the browser can reach the authenticator (`internal`, `usb`, `hybrid`...), as it said at registration. */
  readonly transports: readonly string[];
  /** The name its owner gave it on the profile page. */
  readonly name: string;
  /** Whether the credential may be synced between devices (`multiDevice`) and whether it is backed up. */
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly backedUp: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastUsedAt?: number;
}

/** What an account's owner sees of a passkey (`GET /api/passkey`): never the key or the counter. */
export interface PasskeyView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt?: number;
  readonly backedUp: boolean;
}

/** The bounds of passkeys: how many per account, their names, ids and keys, and how long a challenge lives. */
export const passkeyLimits = {
  /** Passkeys per account: a few devices and security keys, not a store anyone can fill. */
  perAccount: 10,
  nameChars: 64,
  /**
   * A credential id is at most 1023 bytes (WebAuthn); kept under DynamoDB's 1024-byte sort key with its prefix,
   * which every authenticator in use meets (16 to 64 bytes are usual).
   */
  credentialIdChars: 1000,
  /** A COSE public key: an RSA-4096 key is about 550 bytes, base64url 734 characters. */
  publicKeyChars: 2048,
  /** How long a challenge may be answered: the browser's own timeout, and a little more. */
  challengeMs: 5 * 60 * 1000,
  /** How long after signing in an account without a password may add or remove a passkey. */
  freshSignInMs: 10 * 60 * 1000,
} as const;

/** The names of the passkey item's attributes. */
export const passkeyAttributes = {
  accountId: 'accountId',
  credentialId: 'credentialId',
  publicKey: 'publicKey',
  counter: 'counter',
  transports: 'transports',
  name: 'name',
  deviceType: 'deviceType',
  backedUp: 'backedUp',
  createdAt: 'createdAt',
  lastUsedAt: 'lastUsedAt',
  /** On the account item: how many passkeys it has, bounded by `passkeyLimits.perAccount` in the same write. */
  passkeyCount: 'passkeyCount',
} as const;

/** The owner's view of `passkey`. */
export function presentPasskey(passkey: Passkey): PasskeyView {
  return {
    id: passkey.credentialId,
    name: passkey.name,
    createdAt: passkey.createdAt,
    ...(passkey.lastUsedAt === undefined ? {} : { lastUsedAt: passkey.lastUsedAt }),
    backedUp: passkey.backedUp,
  };
}
