import { describe, expect, it } from 'vitest';
import { authorCountUpdates } from '../../../../../functions/shared/table/author-count-items.js';

const anonymous = (nick: string) => ({
  authorKey: 'mail:h1',
  display: { nick, link: 'https://a.example', avatar: `https://avatar.example/${nick}` },
});

describe('authorCountUpdates', () => {
  it("adds to an author's count and sets its wall place from the count before, with the display, in one update", () => {
    expect(authorCountUpdates('t', [{ tally: anonymous('Ann'), delta: 1 }])).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'AUTHOR#mail:h1', sk: 'COUNT' },
          UpdateExpression:
            'ADD #approved :delta SET #entity = :entity, #authorKey = :authorKey, #rootsPk = :wall, ' +
            '#likeSort = if_not_exists(#approved, :zero) + :delta, #nick = :nick, #link = :link, #avatar = :avatar',
          ExpressionAttributeNames: {
            '#approved': 'approved',
            '#entity': 'entity',
            '#authorKey': 'authorKey',
            '#rootsPk': 'rootsPk',
            '#likeSort': 'likeSort',
            '#nick': 'nick',
            '#link': 'link',
            '#avatar': 'avatar',
          },
          ExpressionAttributeValues: {
            ':delta': 1,
            ':zero': 0,
            ':entity': 'author-count',
            ':authorKey': 'mail:h1',
            ':wall': 'WALL',
            ':nick': 'Ann',
            ':link': 'https://a.example',
            ':avatar': 'https://avatar.example/Ann',
          },
        },
      },
    ]);
  });

  it("takes one away without touching the display, and keeps an account's counter without one", () => {
    const [loss] = authorCountUpdates('t', [{ tally: anonymous('Ann'), delta: -1 }]);
    expect(loss?.Update?.UpdateExpression).not.toContain('#nick');
    expect(loss?.Update?.ExpressionAttributeValues).toMatchObject({ ':delta': -1 });
    expect(loss?.Update?.ExpressionAttributeValues).not.toHaveProperty(':nick');

    const [account] = authorCountUpdates('t', [{ tally: { authorKey: 'user:01ACC' }, delta: 1 }]);
    expect(account?.Update?.Key).toEqual({ pk: 'AUTHOR#user:01ACC', sk: 'COUNT' });
    expect(account?.Update?.UpdateExpression).not.toContain('#nick');
  });

  it("sums one author's changes into one update (a transaction touches an item once) and drops a sum of zero", () => {
    const updates = authorCountUpdates('t', [
      { tally: anonymous('Ann'), delta: -1 },
      { tally: { authorKey: 'user:01B' }, delta: -1 },
      { tally: anonymous('Ann'), delta: -1 },
      { tally: { authorKey: 'user:01C' }, delta: 1 },
      { tally: { authorKey: 'user:01C' }, delta: -1 },
    ]);
    expect(
      updates.map((update) => [update.Update?.Key, update.Update?.ExpressionAttributeValues?.[':delta']]),
    ).toEqual([
      [{ pk: 'AUTHOR#mail:h1', sk: 'COUNT' }, -2],
      [{ pk: 'AUTHOR#user:01B', sk: 'COUNT' }, -1],
    ]);
  });

  it('shows the last gaining comment of an author', () => {
    const [update] = authorCountUpdates('t', [
      { tally: anonymous('First'), delta: 1 },
      { tally: anonymous('Last'), delta: 1 },
    ]);
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({ ':delta': 2, ':nick': 'Last' });
  });

  it('writes nothing for no change', () => {
    expect(authorCountUpdates('t', [])).toEqual([]);
  });
});
