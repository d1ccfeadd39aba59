import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Account,
  accountAttributes as a,
  type AccountState,
  type AccountType,
} from '../domain/account.js';
import { isPlainAddress } from '../domain/mail-address.js';
import { normalizeAddress } from '../domain/normalize-address.js';
import {
  accountItem,
  accountItemAttributes,
  addressClaimItem,
  contactItems,
  identityLinkItem,
  toAccount,
} from './account-item.js';
import { batchGet, keyId } from './batch-get.js';
import { attributes, entities, indexNames, type Key, keys } from './keys.js';
import { createPasskeyStore } from './passkey-store.js';
import { projection } from './projection.js';
import { queryUpTo } from './query-up-to.js';
import { scanEntity } from './scan-entity.js';
import { transactWrite } from './transact.js';

/**
 * The contract of the account store (issue 27); the implementation, `createAccountRepository(client,
 * tableName)`, lives beside it. Items: `keys.account(id)` and the address claim `keys.accountEmail(address)`
 * (table/keys.ts), written together in one transaction.
 */

/** What {@link AccountRepository.update} changes; a field left out stays as it is. */
export interface AccountChanges {
  readonly displayName?: string;
  /** `''` removes it. */
  readonly link?: string;
  /** `''` removes it. */
  readonly avatar?: string;
  /** `''` removes it. Administrators only: the routes enforce who may set it. */
  readonly label?: string;
  /** A new address: its claim is taken and the old one released in the same transaction. */
  readonly email?: string;
  readonly type?: AccountType;
  readonly state?: AccountState;
  readonly passwordHash?: string;
  /** Increments `sessionVersion`: every token issued before stops working. */
  readonly revokeTokens?: true;
}

/** How an update ended: the account as changed, or why nothing was written. */
export type AccountUpdate =
  | { readonly status: 'updated'; readonly account: Account }
  /** No account of that id, or its `sessionVersion` is no longer the expected one. */
  | { readonly status: 'stale' }
  /** The new address already has an account. */
  | { readonly status: 'address-taken' };

/** Accounts, administrators' and visitors'. */
export interface AccountRepository {
  /** The account of `id`, read consistently. */
  findById(id: string): Promise<Account | undefined>;
  /** The account whose address normalises (shared/domain/normalize-address.ts) like `email`. */
  findByEmail(email: string): Promise<Account | undefined>;
  /** Stores a new account with its address claim; `exists` (nothing written) when the address has one. */
  create(account: Account): Promise<'created' | 'exists'>;
  /** The account made from the external identity `(provider, subject)` (issue 28), if one was. */
  findByIdentity(provider: string, subject: string): Promise<Account | undefined>;
  /**
   * Stores a new account made from its `identity`, with the identity's link and no address claim; `exists`
   * (nothing written) when the identity has an account already (two first sign-ins at once: read it again).
   */
  createWithIdentity(
    account: Account & { readonly identity: NonNullable<Account['identity']> },
  ): Promise<'created' | 'exists'>;
  /**
   * Changes the account of `id`, only while its `sessionVersion` is `expectedVersion` when one is given (the
   * version the caller's token carried).
   */
  update(id: string, changes: AccountChanges, expectedVersion?: number): Promise<AccountUpdate>;
  /**
   * Deletes the account and its address claim (or its identity's link and contact), then its passkeys; false when
   * there was none.
   */
  remove(id: string): Promise<boolean>;
  /**
   * Takes the address that normalises like `address` off up to `limit` accounts made from an external identity
   * that carry it without a claim (a commenter's erase of the address; an administrator's too, whose sign-in and
   * role do not depend on it): each keeps no address (nor `emailVerified`), and their contact items go. How many
   * accounts lost it, and whether more may be left (call again). The account `keep` (the erase's own subject,
   * which the erase removes itself, or keeps whole) is left as it is.
   */
  forgetContact(
    address: string,
    limit: number,
    keep?: string,
  ): Promise<{ readonly forgotten: number; readonly more: boolean }>;
  /**
   * The accounts made from an external identity that carry the address normalising like `address` without a
   * claim (a commenter's download of the address), up to `limit`.
   */
  findByContact(address: string, limit: number): Promise<Account[]>;
  /**
   * One page of accounts for administrators, newest first: a bounded read of an index (never a Scan), with
   * the number of accounts for Waline's `totalPages`.
   */
  listPage(page: number, pageSize: number): Promise<{ readonly accounts: Account[]; readonly total: number }>;
  /** Every account, for the CLI and the export only (a Scan). */
  listAll(): Promise<Account[]>;
}

/** The accounts' count on its item (`ACCOUNTS`/`COUNT`). */
const totalAttribute = 'total';

