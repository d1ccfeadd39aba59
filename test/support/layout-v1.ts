/**
 * The write paths of 0.1.0 (item layout 1), copied from commit 23f69c2 so that tests can write a table
 * exactly as 0.1.0 left it: functions/shared/table/comment-item.ts (toCommentItem), counter-deltas.ts,
 * comment-repository.ts (insert, vote), moderation-repository.ts (setStatus, setSticky, remove) and
 * scripts/create-table.ts (the table without the roots indexes). Key formats and attribute names are
 * spelled out as 0.1.0 spelled them, not taken from today's keys.ts, so that a change there cannot
 * change this fixture. Only the transaction sender is today's (it retries conflicts as 0.1.0 did).
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { CommentStatus, StoredComment } from '../../functions/shared/domain/comment.js';
import { contentHash, hashIp } from '../../functions/shared/domain/hashing.js';
import { transactWrite } from '../../functions/shared/table/transact.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Key = { pk: string; sk: string };

/** 0.1.0's keys.ts. */
export const v1Keys = {
  comment: (url: string, id: string): Key => ({ pk: `URL#${url}`, sk: `C#${id}` }),
  pageCounters: (url: string): Key => ({ pk: `URL#${url}`, sk: 'PAGE' }),
  siteCounters: (): Key => ({ pk: 'SITE', sk: 'SITE' }),
  likeVote: (commentId: string, voterHash: string): Key => ({
    pk: `C#${commentId}`,
    sk: `VOTE#like#${voterHash}`,
  }),
  rate: (ipHash: string): Key => ({ pk: `IP#${ipHash}`, sk: 'RATE' }),
  duplicate: (url: string, contentHash: string): Key => ({ pk: `URL#${url}`, sk: `DUP#${contentHash}` }),
};

const statusPartition = (status: CommentStatus) => `STATUS#${status}`;

