import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { approvedCountAttribute } from './author-count-items.js';
import { batchGet, keyId } from './batch-get.js';
import { attributes, entities, type Key, keys } from './keys.js';
import { queryUpTo } from './query-up-to.js';

type Item = Record<string, unknown>;

/** One comment filed under an author's key (author-count-items.ts `authorFeedPut`). */
export interface FeedEntry {
  readonly id: string;
  readonly url: string;
  readonly rid?: string;
}

/** What the administrators' log keeps of one data request: never the address, only its hash's first characters. */
export interface DataRequestEntry {
  readonly id: string;
  readonly kind: 'download' | 'erase';
  readonly at: number;
  /** The first 8 characters of the address's keyed hash: enough to tell requests apart, not to find anyone. */
  readonly hashPrefix: string;
  /** `link` (a mailed link) or `account` (a signed-in reader, from `/ui/profile`). */
  readonly via: 'link' | 'account';
  readonly outcome: 'done' | 'running' | 'conflict';
  readonly counts: Readonly<Record<string, number>>;
}

/** An erase of an address's data: under way (`running`) or `done`, with what it did so far. */
export interface EraseJob {
  readonly state: 'running' | 'done';
  /** The keyed hash of the link that started it (none from an account): only that link goes on with it. */
  readonly tokenHash?: string;
  readonly startedAt: number;
  readonly removed: number;
  readonly kept: number;
  /** Accounts made from an identity that lost the address. */
  readonly contacts: number;
}

/** What is kept for an address's mail: suppressions, reply-mail confirmations, the trust mark. */
export interface MailState {
  readonly suppressions: readonly Item[];
  readonly confirmations: readonly Item[];
  readonly trust: Item | undefined;
}

/** The reads and writes of a commenter's download and erase (`/api/my-data`), all bounded, none a Scan. */
export interface MyDataStore {
  /** Up to `limit` feed entries of `authorKey`, oldest first, after the entry of comment `after`; `more` when some follow. */
  feedPage(
    authorKey: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ readonly entries: readonly FeedEntry[]; readonly more: boolean }>;
  /** The stored items of the entries' comments, by comment id (a reply looked for visible and held). */
  commentsOf(entries: readonly FeedEntry[]): Promise<Map<string, Item>>;
  /** Deletes the feed entries of `ids` under `authorKey` (those the erase found stale or done). */
  dropFeedEntries(authorKey: string, ids: readonly string[]): Promise<void>;
  /** The address's suppressions, confirmations and trust mark. */
  mailState(addressHash: string): Promise<MailState>;
  /** Deletes the address's suppressions, confirmations and trust mark; how many items went. */
  eraseMailState(addressHash: string): Promise<number>;
  /** Deletes an author's level counter (and what the wall shows of it) once it counts nothing; false when it still does. */
  dropAuthorCount(authorKey: string): Promise<boolean>;
  /** The erase of `addressHash`, if one was started (consistently read). */
  eraseJob(addressHash: string): Promise<EraseJob | undefined>;
  /** Records the erase's progress (kept a day after its last step). */
  saveEraseJob(addressHash: string, job: EraseJob, at: number): Promise<void>;
  /** Adds one entry to the administrators' log (kept a year). */
  recordRequest(entry: DataRequestEntry): Promise<void>;
  /** The newest `limit` entries of the log, newest first. */
  requests(limit: number): Promise<DataRequestEntry[]>;
}

