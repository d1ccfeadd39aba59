import { describe, expect, it } from 'vitest';
import { keys } from '../../../../../functions/shared/table/keys.js';
import { type VoteTarget, voteItems } from '../../../../../functions/shared/table/vote-items.js';

/** A like on a comment: the comment must exist, a vote never creates it. */
const like: VoteTarget = {
  tableName: 't',
  voteKey: keys.likeVote('01A', 'voter'),
  counterKey: keys.root('/p', '01A'),
  counter: 'like',
};

/** A reaction on a page: the first vote creates the page counters, with what marks them as such. */
const reaction: VoteTarget = {
  tableName: 't',
  voteKey: keys.reactionVote('/p', 'reaction0', 'voter'),
  counterKey: keys.pageCounters('/p'),
  counter: 'reaction0',
  createWith: { entity: 'page', url: '/p' },
};

describe('voteItems', () => {
  it('casts a vote on an item that must exist: a new voter mark, and one more on the counter', () => {
    expect(voteItems(like, true)).toStrictEqual([
      {
        Put: {
          TableName: 't',
          Item: { pk: 'C#01A', sk: 'VOTE#like#voter', entity: 'vote' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          UpdateExpression: 'ADD #counter :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#counter': 'like' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
  });

  it('casts a vote that may create the counter item, setting its attributes and with no existence condition', () => {
    expect(voteItems(reaction, true)).toStrictEqual([
      {
        Put: {
          TableName: 't',
          Item: { pk: 'URL#/p', sk: 'VOTE#reaction0#voter', entity: 'vote' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          UpdateExpression: 'ADD #counter :one SET #set0 = :set0, #set1 = :set1',
          ExpressionAttributeNames: { '#counter': 'reaction0', '#set0': 'entity', '#set1': 'url' },
          ExpressionAttributeValues: { ':one': 1, ':set0': 'page', ':set1': '/p' },
        },
      },
    ]);
  });

  it('withdraws a vote from an item that must exist: deletes the voter mark, and takes one off, never below zero', () => {
    expect(voteItems(like, false)).toStrictEqual([
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'C#01A', sk: 'VOTE#like#voter' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          UpdateExpression: 'ADD #counter :minusOne',
          ConditionExpression: 'attribute_exists(pk) AND #counter > :zero',
          ExpressionAttributeNames: { '#counter': 'like' },
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      },
    ]);
  });

  it('withdraws a vote on a counter it may create with the floor alone, and sets nothing', () => {
    expect(voteItems(reaction, false)).toStrictEqual([
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'VOTE#reaction0#voter' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          UpdateExpression: 'ADD #counter :minusOne',
          ConditionExpression: '#counter > :zero',
          ExpressionAttributeNames: { '#counter': 'reaction0' },
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      },
    ]);
  });
});
