import type { Account } from '../../shared/domain/account.js';
import { isPlainAddress } from '../../shared/domain/mail-address.js';
import { type LinkClaims, signLinkToken } from '../../shared/notify/link-token.js';
import { normalizeAddress } from '../../shared/notify/normalize-address.js';
import { openAddress, sealAddress } from '../../shared/notify/sealed-address.js';
import type { SecretSource } from '../../shared/secrets/parameter-secret.js';
import type { AccountMailSubject } from '../../shared/table/account-mail-event.js';
import type { AccountRepository } from '../../shared/table/account-repository.js';
import { accountMailTemplates } from '../templates/account-mail-templates.js';
import { renderStandaloneMail, type RenderedMail } from '../templates/render-mail.js';
import { type SiteSettings, siteVariables } from '../templates/site.js';
import { type MailTransport, sendMailMessage } from './mail-channel.js';
import { composeMailMessage, type MailMessageSettings } from './mail-message.js';
import { PermanentFailure } from './permanent-failure.js';

/** An account mail event, as the sender needs it. */
export interface AccountMailEvent {
  readonly id: string;
  /** When the mail was asked for (epoch ms): its link's life counts from then, whenever it is sent. */
  readonly at: number;
  readonly account: AccountMailSubject;
}

/** Sends one account mail: `sent`, or why it was skipped (the account gone, banned, or past that step). */
export type SendAccountMail = (event: AccountMailEvent) => Promise<'sent' | { readonly skip: string }>;

/** How long a confirmation link works, in hours. */
export const confirmAccountLinkHours = 24;
/** How long a password-reset link works, in hours. */
export const resetLinkHours = 1;
/** How long a commenter's data link works, in hours. */
export const myDataLinkHours = 1;

/** What the account mail needs. */
export interface AccountMailSettings {
  /**
   * The account is read when the mail is sent: its address, its name and where it is in its life; a reset asked
   * by address finds its account by that address then.
   */
  readonly accounts: Pick<AccountRepository, 'findById' | 'findByEmail'>;
  readonly site: SiteSettings;
  /** SERVER_URL: the links' base. */
  readonly serverUrl: string | undefined;
  /** The link key (never the sign-in key). */
  readonly linkKey: SecretSource;
  readonly sender: MailMessageSettings['sender'] | { readonly problem: string };
  readonly transport: MailTransport;
  readonly now: () => number;
  readonly boundary?: () => string;
}

