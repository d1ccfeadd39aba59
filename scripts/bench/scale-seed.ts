/**
 * The data of the scale case, written straight to the table: one article of 10,000 comments (8,000 roots,
 * 2,000 replies) and one of 30 of the same shape. Each comment is built as the insert builds it (the same
 * markdown renderer, user-agent parser and hashes, then `toCommentItem`) and put 25 at a time with
 * BatchWriteItem; then the page and site counters get what those comments add up to. Posting 10,000
 * comments through the API would take minutes and leave the same items.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { StoredComment } from '../../functions/shared/domain/comment.js';
import { contentHash, hashIp } from '../../functions/shared/domain/hashing.js';
import { prismHighlighter } from '../../functions/shared/domain/highlight-code.js';
import { allMarkdownFeatures, renderMarkdown } from '../../functions/shared/domain/render-markdown.js';
import { describeUserAgent } from '../../functions/shared/domain/user-agent.js';
import { putAll } from '../shared/storage/bulk-writer.js';
import { createDocumentClient } from '../../functions/shared/dynamodb-client/client.js';
import { toCommentItem } from '../../functions/shared/table/comment-item.js';
import {
  combine,
  contribution,
  counterUpdates,
  noDelta,
} from '../../functions/shared/table/counter-deltas.js';
import { entities, keys } from '../../functions/shared/table/keys.js';
import { plainItemBytes } from './item-size.js';
import { commentText, userAgent } from './seed.js';

/** One article of the scale case. */
export interface ScaleArticle {
  readonly path: string;
  /** All its comments, every one approved. */
  readonly comments: number;
  readonly roots: number;
  readonly replies: number;
}

/** The two articles: the same shape, 300 times apart. */
export const scaleArticles = {
  large: { path: '/bench/scale-10000', comments: 10_000, roots: 8000, replies: 2000 },
  small: { path: '/bench/scale-30', comments: 30, roots: 24, replies: 6 },
} as const satisfies Record<string, ScaleArticle>;

/** Every 8th root has a thread of 2 replies: one answers the root, the other that reply. */
const threadEvery = 8;
const repliesPerThread = 2;
/** Every 3rd root has 1 to 997 likes, so that most liked first is not the order of time. */
const likedEvery = 3;
const minuteMs = 60_000;
/** Parallel BatchWriteItem streams: DynamoDB Local uses both cores of a small machine with a few. */
const writeStreams = 4;

/** The comments of `article`, oldest first: a root a minute, its replies in the seconds after it. */
export function buildScaleComments(article: ScaleArticle, endsAt: number): StoredComment[] {
  const { browser, os } = describeUserAgent(userAgent);
  const startsAt = endsAt - article.roots * minuteMs;
  const comments: StoredComment[] = [];
  const comment = (insertedAt: number, like: number, reply?: { pid: string; rid: string }) => {
    const index = comments.length + 1;
    const orig = commentText(index);
    const built: StoredComment = {
      id: ulid(insertedAt),
      url: article.path,
      ...reply,
      nick: `Reader ${index}`,
      mail: `reader${index}@example.com`,
      link: `https://reader${index}.example.com`,
      ua: userAgent,
      ipHash: hashIp('marginalia-bench-salt-0123456789', `198.51.100.${index % 250}`),
      browser,
      os,
      orig,
      html: renderMarkdown(orig, allMarkdownFeatures, undefined, prismHighlighter),
      status: 'approved',
      like,
      sticky: false,
      insertedAt,
    };
    comments.push(built);
    return built;
  };
  for (let position = 0; position < article.roots; position++) {
    const at = startsAt + position * minuteMs;
    const root = comment(at, position % likedEvery === 0 ? 1 + ((position * 7919) % 997) : 0);
    if (position % threadEvery !== 0) continue;
    let parent = root;
    for (let reply = 1; reply <= repliesPerThread; reply++) {
      parent = comment(at + reply * 1000, 0, { pid: parent.id, rid: root.id });
    }
  }
  const replies = comments.length - article.roots;
  if (comments.length !== article.comments || replies !== article.replies) {
    throw new Error(`scale seed: ${article.path} came out as ${article.roots} roots and ${replies} replies`);
  }
  return comments;
}

/** What seeding wrote, and how long it took. */
export interface ScaleSeeding {
  readonly comments: number;
  readonly seconds: number;
  /** Mean bytes of a comment item of the large article, as DynamoDB sizes it. */
  readonly commentItemBytes: number;
}

/** Writes both articles and their counters to `tableName` on DynamoDB Local at `endpoint`. */
export async function seedScale(endpoint: string, tableName: string): Promise<ScaleSeeding> {
  const startedAt = performance.now();
  const client = createDocumentClient({ endpoint });
  try {
    let written = 0;
    let commentItemBytes = 0;
    for (const article of Object.values(scaleArticles)) {
      const comments = buildScaleComments(article, Date.now());
      const items = comments.map((comment) =>
        toCommentItem(
          comment,
          contentHash({
            url: comment.url,
            mail: comment.mail,
            nick: comment.nick,
            link: comment.link,
            comment: comment.orig,
          }),
        ),
      );
      if (article === scaleArticles.large) {
        commentItemBytes = items.reduce((total, item) => total + plainItemBytes(item), 0) / items.length;
      }
      const streamSize = Math.ceil(items.length / writeStreams);
      await Promise.all(
        Array.from({ length: writeStreams }, (_, stream) =>
          putAll(client, tableName, items.slice(stream * streamSize, (stream + 1) * streamSize)),
        ),
      );
      const delta = comments.reduce(
        (sum, comment) => combine(sum, contribution(comment.status, comment.rid === undefined)),
        noDelta,
      );
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                // The article is new: its counters are put whole, zeros included (an ADD of 0 writes nothing).
                Item: {
                  ...keys.pageCounters(article.path),
                  entity: entities.pageCounters,
                  url: article.path,
                  ...delta.page,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            // The site counters are shared with the rest of the bench's data: added to, with the layout.
            ...counterUpdates(tableName, article.path, { ...noDelta, site: delta.site }),
          ],
        }),
      );
      written += comments.length;
    }
    return { comments: written, seconds: (performance.now() - startedAt) / 1000, commentItemBytes };
  } finally {
    client.destroy();
  }
}