/** 0.1.0's CreateTable request: the recent and by-id indexes only. */
export function createTableInputV1(tableName: string): CreateTableCommandInput {
  const recentIndexAttributes = [
    'commentId',
    'url',
    'pid',
    'rid',
    'nick',
    'mail',
    'ipHash',
    'link',
    'browser',
    'os',
    'orig',
    'html',
    'status',
    'like',
    'sticky',
    'insertedAt',
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      ...['pk', 'sk', 'recentPk', 'recentSk'].map((name) => ({
        AttributeName: name,
        AttributeType: 'S' as const,
      })),
      { AttributeName: 'commentId', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'recent',
        KeySchema: [
          { AttributeName: 'recentPk', KeyType: 'HASH' },
          { AttributeName: 'recentSk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: recentIndexAttributes },
      },
      {
        IndexName: 'by-id',
        KeySchema: [{ AttributeName: 'commentId', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['url', 'like'] },
      },
    ],
  };
}

/** 0.1.0's toCommentItem. */
export function toCommentItemV1(comment: StoredComment, contentHash?: string): Record<string, unknown> {
  const { id, ...fields } = comment;
  return {
    ...v1Keys.comment(comment.url, id),
    entity: 'comment',
    commentId: id,
    ...fields,
    ...(contentHash ? { contentHash } : {}),
    recentPk: statusPartition(comment.status),
    recentSk: id,
  };
}

/** 0.1.0's CounterDelta: no held counts on the page. */
interface CounterDeltaV1 {
  readonly page: { comments: number; roots: number };
  readonly site: { comments: number; waiting: number; spam: number };
}

function contribution(status: CommentStatus, isRoot: boolean): CounterDeltaV1 {
  const approved = status === 'approved' ? 1 : 0;
  return {
    page: { comments: approved, roots: approved && isRoot ? 1 : 0 },
    site: { comments: approved, waiting: status === 'waiting' ? 1 : 0, spam: status === 'spam' ? 1 : 0 },
  };
}

function combine(a: CounterDeltaV1, b: CounterDeltaV1, sign: 1 | -1 = 1): CounterDeltaV1 {
  return {
    page: { comments: a.page.comments + sign * b.page.comments, roots: a.page.roots + sign * b.page.roots },
    site: {
      comments: a.site.comments + sign * b.site.comments,
      waiting: a.site.waiting + sign * b.site.waiting,
      spam: a.site.spam + sign * b.site.spam,
    },
  };
}

const noDelta: CounterDeltaV1 = {
  page: { comments: 0, roots: 0 },
  site: { comments: 0, waiting: 0, spam: 0 },
};

const addItem = (
  tableName: string,
  key: Key,
  counts: Record<string, number>,
  set: Record<string, string>,
) => {
  const changed = Object.entries(counts).filter(([, value]) => value !== 0);
  if (changed.length === 0) return [];
  const names = { ...Object.fromEntries(changed.map(([name], i) => [`#c${i}`, name])) };
  const values: Record<string, unknown> = Object.fromEntries(
    changed.map(([, value], i) => [`:c${i}`, value]),
  );
  const sets = Object.entries(set);
  sets.forEach(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
  });
  return [
    {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression:
          `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')}` +
          (sets.length > 0 ? ` SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')}` : ''),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
};

/** 0.1.0's counterUpdates: the site item gets no layout mark. */
function counterUpdates(tableName: string, url: string, delta: CounterDeltaV1): TransactItem[] {
  return [
    ...addItem(tableName, v1Keys.pageCounters(url), delta.page, { entity: 'page', url }),
    ...addItem(tableName, v1Keys.siteCounters(), delta.site, { entity: 'site' }),
  ];
}

/** A comment as 0.1.0's moderation read it. */
export type CommentV1 = Pick<StoredComment, 'url' | 'id' | 'status'> & {
  readonly rid?: string;
  readonly pid?: string;
  readonly contentHash?: string;
};

/** The 0.1.0 writes a test needs, on `client` and `tableName`. Each throws when 0.1.0 would have refused. */
export function createV1Writer(client: DynamoDBDocumentClient, tableName: string) {
  const must = async (input: TransactWriteCommandInput, what: string) => {
    const outcome = await transactWrite(client, input);
    if (!outcome.ok) throw new Error(`0.1.0 refused ${what}: conditions ${outcome.failedConditions.join()}`);
  };

  return {
    /** comment-repository.ts insert, with its duplicate mark, rate mark, parent checks and counters. */
    async insert(
      comment: StoredComment,
      guards: { contentHash: string; rateLimit?: { ipHash: string; windowMs: number } },
      /** What 0.1.0's import added to the items it wrote (`importedFrom`). */
      extra: Record<string, unknown> = {},
    ) {
      const now = comment.insertedAt;
      const items: TransactItem[] = [
        {
          Put: {
            TableName: tableName,
            Item: { ...toCommentItemV1(comment, guards.contentHash), ...extra },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...v1Keys.duplicate(comment.url, guards.contentHash),
              entity: 'duplicate',
              of: comment.id,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      if (guards.rateLimit) {
        const { ipHash, windowMs } = guards.rateLimit;
        items.push({
          Put: {
            TableName: tableName,
            Item: {
              ...v1Keys.rate(ipHash),
              entity: 'rate',
              lastPostAt: now,
              expiresAt: Math.ceil((now + windowMs) / 1000),
            },
            ConditionExpression: 'attribute_not_exists(pk) OR lastPostAt <= :cutoff',
            ExpressionAttributeValues: { ':cutoff': now - windowMs },
          },
        });
      }
      if (comment.rid !== undefined) {
        items.push({
          ConditionCheck: {
            TableName: tableName,
            Key: v1Keys.comment(comment.url, comment.rid),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rid)',
          },
        });
        if (comment.pid !== undefined && comment.pid !== comment.rid) {
          items.push({
            ConditionCheck: {
              TableName: tableName,
              Key: v1Keys.comment(comment.url, comment.pid),
              ConditionExpression: 'attribute_exists(pk) AND rid = :rid',
              ExpressionAttributeValues: { ':rid': comment.rid },
            },
          });
        }
      }
      items.push(
        ...counterUpdates(tableName, comment.url, contribution(comment.status, comment.rid === undefined)),
      );
      await must({ TransactItems: items }, `comment ${comment.id}`);
    },

    /** moderation-repository.ts setStatus: the status, the recent partition and the counters, at once. */
    async setStatus(comment: CommentV1, next: CommentStatus) {
      if (comment.status === next) return;
      const root = comment.rid === undefined;
      const delta = combine(contribution(next, root), contribution(comment.status, root), -1);
      await must(
        {
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: v1Keys.comment(comment.url, comment.id),
                UpdateExpression: 'SET #status = :next, #partition = :partition',
                ConditionExpression: '#status = :previous',
                ExpressionAttributeNames: { '#status': 'status', '#partition': 'recentPk' },
                ExpressionAttributeValues: {
                  ':next': next,
                  ':previous': comment.status,
                  ':partition': statusPartition(next),
                },
              },
            },
            ...counterUpdates(tableName, comment.url, delta),
          ],
        },
        `status ${next} of ${comment.id}`,
      );
    },

    /** moderation-repository.ts setSticky. */
    async setSticky(ref: { url: string; id: string }, sticky: boolean) {
      await must(
        {
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: v1Keys.comment(ref.url, ref.id),
                UpdateExpression: 'SET sticky = :sticky',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':sticky': sticky },
              },
            },
          ],
        },
        `sticky of ${ref.id}`,
      );
    },

    /** comment-repository.ts vote with vote-items.ts: a like (or unlike), once per voter. */
    async vote(target: { url: string; id: string }, voterHash: string, like: boolean) {
      const voteKey = v1Keys.likeVote(target.id, voterHash);
      const counterKey = v1Keys.comment(target.url, target.id);
      const items: TransactItem[] = like
        ? [
            {
              Put: {
                TableName: tableName,
                Item: { ...voteKey, entity: 'vote' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: tableName,
                Key: counterKey,
                UpdateExpression: 'ADD #counter :one',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: { '#counter': 'like' },
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ]
        : [
            { Delete: { TableName: tableName, Key: voteKey, ConditionExpression: 'attribute_exists(pk)' } },
            {
              Update: {
                TableName: tableName,
                Key: counterKey,
                UpdateExpression: 'ADD #counter :minusOne',
                ConditionExpression: 'attribute_exists(pk) AND #counter > :zero',
                ExpressionAttributeNames: { '#counter': 'like' },
                ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
              },
            },
          ];
      await must({ TransactItems: items }, `vote on ${target.id}`);
    },

    /**
     * moderation-repository.ts remove: the comment, the replies that answer it and (for a root) its whole
     * thread, with their duplicate marks and counters. Returns how many.
     */
    async remove(ref: { url: string; id: string }) {
      const all: CommentV1[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :comments)',
            ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
            ExpressionAttributeValues: { ':pk': `URL#${ref.url}`, ':comments': 'C#' },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of output.Items ?? []) {
          all.push({
            url: String(item.url),
            id: String(item.commentId),
            status: item.status as CommentStatus,
            ...(typeof item.pid === 'string' ? { pid: item.pid } : {}),
            ...(typeof item.rid === 'string' ? { rid: item.rid } : {}),
            ...(typeof item.contentHash === 'string' ? { contentHash: item.contentHash } : {}),
          });
        }
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      const doomed = all.filter((c) => c.id === ref.id || c.pid === ref.id || c.rid === ref.id);
      // A comment, its mark, and the two counter updates: 45 comments per transaction.
      for (let start = 0; start < doomed.length; start += 45) {
        const chunk = doomed.slice(start, start + 45);
        const delta = chunk.reduce(
          (sum, comment) => combine(sum, contribution(comment.status, comment.rid === undefined), -1),
          noDelta,
        );
        await must(
          {
            TransactItems: [
              ...chunk.flatMap((comment): TransactItem[] => [
                {
                  Delete: {
                    TableName: tableName,
                    Key: v1Keys.comment(comment.url, comment.id),
                    ConditionExpression: '#status = :status',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':status': comment.status },
                  },
                },
                ...(comment.contentHash
                  ? [
                      {
                        Delete: {
                          TableName: tableName,
                          Key: v1Keys.duplicate(comment.url, comment.contentHash),
                        },
                      },
                    ]
                  : []),
              ]),
              ...counterUpdates(tableName, ref.url, delta),
            ],
          },
          `removal of ${ref.id}`,
        );
      }
      return doomed.length;
    },
  };
}

