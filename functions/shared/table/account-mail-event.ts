import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '../domain/messages.js';
import { outboxEventItem } from './outbox-event.js';

/**
 * The mails of an account's life (issue 27): they go through the outbox like every notice, so a mail is
 * never lost and a failure is retried (functions/notify/channels/account-mail-channel.ts sends them). The event
 * names the account, never its address in clear: the notifier reads the address from the account when it sends,
 * and signs the mail's link then, with the link key. A reset request (and a data link) names no account
 * (`accountId` empty) and carries the typed address sealed, so that its route does the same for every address.
 */

/**
 * Which account mail: `confirm` (a new account's single-use confirmation link, 24 hours), `reset` (a
 * password-reset link, single use, 1 hour), `changed` (the password or the address was changed, or a passkey
 * added or removed),
 * `already-registered` (someone tried to register with the address of an active account), `confirm-address`
 * (to the new address an account asked for: its single-use link, 24 hours, makes the change), and `my-data` (a
 * commenter's data link, 1 hour, to any address: it names no account, and goes to `sealedTo`).
 */
export type AccountMailKind =
  'confirm' | 'reset' | 'changed' | 'already-registered' | 'confirm-address' | 'my-data';

/** Every account mail kind, for readers of stored events. */
export const accountMailKinds: readonly AccountMailKind[] = [
  'confirm',
  'reset',
  'changed',
  'already-registered',
  'confirm-address',
  'my-data',
];

/** What a `changed` mail tells of. */
export type AccountChange = 'password' | 'email' | 'passkey-added' | 'passkey-removed';

const accountChanges: readonly AccountChange[] = ['password', 'email', 'passkey-added', 'passkey-removed'];

/** What an account mail event is about. */
export interface AccountMailSubject {
  readonly accountId: string;
  readonly mail: AccountMailKind;
  /** The language of the request that caused it: the mail is written in it. */
  readonly lang: Lang;
  /** `changed` only: what changed. */
  readonly change?: AccountChange;
  /**
   * Where the mail goes when it is not the account's address, sealed with the link key (notify/sealed-address.ts):
   * for `changed` of the address, the former address (the account now holds the new one); for
   * `confirm-address`, the new address (the account does not hold it until the link is followed); for `my-data`, the
   * address asked about; for `reset` without an account id, the address typed (the notifier finds its account).
   */
  readonly sealedTo?: string;
  /**
   * `confirm-address` only: the account's session version when the change was asked for. The link is bound to it,
   * so a password change or a ban since kills it, however late the mail goes out.
   */
  readonly version?: number;
  /** `my-data` only: the keyed hash of the normalised address (notify/address-hash.ts), which its link names. */
  readonly addressHash?: string;
}

/** Queues one account mail (a new outbox event `eventId` at `at`); the notifier sends it. */
export type QueueAccountMail = (eventId: string, at: number, subject: AccountMailSubject) => Promise<void>;

/** The account mail subject of a stored event item, or undefined when it has none or it is malformed. */
export function fromAccountMailSubject(value: unknown): AccountMailSubject | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const subject = value as Record<string, unknown>;
  const mail = accountMailKinds.find((kind) => kind === subject.mail);
  if (typeof subject.accountId !== 'string' || mail === undefined) return undefined;
  const lang: Lang = subject.lang === 'zh-CN' ? 'zh-CN' : 'en';
  const change = accountChanges.find((known) => known === subject.change);
  const sealedTo = typeof subject.sealedTo === 'string' ? subject.sealedTo : undefined;
  const version = Number.isSafeInteger(subject.version) ? (subject.version as number) : undefined;
  const addressHash = typeof subject.addressHash === 'string' ? subject.addressHash : undefined;
  return {
    accountId: subject.accountId,
    mail,
    lang,
    ...(change ? { change } : {}),
    ...(sealedTo ? { sealedTo } : {}),
    ...(version === undefined ? {} : { version }),
    ...(addressHash ? { addressHash } : {}),
  };
}

/** One account mail to queue: its new outbox event id (a ULID), its time and what it is about. */
export interface AccountMailNotice {
  readonly eventId: string;
  readonly at: number;
  readonly subject: AccountMailSubject;
}

/** The Put of an account mail's outbox event, alone or in the transaction of what it tells of. */
export function accountMailPut(tableName: string, { eventId, at, subject }: AccountMailNotice) {
  return {
    TableName: tableName,
    Item: { ...outboxEventItem({ id: eventId, cause: 'account.mail', at }), account: { ...subject } },
    // A new event each time: an id already used is a bug, not a second mail.
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** Builds the queue of account mails on `client` and `tableName`. */
export function createAccountMailQueue(client: DynamoDBDocumentClient, tableName: string): QueueAccountMail {
  return async (eventId, at, subject) => {
    await client.send(new PutCommand(accountMailPut(tableName, { eventId, at, subject })));
  };
}
