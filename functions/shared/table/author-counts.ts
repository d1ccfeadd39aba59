import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { accountAttributes, authorProfileAttributes, type AuthorProfile } from '../domain/account.js';
import { accountOfAuthorKey, type AuthorDisplay } from '../domain/author-tally.js';
import { approvedCountAttribute, wallPartition } from './author-count-items.js';
import { batchGet, keyId } from './batch-get.js';
import { attributes, indexNames, keys } from './keys.js';
import { storedCount } from './stored-count.js';

/** One author of the user wall: their count, and what it shows of them. */
export interface WallAuthor {
  readonly authorKey: string;
  readonly count: number;
  /** An account's current profile; absent for an address, and for an account deleted since. */
  readonly profile?: AuthorProfile;
  /** What an anonymous author's last counted comment showed (never the mail). */
  readonly display?: AuthorDisplay;
}

/** The level counters (table/author-count-items.ts writes them). */
export interface AuthorCounts {
  /** The approved-comment count of each of `authorKeys` (0 for one never counted): one BatchGetItem per 100. */
  counts(authorKeys: readonly string[]): Promise<Map<string, number>>;
  /**
   * The `limit` authors with the most approved comments, most first (none with 0): one Query of the wall's
   * partition of the roots-by-like index, then one BatchGetItem of their counters and their accounts' profiles.
   */
  wall(limit: number): Promise<WallAuthor[]>;
}

const counterAttributes = [approvedCountAttribute, 'authorKey', 'nick', 'link', 'avatar'];

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The profile of an account item, or undefined for an item that is not one. */
function profileOf(item: Record<string, unknown> | undefined): AuthorProfile | undefined {
  if (!item || typeof item[accountAttributes.id] !== 'string') return undefined;
  const optional = (name: string) =>
    typeof item[name] === 'string' && item[name] !== '' ? { [name]: item[name] } : {};
  const type = item[accountAttributes.type];
  return {
    id: text(item[accountAttributes.id]),
    displayName: text(item[accountAttributes.displayName]),
    email: text(item[accountAttributes.email]),
    type: type === 'administrator' || type === 'banned' ? type : 'guest',
    ...optional(accountAttributes.link),
    ...optional(accountAttributes.avatar),
    ...optional(accountAttributes.label),
  } as AuthorProfile;
}

/** Builds the level-counter reads on `client` and `tableName`. */
export function createAuthorCounts(client: DynamoDBDocumentClient, tableName: string): AuthorCounts {
  return {
    async counts(authorKeys) {
      const found = await batchGet(client, tableName, authorKeys.map(keys.authorCount), [
        approvedCountAttribute,
      ]);
      return new Map(
        authorKeys.map((authorKey) => [
          authorKey,
          storedCount(found.get(keyId(keys.authorCount(authorKey)))?.[approvedCountAttribute]),
        ]),
      );
    },

    async wall(limit) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexNames.rootsByLike,
          // The wall's partition, highest count first; authors whose count fell to 0 are not on it.
          KeyConditionExpression: '#rootsPk = :wall AND #likeSort > :zero',
          ExpressionAttributeNames: { '#rootsPk': attributes.rootsPk, '#likeSort': attributes.likeSort },
          ExpressionAttributeValues: { ':wall': wallPartition, ':zero': 0 },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      const counterKeys = (output.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
      if (counterKeys.length === 0) return [];
      const authorKeys = counterKeys.map(({ pk }) => pk.replace(/^AUTHOR#/, ''));
      const accountKeys = authorKeys.flatMap((authorKey) => {
        const id = accountOfAuthorKey(authorKey);
        return id === undefined ? [] : [keys.account(id)];
      });
      // One BatchGetItem for both: the counters (their counts and displays) and the accounts' profiles.
      const found = await batchGet(
        client,
        tableName,
        [...counterKeys, ...accountKeys],
        [...counterAttributes, ...authorProfileAttributes],
      );
      return authorKeys.flatMap((authorKey, index): WallAuthor[] => {
        const counter = found.get(keyId(counterKeys[index] as (typeof counterKeys)[number]));
        if (!counter) return [];
        const id = accountOfAuthorKey(authorKey);
        const profile = id === undefined ? undefined : profileOf(found.get(keyId(keys.account(id))));
        const display =
          typeof counter.nick === 'string'
            ? { nick: counter.nick, link: text(counter.link), avatar: text(counter.avatar) }
            : undefined;
        return [
          {
            authorKey,
            count: storedCount(counter[approvedCountAttribute]),
            ...(profile ? { profile } : {}),
            ...(display ? { display } : {}),
          },
        ];
      });
    },
  };
}
