import { describe, expect, it } from 'vitest';
import type { ModeratedComment } from '../../../../../functions/shared/table/moderation-items.js';
import { placeholderItems } from '../../../../../functions/shared/table/own-comment-items.js';

const comment = (extra: Partial<ModeratedComment> = {}): ModeratedComment => ({
  id: '01B',
  url: '/p',
  pid: '01A',
  rid: '01A',
  nick: 'Gina',
  mail: 'gina@mail.example',
  link: 'https://gina.example',
  browser: 'Firefox',
  os: 'Linux',
  orig: 'mine',
  html: '<p>mine</p>',
  status: 'approved',
  like: 2,
  sticky: false,
  insertedAt: 1,
  userId: 'acct-1',
  contentHash: 'h',
  ...extra,
});

describe('placeholderItems', () => {
  it("replaces the text and the author's traces in place, on the comment as read and still theirs, and drops its duplicate mark", () => {
    const items = placeholderItems('t', comment(), 'acct-1', 1234);

    expect(items).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
          UpdateExpression:
            'SET #a0 = :a0, #a1 = :a1, #a2 = :a2, #a3 = :a3, #a4 = :a4, #a5 = :a5, #a6 = :a6, #a7 = :a7, #a8 = :a8, #a9 = :a9 REMOVE #r0, #r1, #r2',
          ConditionExpression: 'attribute_exists(pk) AND #status = :read AND #owner = :owner',
          ExpressionAttributeNames: {
            '#a0': 'orig',
            '#a1': 'html',
            '#a2': 'nick',
            '#a3': 'mail',
            '#a4': 'link',
            '#a5': 'browser',
            '#a6': 'os',
            '#a7': 'ua',
            '#a8': 'textBytes',
            '#a9': 'deletedAt',
            '#r0': 'userId',
            '#r1': 'ipHash',
            '#r2': 'contentHash',
            '#status': 'status',
            '#owner': 'userId',
          },
          ExpressionAttributeValues: {
            ':a0': '[deleted]',
            ':a1': '<p>[deleted]</p>',
            ':a2': '',
            ':a3': '',
            ':a4': '',
            ':a5': '',
            ':a6': '',
            ':a7': '',
            ':a8': 25,
            ':a9': 1234,
            ':read': 'approved',
            ':owner': 'acct-1',
          },
        },
      },
      { Delete: { TableName: 't', Key: { pk: 'URL#/p', sk: 'DUP#h' } } },
    ]);
  });

  it('deletes the feed entries of the comment under every key it is filed under (its account and its address)', () => {
    const items = placeholderItems('t', comment(), 'acct-1', 1, ['user:acct-1', 'mail:h1']);

    expect(items.slice(-2)).toEqual([
      { Delete: { TableName: 't', Key: { pk: 'AUTHOR#user:acct-1', sk: 'FEED#01B' } } },
      { Delete: { TableName: 't', Key: { pk: 'AUTHOR#mail:h1', sk: 'FEED#01B' } } },
    ]);
  });

  it('finds a held comment at its held key, conditioned on its status, with no mark to drop when it has none', () => {
    const items = placeholderItems('t', comment({ status: 'waiting', contentHash: undefined }), 'acct-1', 1);

    expect(items).toHaveLength(1);
    expect(items[0]?.Update?.Key).toEqual({ pk: 'URL#/p', sk: 'H#01A#01B' });
    expect(items[0]?.Update?.ExpressionAttributeValues?.[':read']).toBe('waiting');
  });
});