/** The salt of test/support/test-config.ts: voter and rate marks match the live ones. */
export const v1Salt = 'test-salt-0123456789abcdef';

/** The articles of the seeded site. */
export const v1Urls = { a: '/posts/a', b: '/posts/b', c: '/posts/c' } as const;

/** Names of the seeded comments, in insertion order (their ids sort the same way). */
export const v1Names = [
  'a1',
  'a2',
  'a3',
  'a4',
  'a5',
  'a6',
  'a7',
  'a8',
  'a9',
  'a10',
  'a11',
  'a12',
  'a13',
  'a14',
  'b1',
  'b2',
  'b3',
  'c1',
] as const;

/** A seeded comment's name. */
export type V1Name = (typeof v1Names)[number];

/** A seeded comment as it stands once the seed is written, with what posting it again would hash. */
export type SeededComment = StoredComment & { readonly contentHash: string };

/** The id of a seeded comment: ULID-shaped, in seed order. */
export const v1Id = (name: V1Name) =>
  `01JD0000000000000000000${String(v1Names.indexOf(name) + 1).padStart(3, '0')}`;

/** An IP of the seed's visitors and voters. */
export const v1Ip = (n: number) => `192.0.2.${n}`;

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/**
 * Writes a small site through 0.1.0's write paths and returns its comments as they then stand (deleted
 * ones left out). On /posts/a: approved, waiting and spam roots and replies (some moved there by
 * moderation), a pinned root and one pinned then unpinned, likes (one withdrawn), a reply whose parent was
 * deleted; on /posts/b an imported thread and a waiting root; on /posts/c one root. Every comment has its
 * duplicate mark; visitors' comments their rate marks.
 */