/**
 * Builds the account store on `client` and `tableName` (docs/data-model.md, "Accounts"). `now` stamps
 * `updatedAt` on every change.
 */
export function createAccountRepository(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: () => number = Date.now,
): AccountRepository {
  const get = async (key: Key) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  const findById = async (id: string) => toAccount(await get(keys.account(id)));
  const passkeys = createPasskeyStore(client, tableName);
  /** The id of the account whose address normalises like `email`, if one claimed it. */
  const claimant = async (email: string) => {
    const claim = await get(keys.accountEmail(normalizeAddress(email)));
    return typeof claim?.[a.id] === 'string' ? (claim[a.id] as string) : undefined;
  };
  const countChange = (step: 1 | -1) => ({
    Update: {
      TableName: tableName,
      Key: keys.accountCount(),
      // ADD creates the counter at the first account and never conflicts with a concurrent change but
      // through the transaction itself, which is retried.
      UpdateExpression: 'ADD #total :step SET #entity = :entity',
      ExpressionAttributeNames: { '#total': totalAttribute, '#entity': 'entity' },
      ExpressionAttributeValues: { ':step': step, ':entity': entities.accountCount },
    },
  });

  /** Up to `limit` contact items of the normalised address. */
  const contactsOf = (normalised: string, limit: number) =>
    queryUpTo(
      client,
      {
        TableName: tableName,
        // The address's partition holds its contact items only: one per account that carries it.
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': attributes.pk },
        ExpressionAttributeValues: { ':pk': keys.accountContact(normalised, '').pk },
        ConsistentRead: true,
      },
      limit,
    );
  /** The delete of the contact item of an account made from an external identity (none without an address). */
  const contactDeletes = (account: Pick<Account, 'id' | 'email'>) =>
    contactItems(account).map((item) => ({
      Delete: { TableName: tableName, Key: { pk: String(item.pk), sk: String(item.sk) } },
    }));
  /** What a new address does to such an account's contact item: the old one goes, the new one is put. */
  const contactMove = (current: Pick<Account, 'id' | 'email'>, email: string) =>
    normalizeAddress(current.email) === normalizeAddress(email)
      ? []
      : [
          ...contactDeletes(current),
          ...contactItems({ id: current.id, email }).map((item) => ({
            Put: { TableName: tableName, Item: item },
          })),
        ];

  return {
    findById,

    async findByEmail(email) {
      const id = await claimant(email);
      return id === undefined ? undefined : findById(id);
    },

    async create(account) {
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: accountItem(account),
              // An id is never reused: a second create of the same account (a migration run again) writes nothing.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: addressClaimItem(account),
              // The claim is what makes an address one account's: a second account for it writes nothing.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          countChange(1),
        ],
      });
      return outcome.ok ? 'created' : 'exists';
    },

    async findByIdentity(provider, subject) {
      const link = await get(keys.accountIdentity(provider, subject));
      return typeof link?.[a.id] === 'string' ? findById(link[a.id] as string) : undefined;
    },

    async createWithIdentity(account) {
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: accountItem(account),
              // A new id: an account item of that id already there would be overwritten otherwise.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: identityLinkItem(account),
              // The link is what makes an identity one account's: a second first sign-in at once writes nothing.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // Its address, if any, carried without a claim: an erase of that address finds the account by it.
          ...contactItems(account).map((item) => ({ Put: { TableName: tableName, Item: item } })),
          countChange(1),
        ],
      });
      return outcome.ok ? 'created' : 'exists';
    },

    async update(id, changes, expectedVersion) {
      const plan = updatePlan(changes, now());
      // A change of address or type touches the claim as well: the account is read first for its address.
      const current =
        changes.email !== undefined || changes.type !== undefined ? await findById(id) : undefined;
      if (changes.email !== undefined || changes.type !== undefined) {
        if (!current || (expectedVersion !== undefined && current.sessionVersion !== expectedVersion)) {
          return { status: 'stale' };
        }
      }
      const versionCondition = expectedVersion === undefined ? '' : ' AND #sessionVersion = :expectedVersion';
      const names = {
        ...plan.names,
        ...(expectedVersion === undefined ? {} : { '#sessionVersion': a.sessionVersion }),
      };
      const values = {
        ...plan.values,
        ...(expectedVersion === undefined ? {} : { ':expectedVersion': expectedVersion }),
      };
      /** The change of the account as read, in a transaction beside its claim or contact. */
      const asRead = (read: Account) => ({
        Update: {
          TableName: tableName,
          Key: keys.account(id),
          UpdateExpression: plan.expression,
          // The account as read: its address is the claim or contact changed beside it, its version the token's.
          ConditionExpression: `attribute_exists(pk) AND #email = :oldEmail${versionCondition}`,
          ExpressionAttributeNames: { ...names, '#email': a.email },
          ExpressionAttributeValues: { ...values, ':oldEmail': read.email },
        },
      });
      const updated = async (): Promise<AccountUpdate> => {
        const account = await findById(id);
        return account ? { status: 'updated', account } : { status: 'stale' };
      };
      // An account made from an external identity holds no address claim: a new address moves its contact item.
      if (current?.identity && changes.email !== undefined) {
        const outcome = await transactWrite(client, {
          TransactItems: [asRead(current), ...contactMove(current, changes.email)],
        });
        return outcome.ok ? updated() : { status: 'stale' };
      }
      // Without a new address, its changes touch its item alone.
      if (!current || current.identity) {
        try {
          const output = await client.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.account(id),
              UpdateExpression: plan.expression,
              // Only an account that exists (an UpdateItem on a missing key would create one), and only while
              // its session version is the one the caller's token carried.
              ConditionExpression: `attribute_exists(pk)${versionCondition}`,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
              ReturnValues: 'ALL_NEW',
            }),
          );
          const account = toAccount(output.Attributes);
          return account ? { status: 'updated', account } : { status: 'stale' };
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException) return { status: 'stale' };
          throw error;
        }
      }

      const oldAddress = normalizeAddress(current.email);
      const newAddress = changes.email === undefined ? oldAddress : normalizeAddress(changes.email);
      const moved = newAddress !== oldAddress;
      const type = changes.type ?? current.type;
      const outcome = await transactWrite(client, {
        TransactItems: [
          asRead(current),
          moved
            ? {
                Put: {
                  TableName: tableName,
                  Item: addressClaimItem({ id, email: newAddress, type }),
                  // The new address must be nobody's: an address has one account.
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              }
            : {
                Update: {
                  TableName: tableName,
                  Key: keys.accountEmail(oldAddress),
                  // The claim carries the type (a post's mail is checked against it); only this account's.
                  UpdateExpression: 'SET #type = :type',
                  ConditionExpression: '#id = :id',
                  ExpressionAttributeNames: { '#type': a.type, '#id': a.id },
                  ExpressionAttributeValues: { ':type': type, ':id': id },
                },
              },
          ...(moved
            ? [
                {
                  Delete: {
                    TableName: tableName,
                    Key: keys.accountEmail(oldAddress),
                    // Released only by the account that holds it.
                    ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
                    ExpressionAttributeNames: { '#id': a.id },
                    ExpressionAttributeValues: { ':id': id },
                  },
                },
              ]
            : []),
        ],
      });
      if (!outcome.ok) {
        return moved && outcome.failedConditions.includes(1)
          ? { status: 'address-taken' }
          : { status: 'stale' };
      }
      return updated();
    },

    async remove(id) {
      const account = await findById(id);
      if (!account) return false;
      // An account made from an external identity goes with its identity's link, one of an address with its claim.
      const claim = account.identity
        ? keys.accountIdentity(account.identity.provider, account.identity.subject)
        : keys.accountEmail(normalizeAddress(account.email));
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Delete: {
              TableName: tableName,
              Key: keys.account(id),
              // The account as read, with the address whose claim goes with it.
              ConditionExpression: 'attribute_exists(pk) AND #email = :email',
              ExpressionAttributeNames: { '#email': a.email },
              ExpressionAttributeValues: { ':email': account.email },
            },
          },
          {
            Delete: {
              TableName: tableName,
              Key: claim,
              // Only this account's claim or link (a claim another account holds stays).
              ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
              ExpressionAttributeNames: { '#id': a.id },
              ExpressionAttributeValues: { ':id': id },
            },
          },
          // Its contact item (its own key: only its own), if it carries an address without a claim.
          ...(account.identity ? contactDeletes(account) : []),
          countChange(-1),
        ],
      });
      // Its passkeys go after it: they could not sign in without it anyway (passkey sign-in reads the account).
      if (outcome.ok) await passkeys.removeAllOf(id);
      return outcome.ok;
    },

    async findByContact(address, limit) {
      const normalised = normalizeAddress(address);
      const found = await Promise.all(
        (await contactsOf(normalised, limit)).map((contact) =>
          typeof contact[a.id] === 'string' ? findById(contact[a.id] as string) : undefined,
        ),
      );
      // An item read while its account's address moved can name it a moment too long: the account decides.
      return found.filter(
        (account): account is Account =>
          account?.identity !== undefined && normalizeAddress(account.email) === normalised,
      );
    },

    async forgetContact(address, limit, keep) {
      const normalised = normalizeAddress(address);
      let forgotten = 0;
      // Every contact taken is deleted below, so the next round reads those after them (and the kept one, passed).
      const contacts = (await contactsOf(normalised, limit + 1))
        .filter((contact) => keep === undefined || contact[a.id] !== keep)
        .slice(0, limit);
      for (const contact of contacts) {
        const key = { pk: String(contact.pk), sk: String(contact.sk) };
        const account =
          typeof contact[a.id] === 'string' ? await findById(contact[a.id] as string) : undefined;
        if (
          account?.identity &&
          isPlainAddress(account.email) &&
          normalizeAddress(account.email) === normalised
        ) {
          const outcome = await transactWrite(client, {
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.account(account.id),
                  UpdateExpression: 'SET #email = :none, #updatedAt = :now REMOVE #verified',
                  // The address as read: one changed meanwhile (its contact moved with it) stays.
                  ConditionExpression: 'attribute_exists(pk) AND #email = :email',
                  ExpressionAttributeNames: {
                    '#email': a.email,
                    '#updatedAt': a.updatedAt,
                    '#verified': a.emailVerified,
                  },
                  ExpressionAttributeValues: { ':none': '', ':now': now(), ':email': account.email },
                },
              },
              { Delete: { TableName: tableName, Key: key } },
            ],
          });
          if (outcome.ok) {
            forgotten++;
            continue;
          }
        }
        // A contact left by an account gone or moved elsewhere (or one that moved just now): only the item goes.
        await client.send(new DeleteCommand({ TableName: tableName, Key: key }));
      }
      return { forgotten, more: contacts.length === limit };
    },

    async listPage(page, pageSize) {
      const size = Math.max(1, Math.trunc(pageSize));
      const wanted = Math.max(1, Math.trunc(page)) * size;
      // The accounts' partition of the held-by-time index, newest id first, keys only: page p reads p * size
      // keys at most, never a Scan.
      const entries = await queryUpTo(
        client,
        {
          TableName: tableName,
          IndexName: indexNames.held,
          KeyConditionExpression: '#heldPk = :accounts',
          ScanIndexForward: false,
          ...projection([attributes.pk, attributes.sk], { '#heldPk': attributes.heldPk }),
          ExpressionAttributeValues: { ':accounts': keys.accountsPartition },
        },
        wanted,
      );
      const pageKeys = entries.slice(wanted - size, wanted).map((entry) => ({
        pk: String(entry[attributes.pk]),
        sk: String(entry[attributes.sk]),
      }));
      // The index holds cards only: the page's items and the count in one BatchGet.
      const found = await batchGet(
        client,
        tableName,
        [...pageKeys, keys.accountCount()],
        [...accountItemAttributes, totalAttribute],
      );
      const accounts = pageKeys.flatMap((key) => toAccount(found.get(keyId(key))) ?? []);
      const total = Number(found.get(keyId(keys.accountCount()))?.[totalAttribute]) || 0;
      return { accounts, total: Math.max(0, total) };
    },

    async listAll() {
      const accounts: Account[] = [];
      // The CLI's and the export's only: a Scan.
      for await (const item of scanEntity(client, tableName, entities.account)) {
        const account = toAccount(item);
        if (account) accounts.push(account);
      }
      return accounts.sort((x, y) => (x.id < y.id ? 1 : x.id > y.id ? -1 : 0));
    },
  };
}

