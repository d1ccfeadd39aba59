import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { entities, type Key } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What one voter's vote moves: the voter's mark and the counter it stands for. */
export interface VoteTarget {
  readonly tableName: string;
  /** The voter's mark: its existence is the vote. */
  readonly voteKey: Key;
  /** The item holding the counter. */
  readonly counterKey: Key;
  /** The counter attribute. */
  readonly counter: string;
  /** Attributes set when a vote creates the counter item; without them the item must exist already. */
  readonly createWith?: Record<string, string>;
}

/**
 * The two items of a once-per-voter vote, for one transaction. Casting (`up`) puts the voter's
 * mark, which must be new, and adds one; withdrawing deletes the mark, which must exist, and takes
 * one, never below zero. A failed condition cancels both, so a count moves once per voter.
 */
export function voteItems(target: VoteTarget, up: boolean): TransactItem[] {
  const { tableName, voteKey, counterKey, counter, createWith } = target;
  // Without createWith, never create a bare item (for example for a deleted comment).
  const mustExist = createWith ? [] : ['attribute_exists(pk)'];
  const sets = Object.keys(createWith ?? {});
  const setNames = Object.fromEntries(sets.map((name, i) => [`#set${i}`, name]));
  const setValues = Object.fromEntries(sets.map((name, i) => [`:set${i}`, createWith?.[name]]));
  const setClause = sets.length > 0 ? ` SET ${sets.map((_, i) => `#set${i} = :set${i}`).join(', ')}` : '';

  if (up) {
    return [
      {
        Put: {
          TableName: tableName,
          Item: { ...voteKey, entity: entities.vote },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: counterKey,
          UpdateExpression: `ADD #counter :one${setClause}`,
          ...(mustExist.length > 0 ? { ConditionExpression: mustExist.join(' AND ') } : {}),
          ExpressionAttributeNames: { '#counter': counter, ...setNames },
          ExpressionAttributeValues: { ':one': 1, ...setValues },
        },
      },
    ];
  }
  return [
    { Delete: { TableName: tableName, Key: voteKey, ConditionExpression: 'attribute_exists(pk)' } },
    {
      Update: {
        TableName: tableName,
        Key: counterKey,
        UpdateExpression: 'ADD #counter :minusOne',
        // The floor: a count never goes below zero.
        ConditionExpression: [...mustExist, '#counter > :zero'].join(' AND '),
        ExpressionAttributeNames: { '#counter': counter },
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      },
    },
  ];
}
