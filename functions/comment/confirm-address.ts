import type { Config } from '../shared/config.js';
import type { Router } from '../shared/http/http-function.js';
import type { ApiRequest } from '../shared/http/request.js';
import { openAddress, sealAddress } from '../shared/notify/sealed-address.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { QueueAccountMail } from '../shared/table/account-mail-event.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import { claimAccountLink } from './confirm-account.js';
import { addressChangedPage, addressChangeOfferPage } from './pages/address-change-page.js';
import { invalidLinkPage, siteLabel } from './pages/link-page.js';
import { type ReadLink, requestLink } from './read-link.js';

/** What the address-change link's routes take. */
export interface ConfirmAddressDependencies {
  readonly readLink: ReadLink;
  readonly accounts: Pick<AccountRepository, 'findById' | 'update'>;
  readonly limits: Pick<AccountLimits, 'claimLink'>;
  /** The link key: it opens the new address the link carries sealed, and seals the former one for its mail. */
  readonly linkSecret: SecretSource;
  readonly queueMail: QueueAccountMail;
  readonly config: Pick<Config, 'IP_HASH_SALT'>;
  readonly now: () => number;
  readonly newId: (time: number) => string;
  /** `SITE_NAME` and `SITE_URL`, to name the site. */
  readonly site: { readonly name?: string; readonly url?: string };
}

/** Whether `request`'s `?token=` is an address-change link (else it may be a registration's confirmation). */
export async function isAddressChangeLink(readLink: ReadLink, request: ApiRequest): Promise<boolean> {
  return (await readLink(request.query('token'), 'account-address')) !== undefined;
}

/**
 * `GET /api/verification?token=` of an address-change link (`PUT /api/user` mails it to the new address): says
 * what the link does and offers one button. It changes nothing itself, so a link scanner changes nobody's address.
 */
export function createShowAddressChange({ readLink, site }: ConfirmAddressDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'account-address');
    if (!link) return invalidLinkPage(request.lang);
    return addressChangeOfferPage({ lang: request.lang, site: siteLabel(site), query: link.query });
  };
}

/**
 * `POST /api/verification?token=` of an address-change link: the account takes the address the link was mailed to
 * (its mailbox answered), once, and only while the account is active, not banned, and at the session version the
 * link was made under (a password change or a ban since kills the link). The link's keyed hash is recorded as used
 * before the write; an address another account holds meanwhile changes nothing (409). The former address is told.
 */
export function createConfirmAddressChange(dependencies: ConfirmAddressDependencies): Router {
  const { readLink, accounts, linkSecret, queueMail, now, newId, site } = dependencies;
  return async (request) => {
    const link = await requestLink(readLink, request, 'account-address');
    if (!link) return invalidLinkPage(request.lang);
    const context = { lang: request.lang, site: siteLabel(site), query: link.query };
    const { claims } = link;
    const key = await linkSecret();
    const address = key ? openAddress(key, claims.sealedAddress) : undefined;
    const account = await accounts.findById(claims.accountId);
    if (
      !address ||
      account?.state !== 'active' ||
      account.type === 'banned' ||
      account.sessionVersion !== claims.version
    ) {
      return addressChangedPage(context, 'stale');
    }
    const time = now();
    if (!(await claimAccountLink(dependencies, link.token, time))) return invalidLinkPage(request.lang);
    const update = await accounts.update(account.id, { email: address }, claims.version);
    if (update.status === 'address-taken') return addressChangedPage(context, 'taken');
    if (update.status !== 'updated') return addressChangedPage(context, 'stale');
    // `key` opened the address, so it is there: the former address hears of the change, sealed in the event.
    await queueMail(newId(time), time, {
      accountId: account.id,
      mail: 'changed',
      change: 'email',
      lang: request.lang,
      sealedTo: sealAddress(key!, account.email),
    });
    return addressChangedPage(context, 'done');
  };
}