/** The UpdateExpression of `changes`, with its names and values; `updatedAt` is always set. */
function updatePlan(
  changes: AccountChanges,
  time: number,
): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assign = (name: string, value: unknown) => {
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    set.push(`#${name} = :${name}`);
  };
  const clearable = (name: string, value: string | undefined) => {
    if (value === '') {
      names[`#${name}`] = name;
      remove.push(`#${name}`);
    } else if (value !== undefined) assign(name, value);
  };
  if (changes.displayName !== undefined) assign(a.displayName, changes.displayName);
  clearable(a.link, changes.link);
  clearable(a.avatar, changes.avatar);
  clearable(a.label, changes.label);
  if (changes.email !== undefined) {
    assign(a.email, changes.email);
    // An address changes only through a link mailed to it (confirm-address.ts): it is proven, whatever a provider
    // said of the one before.
    names[`#${a.emailVerified}`] = a.emailVerified;
    remove.push(`#${a.emailVerified}`);
  }
  if (changes.type !== undefined) assign(a.type, changes.type);
  if (changes.state !== undefined) assign(a.state, changes.state);
  if (changes.passwordHash !== undefined) assign(a.passwordHash, changes.passwordHash);
  assign(a.updatedAt, time);
  // ADD, not SET from a read value: two revocations at once both count, and neither undoes the other.
  const add = changes.revokeTokens ? ' ADD #revokedVersion :one' : '';
  if (changes.revokeTokens) {
    names['#revokedVersion'] = a.sessionVersion;
    values[':one'] = 1;
  }
  const expression = `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}${add}`;
  return { expression, names, values };
}