export async function seedV1(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<Map<V1Name, SeededComment>> {
  const writer = createV1Writer(client, tableName);
  const comments = new Map<V1Name, SeededComment>();
  const start = Date.UTC(2026, 0, 5, 12);
  const post = async (
    name: V1Name,
    url: string,
    options: {
      parent?: V1Name;
      status?: CommentStatus;
      nick: string;
      mail?: string;
      link?: string;
      imported?: boolean;
    },
  ) => {
    const n = v1Names.indexOf(name) + 1;
    const parent = options.parent === undefined ? undefined : comments.get(options.parent);
    const text = `Comment ${name}: *${options.nick}* writes on ${url}.`;
    const comment: StoredComment = {
      id: v1Id(name),
      url,
      ...(parent ? { pid: parent.id, rid: parent.rid ?? parent.id } : {}),
      nick: options.nick,
      mail: options.mail ?? '',
      link: options.link ?? '',
      ua: chromeOnLinux,
      ipHash: hashIp(v1Salt, v1Ip(n)),
      browser: 'Chrome120.0',
      os: 'Linux',
      orig: text,
      html: `<p>Comment ${name}: <em>${options.nick}</em> writes on ${url}.</p>\n`,
      status: options.status ?? 'approved',
      like: 0,
      sticky: false,
      insertedAt: start + n * 60_000,
    };
    const hash = contentHash({
      url,
      mail: comment.mail,
      nick: comment.nick,
      link: comment.link,
      comment: text,
    });
    await writer.insert(
      comment,
      {
        contentHash: hash,
        ...(options.imported ? {} : { rateLimit: { ipHash: comment.ipHash, windowMs: 60_000 } }),
      },
      options.imported ? { importedFrom: `waline:${n}` } : {},
    );
    comments.set(name, { ...comment, contentHash: hash });
  };
  const change = (name: V1Name, fields: Partial<StoredComment>) => {
    const comment = comments.get(name);
    if (!comment) throw new Error(`no seeded comment ${name}`);
    comments.set(name, { ...comment, ...fields });
    return comment;
  };
  const setStatus = async (name: V1Name, status: CommentStatus) => {
    await writer.setStatus(change(name, { status }), status);
  };
  const vote = async (name: V1Name, voter: number, like: boolean) => {
    const comment = change(name, {});
    await writer.vote(comment, hashIp(v1Salt, v1Ip(100 + voter)), like);
    change(name, { like: comment.like + (like ? 1 : -1) });
  };

  const { a, b, c } = v1Urls;
  await post('a1', a, { nick: 'Ann', mail: 'ann@example.com', link: 'https://ann.example' });
  await post('a2', a, { nick: 'Bob', mail: 'bob@example.com' });
  await post('a3', a, { parent: 'a1', nick: 'Cy' });
  await post('a4', a, { parent: 'a3', nick: 'Dee', status: 'waiting' });
  await post('a5', a, { nick: 'Eve', mail: 'eve@example.com', status: 'waiting' });
  await post('a6', a, { parent: 'a5', nick: 'Fay', link: 'https://fay.example' });
  await post('a7', a, { parent: 'a1', nick: 'Gus' });
  await setStatus('a7', 'spam');
  await post('a8', a, { nick: 'Hal' });
  await setStatus('a8', 'waiting');
  await setStatus('a8', 'spam');
  await post('a9', a, { parent: 'a3', nick: 'Ida' });
  await post('a10', a, { nick: 'Jo' });
  await post('a11', a, { parent: 'a2', nick: 'Kim' });
  await post('a12', a, { nick: 'Lu', mail: 'lu@example.com' });
  await post('a13', a, { parent: 'a11', nick: 'Max' });
  await post('a14', a, { parent: 'a13', nick: 'Ned' });
  await post('b1', b, { nick: 'Oda', mail: 'oda@example.com', imported: true });
  await post('b2', b, { parent: 'b1', nick: 'Pia', imported: true });
  await post('b3', b, { nick: 'Quin', status: 'waiting' });
  await post('c1', c, { nick: 'Rae', link: 'https://rae.example' });

  await writer.setSticky(change('a2', { sticky: true }), true);
  await writer.setSticky(change('a10', { sticky: true }), true);
  await writer.setSticky(change('a10', { sticky: false }), false);
  for (const voter of [1, 2]) await vote('a1', voter, true);
  for (const voter of [1, 2, 3, 4]) await vote('a10', voter, true);
  await vote('a10', 4, false);
  for (const voter of [1, 2]) await vote('a12', voter, true);
  await vote('a9', 3, true);
  // As Waline: a reply and the replies that answer it; a14 answers a13 and stays, its parent gone.
  await writer.remove(change('a11', {}));
  comments.delete('a11');
  comments.delete('a13');
  return comments;
}
