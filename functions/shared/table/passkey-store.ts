import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Passkey, passkeyAttributes as p, passkeyLimits } from '../domain/passkey.js';
import { attributes, entities, keys, passkeySkPrefix } from './keys.js';
import { queryUpTo } from './query-up-to.js';
import { transactWrite } from './transact.js';
import { type AccountMailNotice, accountMailPut } from './account-mail-event.js';

/** What a challenge was handed out for: adding a passkey to one account, or signing in with any. */
export type ChallengePurpose =
  { readonly kind: 'register'; readonly accountId: string } | { readonly kind: 'sign-in' };

/**
 * The passkeys of accounts (docs/data-model.md, "Accounts"): one item each in the account's partition, a count on
 * the account item that bounds them, and the WebAuthn challenges, each stored until it is answered once.
 */
export interface PasskeyStore {
  /** The account's passkeys, oldest first (at most a few more than `passkeyLimits.perAccount`: one Query). */
  list(accountId: string): Promise<Passkey[]>;
  /** One passkey of the account, read consistently; undefined when the account has none of that id. */
  find(accountId: string, credentialId: string): Promise<Passkey | undefined>;
  /**
   * Stores `passkey` and counts it on its account, in one transaction: `limit` when the account has
   * `passkeyLimits.perAccount` already, `exists` when that credential is stored already, `no-account` when the
   * account is gone. Nothing is written unless `added`; with `notice`, its mail's outbox event is written with it.
   */
  add(passkey: Passkey, notice?: AccountMailNotice): Promise<'added' | 'limit' | 'exists' | 'no-account'>;
  /** Removes one passkey and uncounts it (with `notice`, its mail's event too); false when the account had none of that id. */
  remove(accountId: string, credentialId: string, notice?: AccountMailNotice): Promise<boolean>;
  /**
   * Records a sign-in: the new sign counter and the time, only while the stored counter is still `previous`
   * (of two requests with one assertion, one writes); false when it changed meanwhile or the passkey is gone.
   */
  recordUse(
    accountId: string,
    credentialId: string,
    previous: number,
    counter: number,
    at: number,
  ): Promise<boolean>;
  /** Removes every passkey of an account (the account is being removed): how many there were. */
  removeAllOf(accountId: string): Promise<number>;
  /** Keeps `challenge` (base64url) for `purpose` until `until` (ms): the table's TTL removes it later. */
  putChallenge(challenge: string, purpose: ChallengePurpose, until: number): Promise<void>;
  /**
   * Takes `challenge` once: true when it was handed out for `purpose` and is unexpired at `now`, and it is deleted
   * in the same write; false for a challenge never handed out, taken already, expired, or another's.
   */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<boolean>;
}

const purposeAttribute = 'purpose';
const untilAttribute = 'until';

const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** A passkey item read back; undefined for anything else. */
export function toPasskey(item: Record<string, unknown> | undefined): Passkey | undefined {
  if (!item || item.entity !== entities.passkey) return undefined;
  const lastUsedAt = item[p.lastUsedAt];
  return {
    accountId: String(item[p.accountId]),
    credentialId: String(item[p.credentialId]),
    publicKey: String(item[p.publicKey]),
    counter: Number(item[p.counter] ?? 0),
    transports: asStrings(item[p.transports]),
    name: String(item[p.name] ?? ''),
    deviceType: item[p.deviceType] === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: item[p.backedUp] === true,
    createdAt: Number(item[p.createdAt] ?? 0),
    ...(typeof lastUsedAt === 'number' ? { lastUsedAt } : {}),
  };
}

/** The purpose as stored on a challenge item: `register#<accountId>` or `sign-in`. */
const purposeValue = (purpose: ChallengePurpose) =>
  purpose.kind === 'register' ? `register#${purpose.accountId}` : 'sign-in';