/** `path` under SERVER_URL, keeping its base path, with `query`; empty without SERVER_URL. */
function serverUrlOf(
  serverUrl: string | undefined,
  path: string,
  query: Record<string, string> = {},
): string {
  if (!serverUrl) return '';
  const url = new URL(path, serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`);
  url.search = new URLSearchParams(query).toString();
  return url.toString();
}

/** Why `account` gets no mail of `subject`'s kind now, or undefined when it does. */
function skipReason(account: Account | undefined, subject: AccountMailSubject): string | undefined {
  if (!account && isResetByAddress(subject)) return 'no account has the address';
  if (!account) return 'the account no longer exists';
  if (account.type === 'banned') return 'the account is banned';
  // A notice to the account's own address: only one its owner proved (a provider's unverified one, or none, gets none).
  if (
    subject.mail === 'changed' &&
    subject.sealedTo === undefined &&
    (account.emailVerified === false || !isPlainAddress(account.email))
  ) {
    return 'the account has no confirmed address';
  }
  if (subject.mail === 'confirm' && account.state !== 'unconfirmed')
    return 'the account is confirmed already';
  if ((subject.mail === 'reset' || subject.mail === 'confirm-address') && account.state !== 'active') {
    return 'the account is not active';
  }
  if (subject.mail === 'confirm-address' && subject.version !== account.sessionVersion) {
    return 'the account changed its password or was banned since the change was asked for';
  }
  return undefined;
}

/** A reset asked for by address (reset-password.ts): the event names no account, only the address, sealed. */
function isResetByAddress(subject: AccountMailSubject): boolean {
  return subject.mail === 'reset' && subject.accountId === '';
}

/**
 * The claims of the link in `subject`'s mail: a confirmation names the account; a reset also its session version (the
 * next password change or ban kills it); an address change the version and the new address the event carries
 * (sealed). Undefined for an address change without them (a malformed event).
 */
function linkClaims(subject: AccountMailSubject, account: Account): LinkClaims | undefined {
  const version = account.sessionVersion;
  if (subject.mail === 'confirm') return { purpose: 'account-confirm', accountId: account.id };
  if (subject.mail === 'reset') return { purpose: 'account-reset', accountId: account.id, version };
  return subject.sealedTo !== undefined && subject.version !== undefined
    ? {
        purpose: 'account-address',
        accountId: account.id,
        version: subject.version,
        sealedAddress: subject.sealedTo,
      }
    : undefined;
}

/**
 * The account mails through the mail channel's transport and From line: the address and the display name are
 * read from the account when the mail is sent (the event holds neither), and the confirmation or reset link
 * is signed then with the link key, for that purpose alone, expiring 24 hours (confirmation) or 1 hour (reset)
 * after the mail was asked for. A reset link also names the account's session version, so it dies with the
 * next reset, password change or ban.
 */
export function createAccountMailChannel(settings: AccountMailSettings): SendAccountMail {
  const { accounts, serverUrl, linkKey, now } = settings;

  async function link(event: AccountMailEvent, account: Account): Promise<string | { skip: string }> {
    const { mail } = event.account;
    if (mail !== 'confirm' && mail !== 'reset' && mail !== 'confirm-address') return '';
    const hours = mail === 'reset' ? resetLinkHours : confirmAccountLinkHours;
    const expiresAt = event.at + hours * 3_600_000;
    if (expiresAt <= now()) return { skip: 'its link expired before it could be sent' };
    if (!serverUrl)
      throw new PermanentFailure('SERVER_URL is not set: the account mails need the API address');
    const key = await requireLinkKey();
    const claims = linkClaims(event.account, account);
    if (!claims) throw new PermanentFailure('an address-change mail without its sealed address or version');
    const token = await signLinkToken(key, claims, expiresAt);
    return serverUrlOf(serverUrl, mail === 'reset' ? 'ui/reset' : 'api/verification', { token });
  }

  /**
   * The account's address, or the former one the event sealed (an address change is told to the old address). A
   * reset goes to the address the account holds, not to the one typed (the same mailbox, maybe written otherwise).
   */
  async function recipient(subject: AccountMailSubject, account: Account): Promise<string> {
    if (!subject.sealedTo || subject.mail === 'reset') return account.email;
    const key = await linkKey();
    const address = key ? openAddress(key, subject.sealedTo) : undefined;
    if (!address) throw new PermanentFailure('the former address could not be opened with the link key');
    return address;
  }

  /** The key that signs and seals; a missing one is retried (it may be set meanwhile). */
  async function requireLinkKey(): Promise<string> {
    const key = await linkKey();
    if (!key)
      throw new Error(
        'the link key (LINK_SECRET or LINK_SECRET_PARAMETER) is not set: no link can be signed',
      );
    return key;
  }

  /**
   * A commenter's data mail (`my-data`): to the address the event sealed, whether or not it has comments or an
   * account (the request's answer never tells), with a link naming its keyed hash and the normalised address,
   * sealed, for 1 hour from the request.
   */
  async function sendMyData(event: AccountMailEvent, sender: MailMessageSettings['sender']) {
    const expiresAt = event.at + myDataLinkHours * 3_600_000;
    if (expiresAt <= now()) return { skip: 'its link expired before it could be sent' };
    if (!serverUrl) throw new PermanentFailure('SERVER_URL is not set: the data mails need the API address');
    const key = await requireLinkKey();
    const to = event.account.sealedTo ? openAddress(key, event.account.sealedTo) : undefined;
    const { addressHash } = event.account;
    if (!to || !addressHash) throw new PermanentFailure('the address could not be opened with the link key');
    const claims: LinkClaims = {
      purpose: 'my-data',
      addressHash,
      sealedAddress: sealAddress(key, normalizeAddress(to)),
    };
    const token = await signLinkToken(key, claims, expiresAt);
    const message = await composeMailMessage(
      {
        to,
        rendered: renderAccountMail(event.account, {
          name: '',
          link: serverUrlOf(serverUrl, 'ui/my-data', { token }),
          site: settings.site,
          serverUrl,
        }),
        lang: event.account.lang,
        messageIdLocalPart: `${event.id}.account`,
      },
      { ...settings, sender },
    );
    await sendMailMessage(settings.transport, message);
    return 'sent' as const;
  }

  /** The account the mail is for: the one the event names, or the one holding the address a reset sealed. */
  async function accountOf(subject: AccountMailSubject): Promise<Account | undefined> {
    if (!isResetByAddress(subject)) return accounts.findById(subject.accountId);
    const key = await requireLinkKey();
    const address = subject.sealedTo ? openAddress(key, subject.sealedTo) : undefined;
    if (!address) throw new PermanentFailure('the address could not be opened with the link key');
    return accounts.findByEmail(address);
  }

  return async (event) => {
    const { sender } = settings;
    if ('problem' in sender) throw new PermanentFailure(sender.problem);
    if (event.account.mail === 'my-data') return sendMyData(event, sender);
    const account = await accountOf(event.account);
    const reason = skipReason(account, event.account);
    if (reason || !account) return { skip: reason ?? 'the account no longer exists' };
    const href = await link(event, account);
    if (typeof href !== 'string') return href;
    const to = await recipient(event.account, account);
    const message = await composeMailMessage(
      {
        to,
        rendered: renderAccountMail(event.account, {
          name: account.displayName,
          link: href,
          site: settings.site,
          serverUrl,
        }),
        lang: event.account.lang,
        // Stable across retries of this mail: a receiver that dedupes by Message-ID shows it once.
        messageIdLocalPart: `${event.id}.account`,
      },
      { ...settings, sender },
    );
    await sendMailMessage(settings.transport, message);
    return 'sent';
  };
}

/** The account mail of `subject` in its language. */
export function renderAccountMail(
  subject: AccountMailSubject,
  values: { name: string; link: string; site: SiteSettings; serverUrl: string | undefined },
): RenderedMail {
  const { name, url } = siteVariables(values.site);
  return renderStandaloneMail(
    accountMailTemplates[subject.mail][subject.lang],
    {
      site: { name, url },
      name: values.name,
      link: values.link,
      hours:
        subject.mail === 'reset'
          ? resetLinkHours
          : subject.mail === 'my-data'
            ? myDataLinkHours
            : confirmAccountLinkHours,
      change: subject.change ?? 'password',
      loginUrl: serverUrlOf(values.serverUrl, 'ui/login'),
      forgotUrl: serverUrlOf(values.serverUrl, 'ui/forgot'),
    },
    subject.lang,
  );
}
