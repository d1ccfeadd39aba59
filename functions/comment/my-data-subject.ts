import type { ResolveCaller } from '../shared/auth/viewer.js';
import { bearerToken } from '../shared/auth/token.js';
import type { Account } from '../shared/domain/account.js';
import { AppError } from '../shared/domain/errors.js';
import { isPlainAddress } from '../shared/domain/mail-address.js';
import { type Lang, translate } from '../shared/domain/messages.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import { normalizeAddress } from '../shared/notify/normalize-address.js';
import { openAddress } from '../shared/notify/sealed-address.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { ReadLink } from './read-link.js';

/**
 * Whose data a request to `/api/my-data` is about: an address proved by the mailed link (its token as the Bearer),
 * or a signed-in account (its sign-in token), which owns its comments (`userId`) and those of its address.
 */
export interface DataSubject {
  readonly via: 'link' | 'account';
  /** The link's token (`link` only): an erase records it as used. */
  readonly token?: string;
  /** The keyed hash of the normalised address, when there is one (an account made from an identity may have none). */
  readonly addressHash?: string;
  /** The normalised address (never answered: the caller knows it). */
  readonly address?: string;
  /** The account of the address (a link) or the caller's (signed in), if any. */
  readonly account?: Account;
}

/** Finds the subject of a request from its `Authorization`; a 401 when it is neither a data link nor a sign-in. */
export type ResolveDataSubject = (authorization: string | undefined, lang: Lang) => Promise<DataSubject>;

/** Builds the resolver: the data link first (its purpose signed), then the sign-in token. */
export function createDataSubjectResolver({
  readLink,
  linkSecret,
  caller,
  accounts,
  hashAddress,
}: {
  readonly readLink: ReadLink;
  readonly linkSecret: SecretSource;
  readonly caller: ResolveCaller;
  readonly accounts: Pick<AccountRepository, 'findByEmail'>;
  readonly hashAddress: HashAddress;
}): ResolveDataSubject {
  return async (authorization, lang) => {
    const token = bearerToken(authorization);
    const claims = token ? await readLink(token, 'my-data') : undefined;
    if (claims && token) {
      const key = await linkSecret();
      const address = key ? openAddress(key, claims.sealedAddress) : undefined;
      if (address && hashAddress(address) === claims.addressHash) {
        const account = await accounts.findByEmail(address);
        return {
          via: 'link',
          token,
          addressHash: claims.addressHash,
          address,
          ...(account ? { account } : {}),
        };
      }
    }
    const who = claims ? { kind: 'anonymous' as const } : await caller(authorization);
    if (who.kind !== 'account') throw new AppError('unauthorized', translate(lang, 'dataLinkRequired'));
    const { account } = who.viewer;
    // An address a provider did not verify is a contact, never proof: it names no comments of that address.
    const plain = account.emailVerified !== false && isPlainAddress(account.email);
    return {
      via: 'account',
      account,
      ...(plain ? { addressHash: hashAddress(account.email), address: normalizeAddress(account.email) } : {}),
    };
  };
}