/** Builds the passkey store on `client` and `tableName`. */
export function createPasskeyStore(client: DynamoDBDocumentClient, tableName: string): PasskeyStore {
  const conditionFailed = (error: unknown) => {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  };
  const list = async (accountId: string) =>
    (
      await queryUpTo(client, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
        ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': passkeySkPrefix },
        ConsistentRead: true,
      })
    )
      .flatMap((item) => toPasskey(item) ?? [])
      .sort((a, b) => a.createdAt - b.createdAt);
  const countChange = (accountId: string, step: 1 | -1) => ({
    Update: {
      TableName: tableName,
      Key: keys.account(accountId),
      UpdateExpression: 'ADD #count :step',
      // Adding: only to an account that exists (an update would create the item) and has room left; removing:
      // only on an account that exists (a removed account's partition is being emptied).
      ConditionExpression:
        step === 1
          ? 'attribute_exists(pk) AND (attribute_not_exists(#count) OR #count < :max)'
          : 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#count': p.passkeyCount },
      ExpressionAttributeValues: {
        ':step': step,
        ...(step === 1 ? { ':max': passkeyLimits.perAccount } : {}),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  });

  return {
    list,

    async find(accountId, credentialId) {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.passkey(accountId, credentialId),
          ConsistentRead: true,
        }),
      );
      return toPasskey(output.Item);
    },

    async add(passkey, notice) {
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...keys.passkey(passkey.accountId, passkey.credentialId),
                entity: entities.passkey,
                [p.accountId]: passkey.accountId,
                [p.credentialId]: passkey.credentialId,
                [p.publicKey]: passkey.publicKey,
                [p.counter]: passkey.counter,
                [p.transports]: [...passkey.transports],
                [p.name]: passkey.name,
                [p.deviceType]: passkey.deviceType,
                [p.backedUp]: passkey.backedUp,
                [p.createdAt]: passkey.createdAt,
              },
              // A credential is stored once: registering it again (another tab) writes nothing.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          countChange(passkey.accountId, 1),
          // The notice that tells the account of it, written with it or not at all.
          ...(notice ? [{ Put: accountMailPut(tableName, notice) }] : []),
        ],
      });
      if (outcome.ok) return 'added';
      if (outcome.failedConditions.includes(0)) return 'exists';
      return outcome.oldItems[1] ? 'limit' : 'no-account';
    },

    async remove(accountId, credentialId, notice) {
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Delete: {
              TableName: tableName,
              Key: keys.passkey(accountId, credentialId),
              // Only a passkey that is there: the count goes down once per passkey.
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          countChange(accountId, -1),
          ...(notice ? [{ Put: accountMailPut(tableName, notice) }] : []),
        ],
      });
      return outcome.ok;
    },

    async recordUse(accountId, credentialId, previous, counter, at) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.passkey(accountId, credentialId),
            UpdateExpression: 'SET #counter = :counter, #lastUsedAt = :at',
            // The counter the assertion was verified against: a concurrent use of the same assertion writes nothing.
            ConditionExpression: 'attribute_exists(pk) AND #counter = :previous',
            ExpressionAttributeNames: { '#counter': p.counter, '#lastUsedAt': p.lastUsedAt },
            ExpressionAttributeValues: { ':counter': counter, ':at': at, ':previous': previous },
          }),
        );
        return true;
      } catch (error) {
        return conditionFailed(error);
      }
    },

    async removeAllOf(accountId) {
      const passkeys = await list(accountId);
      for (const passkey of passkeys) {
        await client.send(
          new DeleteCommand({ TableName: tableName, Key: keys.passkey(accountId, passkey.credentialId) }),
        );
      }
      return passkeys.length;
    },

    async putChallenge(challenge, purpose, until) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.passkeyChallenge(challenge),
          UpdateExpression:
            'SET #entity = :entity, #purpose = :purpose, #until = :until, #expires = :expires',
          // A challenge is random (32 bytes): one already there would be a collision, never overwritten.
          ConditionExpression: 'attribute_not_exists(pk)',
          ExpressionAttributeNames: {
            '#entity': 'entity',
            '#purpose': purposeAttribute,
            '#until': untilAttribute,
            '#expires': attributes.expiresAt,
          },
          ExpressionAttributeValues: {
            ':entity': entities.passkeyChallenge,
            ':purpose': purposeValue(purpose),
            ':until': until,
            ':expires': Math.ceil(until / 1000) + 60,
          },
        }),
      );
    },

    async takeChallenge(challenge, purpose, now) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.passkeyChallenge(challenge),
            // Deleted only when it is there, for this purpose (and account), and unexpired (TTL removes items
            // late): of two answers to one challenge, the second finds it gone.
            ConditionExpression: 'attribute_exists(pk) AND #purpose = :purpose AND #until > :now',
            ExpressionAttributeNames: { '#purpose': purposeAttribute, '#until': untilAttribute },
            ExpressionAttributeValues: { ':purpose': purposeValue(purpose), ':now': now },
          }),
        );
        return true;
      } catch (error) {
        return conditionFailed(error);
      }
    },
  };
}
