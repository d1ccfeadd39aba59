import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CommentStatus, ListedComment } from '../domain/comment.js';
import { limits } from '../domain/limits.js';
import { batchGet, keyId } from './batch-get.js';
import { fromCommentItem, textAttributes, userIdAttribute } from './comment-item.js';
import { attributes, indexNames, type Key, statusPartition } from './keys.js';
import { projection } from './projection.js';
import { queryUpTo } from './query-up-to.js';
import { cardAttributes } from './table-definition.js';

/**
 * The card indexes (approved-by-time, held-by-time): each comment of a status as a card, newest first,
 * without its texts. A reader takes the cards it answers, then the texts of those whose weight (`textBytes`)
 * fits its budget of bytes, from the table: what is stored can make neither read expensive.
 */

/** A card as an index returns it: the comment's keys, its card attributes and what its texts weigh. */
export type Card = Record<string, unknown>;

/** DynamoDB counts a read in units of 4 KB per item, rounded up. */
const readUnitBytes = 4 * 1024;
/**
 * What an item commonly weighs besides its texts: keys and card. A longer card (limits.ts bounds each
 * field) costs at most a unit or two more per item read.
 */
const cardBytes = 1024;

/** The newest cards of `status` (all of them without `limit`), from its card index. */
export async function queryCards(
  client: DynamoDBDocumentClient,
  tableName: string,
  status: CommentStatus,
  limit?: number,
): Promise<Card[]> {
  const approved = status === 'approved';
  return queryUpTo(
    client,
    {
      TableName: tableName,
      IndexName: approved ? indexNames.recent : indexNames.held,
      KeyConditionExpression: '#partition = :status',
      ...projection([attributes.pk, attributes.sk, ...cardAttributes], {
        '#partition': approved ? attributes.approvedPk : attributes.heldPk,
      }),
      ExpressionAttributeValues: { ':status': statusPartition(status) },
      // ULID sort keys: descending is newest first, and Limit stops the read there. Cards are a few KB
      // at most, so a Query's 1 MB holds hundreds: a list of 50 is one request.
      ScanIndexForward: false,
    },
    limit,
  );
}

/** What reading the item of `card` costs, in bytes as DynamoDB counts them; unknown weighs too much to read. */
function readWeight(card: Card): number {
  const textBytes = Number(card[attributes.textBytes]);
  if (!Number.isFinite(textBytes) || textBytes < 0) return Number.POSITIVE_INFINITY;
  return Math.ceil((textBytes + cardBytes) / readUnitBytes) * readUnitBytes;
}

/**
 * The comments of `cards`, in their order, each with its texts while `budgetBytes` of stored items allows
 * (a comment too heavy for what is left is passed over, and a lighter one after it may still fit), the
 * rest marked `textLeftOut`. The texts come from one BatchGetItem (per 100) of the comments chosen, their
 * texts alone with the author's account id (and `alsoRead`), attributes the cards lack, read with them at no
 * extra cost; one deleted since its card was read is left out. A comment passed over keeps no account id: it
 * shows the author as stored (the name they posted under).
 */
export async function withTexts(
  client: DynamoDBDocumentClient,
  tableName: string,
  cards: readonly Card[],
  budgetBytes: number = limits.textReadBytes,
  alsoRead: readonly string[] = [],
): Promise<ListedComment[]> {
  let left = budgetBytes;
  const chosen = cards.map((card) => {
    const weight = readWeight(card);
    if (weight > left) return false;
    left -= weight;
    return true;
  });
  const keyOf = (card: Card): Key => ({ pk: String(card[attributes.pk]), sk: String(card[attributes.sk]) });
  const wanted = cards.filter((_, index) => chosen[index]).map(keyOf);
  const texts =
    wanted.length > 0
      ? await batchGet(client, tableName, wanted, [...textAttributes, userIdAttribute, ...alsoRead])
      : new Map();
  return cards.flatMap((card, index) => {
    if (!chosen[index]) return [{ ...fromCommentItem(card), textLeftOut: true as const }];
    const item = texts.get(keyId(keyOf(card)));
    return item ? [fromCommentItem({ ...card, ...item })] : [];
  });
}