const dayMs = 86_400_000;
/** The log's entries expire a year after their request. */
const logDays = 366;
/** Deletes sent at once. */
const parallelDeletes = 10;
/** Suppressions read (and deleted) at most: the site's and one per thread muted, far above any reader's. */
const maxSuppressions = 1000;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Builds the store on `client` and `tableName`. */
export function createMyDataStore(client: DynamoDBDocumentClient, tableName: string): MyDataStore {
  /**
   * Deletes `targets`, 10 at a time, each its own DeleteItem (the comment function is granted no BatchWriteItem):
   * idempotent, so an item already gone is no error.
   */
  const deleteAll = async (targets: readonly Key[]) => {
    for (let start = 0; start < targets.length; start += parallelDeletes) {
      await Promise.all(
        targets
          .slice(start, start + parallelDeletes)
          .map((key) => client.send(new DeleteCommand({ TableName: tableName, Key: key }))),
      );
    }
  };
  const suppressionKeys = async (addressHash: string) =>
    queryUpTo(
      client,
      {
        TableName: tableName,
        // The address's partition holds its suppressions only: the site's and one per muted thread.
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': attributes.pk },
        ExpressionAttributeValues: { ':pk': keys.suppression(addressHash, { kind: 'site' }).pk },
        ConsistentRead: true,
      },
      maxSuppressions,
    );
  const confirmationKeys = (addressHash: string) => [
    keys.replyConfirmation(addressHash, 'confirmed'),
    keys.replyConfirmation(addressHash, 'asked'),
  ];

  return {
    async feedPage(authorKey, after, limit) {
      const prefix = keys.authorFeed(authorKey, '');
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          // The author's partition holds its counter too: the prefix keeps to the feed entries, oldest first.
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :feed)',
          ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
          ExpressionAttributeValues: { ':pk': prefix.pk, ':feed': prefix.sk },
          ...(after ? { ExclusiveStartKey: keys.authorFeed(authorKey, after) } : {}),
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      const entries = (output.Items ?? []).flatMap((item): FeedEntry[] => {
        const id = text(item.of);
        const url = text(item.url);
        if (!id || !url) return [];
        return [{ id, url, ...(typeof item.rid === 'string' ? { rid: item.rid } : {}) }];
      });
      return { entries, more: output.LastEvaluatedKey !== undefined };
    },

    async commentsOf(entries) {
      const places = entries.flatMap((entry) =>
        entry.rid === undefined
          ? [keys.root(entry.url, entry.id)]
          : [true, false].map((held) => keys.reply(entry.url, entry.rid as string, entry.id, held)),
      );
      const found = await batchGet(
        client,
        tableName,
        places,
        [
          attributes.commentId,
          'url',
          'pid',
          'rid',
          'nick',
          'mail',
          'link',
          'ua',
          'browser',
          'os',
          'orig',
          'status',
          'like',
          'sticky',
          'insertedAt',
          'userId',
          'addr',
          'type',
        ],
        { consistent: true },
      );
      const byId = new Map<string, Item>();
      for (const place of places) {
        const item = found.get(keyId(place));
        if (item) byId.set(text(item[attributes.commentId]) || text(place.sk).split('#').at(-1) || '', item);
      }
      return byId;
    },

    async dropFeedEntries(authorKey, ids) {
      await deleteAll(ids.map((id) => keys.authorFeed(authorKey, id)));
    },

    async mailState(addressHash) {
      const [suppressions, confirmations, trust] = await Promise.all([
        suppressionKeys(addressHash),
        batchGet(client, tableName, confirmationKeys(addressHash), ['at', 'expiresAt'], { consistent: true }),
        client.send(
          new GetCommand({ TableName: tableName, Key: keys.trust(addressHash), ConsistentRead: true }),
        ),
      ]);
      return { suppressions, confirmations: [...confirmations.values()], trust: trust.Item };
    },

    async eraseMailState(addressHash) {
      const suppressions = await suppressionKeys(addressHash);
      const targets: Key[] = [
        ...suppressions.map((item) => ({ pk: text(item.pk), sk: text(item.sk) })),
        ...confirmationKeys(addressHash),
        keys.trust(addressHash),
      ];
      await deleteAll(targets);
      return suppressions.length;
    },

    async dropAuthorCount(authorKey) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.authorCount(authorKey),
            // Only a counter of nothing: a comment counted meanwhile keeps it (and its place on the wall).
            ConditionExpression: 'attribute_not_exists(#approved) OR #approved <= :zero',
            ExpressionAttributeNames: { '#approved': approvedCountAttribute },
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async eraseJob(addressHash) {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.eraseJob(addressHash), ConsistentRead: true }),
      );
      const item = output.Item;
      if (!item) return undefined;
      return {
        state: item.state === 'done' ? 'done' : 'running',
        ...(typeof item.tokenHash === 'string' ? { tokenHash: item.tokenHash } : {}),
        startedAt: Number(item.startedAt) || 0,
        removed: Number(item.removed) || 0,
        kept: Number(item.kept) || 0,
        contacts: Number(item.contacts) || 0,
      };
    },

    async saveEraseJob(addressHash, job, at) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.eraseJob(addressHash),
            entity: entities.eraseJob,
            ...job,
            updatedAt: at,
            [attributes.expiresAt]: Math.ceil((at + dayMs) / 1000),
          },
        }),
      );
    },

    async recordRequest(entry) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.dataRequest(entry.id),
            entity: entities.dataRequest,
            ...entry,
            [attributes.expiresAt]: Math.ceil((entry.at + logDays * dayMs) / 1000),
          },
        }),
      );
    },

    async requests(limit) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          // The log's partition, newest id first (ULIDs sort by time).
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': attributes.pk },
          ExpressionAttributeValues: { ':pk': keys.dataRequestPartition },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (output.Items ?? []).map((item) => ({
        id: text(item.id),
        kind: item.kind === 'erase' ? 'erase' : 'download',
        at: Number(item.at) || 0,
        hashPrefix: text(item.hashPrefix),
        via: item.via === 'account' ? 'account' : 'link',
        outcome: item.outcome === 'running' || item.outcome === 'conflict' ? item.outcome : 'done',
        counts: (typeof item.counts === 'object' && item.counts !== null ? item.counts : {}) as Record<
          string,
          number
        >,
      }));
    },
  };
}
