import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import type { StoredComment } from '../../../../../functions/shared/domain/comment.js';
import { toCommentItem } from '../../../../../functions/shared/table/comment-item.js';
import { submitItems } from '../../../../../functions/shared/table/submit-items.js';

const now = 1_800_000_000_000;
const comment = (extra: Partial<StoredComment> = {}): StoredComment => ({
  id: '01NEW',
  url: '/p',
  nick: 'n',
  mail: 'n@example.com',
  link: '',
  ua: 'ua',
  ipHash: 'ip',
  browser: '',
  os: '',
  orig: 'hi',
  html: '<p>hi</p>',
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: now,
  ...extra,
});

/** The comment itself, never overwriting an item. */
const commentPut = (stored: StoredComment) => ({
  Put: { TableName: 't', Item: toCommentItem(stored, 'h'), ConditionExpression: 'attribute_not_exists(pk)' },
});
/** The duplicate-content mark of the comment's url and content hash `h`. */
const duplicatePut = {
  Put: {
    TableName: 't',
    Item: { pk: 'URL#/p', sk: 'DUP#h', entity: 'duplicate', of: '01NEW' },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
};
const pageUpdate = (counts: Record<string, number>) => ({
  Update: expect.objectContaining({
    Key: { pk: 'URL#/p', sk: 'PAGE' },
    ExpressionAttributeValues: expect.objectContaining(
      Object.fromEntries(Object.values(counts).map((value, i) => [`:c${i}`, value])),
    ),
  }),
});
const siteUpdate = { Update: expect.objectContaining({ Key: { pk: 'SITE', sk: 'SITE' } }) };

/** An outbox event id: a ULID of the submission's millisecond. */
const eventId = ulid(now);
const outboxPutOf = (stored: StoredComment) => ({
  Put: {
    TableName: 't',
    Item: expect.objectContaining({
      pk: `OUTBOX#${new Date(now).toISOString().slice(0, 10)}`,
      sk: `E#${eventId}`,
      entity: 'outbox',
      cause: 'comment.submitted',
      state: 'pending',
      subject: expect.objectContaining({ id: stored.id, status: stored.status }),
    }),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

describe('submitItems', () => {
  it('stores a root with its duplicate mark, the rate mark of its IP and its counters, naming each refusal', () => {
    const root = comment();

    const { items, refusalAt } = submitItems(
      't',
      root,
      {
        contentHash: 'h',
        rateLimit: { ipHash: 'ip', windowMs: 60_000 },
      },
      eventId,
    );

    expect(items).toEqual([
      commentPut(root),
      duplicatePut,
      {
        Put: {
          TableName: 't',
          Item: { pk: 'IP#ip', sk: 'RATE', entity: 'rate', lastPostAt: now, expiresAt: now / 1000 + 60 },
          ConditionExpression: 'attribute_not_exists(pk) OR lastPostAt <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': now - 60_000 },
        },
      },
      pageUpdate({ comments: 1, roots: 1 }),
      siteUpdate,
      outboxPutOf(root),
    ]);
    expect(refusalAt).toEqual(['id_taken', 'duplicate', 'rate_limited', undefined, undefined, 'id_taken']);
  });

  it("stores a signed-in account's comment with its account id, as a string beside the comment's fields", () => {
    const { items } = submitItems('t', comment({ userId: '01ACCOUNT' }), { contentHash: 'h' }, eventId);

    expect(items[0]?.Put?.Item).toMatchObject({ commentId: '01NEW', userId: '01ACCOUNT', nick: 'n' });
    expect(submitItems('t', comment(), { contentHash: 'h' }, eventId).items[0]?.Put?.Item).not.toHaveProperty(
      'userId',
    );
  });

  it("keeps an approved comment's time as the article's first-comment time unless it has one", () => {
    const { items } = submitItems('t', comment({ status: 'approved' }), { contentHash: 'h' }, eventId);
    const page = items.find((item) => item.Update?.Key?.sk === 'PAGE')?.Update;

    expect(page?.UpdateExpression).toMatch(/ SET #s0 = :s0, #s1 = :s1, #f0 = if_not_exists\(#f0, :f0\)$/);
    expect(page?.ExpressionAttributeNames).toMatchObject({ '#f0': 'firstCommentAt' });
    expect(page?.ExpressionAttributeValues).toMatchObject({ ':f0': now });
    expect(items.find((item) => item.Update?.Key?.sk === 'SITE')?.Update?.UpdateExpression).not.toContain(
      'if_not_exists',
    );
  });

  it('gives no first-comment time for a held comment: anyone may post one on an article not out yet', () => {
    for (const status of ['waiting', 'spam'] as const) {
      const { items } = submitItems('t', comment({ status }), { contentHash: 'h' }, eventId);
      const page = items.find((item) => item.Update?.Key?.sk === 'PAGE')?.Update;

      expect(page?.UpdateExpression).toBe('ADD #c0 :c0, #c1 :c1 SET #s0 = :s0, #s1 = :s1');
      expect(Object.values(page?.ExpressionAttributeNames ?? {})).not.toContain('firstCommentAt');
    }
  });

  it('rounds the rate mark expiry up to the next second', () => {
    const { items } = submitItems(
      't',
      comment({ insertedAt: now + 1 }),
      {
        contentHash: 'h',
        rateLimit: { ipHash: 'ip', windowMs: 60_000 },
      },
      eventId,
    );

    expect(items[2]?.Put?.Item?.expiresAt).toBe(now / 1000 + 61);
  });

  it('checks that the thread root of a visitor reply exists, is a root, and is approved', () => {
    const reply = comment({ rid: '01ROOT', pid: '01ROOT', status: 'waiting' });

    const { items, refusalAt } = submitItems('t', reply, { contentHash: 'h', visibleParents: true }, eventId);

    expect(items).toEqual([
      commentPut(reply),
      duplicatePut,
      {
        ConditionCheck: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01ROOT' },
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rid) AND #status = :approved',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':approved': 'approved' },
        },
      },
      // A held reply: the page's held count and the site's waiting queue, no visible count.
      pageUpdate({ held: 1 }),
      siteUpdate,
      // Waiting: the owner is told it waits.
      outboxPutOf(reply),
    ]);
    expect(refusalAt).toEqual(['id_taken', 'duplicate', 'parent_missing', undefined, undefined, 'id_taken']);
  });

  it('checks the parent of a nested reply where its status keeps it, and an administrator needs no approved root', () => {
    const nested = comment({ rid: '01ROOT', pid: '01MID' });

    const underHeld = submitItems('t', nested, { contentHash: 'h', parentStatus: 'spam' }, eventId);
    const underVisible = submitItems('t', nested, { contentHash: 'h' }, eventId);

    expect(underHeld.items.slice(2, 4)).toEqual([
      {
        ConditionCheck: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01ROOT' },
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(rid)',
        },
      },
      {
        ConditionCheck: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'H#01ROOT#01MID' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
    expect(underHeld.refusalAt).toEqual([
      'id_taken',
      'duplicate',
      'parent_missing',
      'parent_missing',
      undefined,
      undefined,
      'id_taken',
    ]);
    expect(underVisible.items[3]?.ConditionCheck?.Key).toEqual({ pk: 'URL#/p', sk: 'C#01ROOT#01MID' });
    // Approved and a reply: one more visible comment on the page, no new root.
    expect(underVisible.items[4]).toEqual(pageUpdate({ comments: 1 }));
    expect(underVisible.items).toHaveLength(7);
  });

  it('checks only the thread root of a reply that names no parent of its own', () => {
    const { items, refusalAt } = submitItems('t', comment({ rid: '01ROOT' }), { contentHash: 'h' }, eventId);

    expect(items.map((item) => Object.keys(item)[0])).toEqual([
      'Put',
      'Put',
      'ConditionCheck',
      'Update',
      'Update',
      'Put',
    ]);
    expect(refusalAt).toEqual(['id_taken', 'duplicate', 'parent_missing', undefined, undefined, 'id_taken']);
  });

  it("marks a reply stored approved as told to its parent's author (its event tells them), and no other comment", () => {
    const stored = (extra: Partial<StoredComment>) =>
      submitItems('t', comment(extra), { contentHash: 'h' }, eventId).items[0]?.Put?.Item;

    expect(stored({ rid: '01ROOT', pid: '01ROOT' })).toEqual({
      ...toCommentItem(comment({ rid: '01ROOT', pid: '01ROOT' }), 'h'),
      replyNotified: true,
    });
    // A held reply is told when approved; a root answers nobody.
    for (const extra of [
      { rid: '01ROOT', pid: '01ROOT', status: 'waiting' as const },
      { rid: '01ROOT', pid: '01ROOT', status: 'spam' as const },
      {},
    ]) {
      expect(stored(extra)).not.toHaveProperty('replyNotified');
    }
  });

  it('writes no outbox event for spam: it notifies nobody, ever', () => {
    const { items } = submitItems('t', comment({ status: 'spam' }), { contentHash: 'h' }, eventId);

    expect(items.filter((item) => item.Put?.Item?.entity === 'outbox')).toEqual([]);
  });
});

describe('submitItems and the level counters', () => {
  const author = { authorKey: 'mail:h1', display: { nick: 'n', link: '', avatar: 'https://a.example/x' } };
  const authorUpdates = (items: ReturnType<typeof submitItems>['items']) =>
    items.filter((item) => item.Update?.Key?.pk === 'AUTHOR#mail:h1');

  it("adds an approved comment to its author's count in the insert's transaction", () => {
    const { items, refusalAt } = submitItems('t', comment(), { contentHash: 'h', author }, eventId);
    const updates = authorUpdates(items);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.Update).toMatchObject({
      Key: { pk: 'AUTHOR#mail:h1', sk: 'COUNT' },
      ExpressionAttributeValues: { ':delta': 1, ':wall': 'WALL', ':nick': 'n' },
    });
    // A refusal of the counter's update would be a bug: it names no reason.
    expect(refusalAt[items.indexOf(updates[0] as (typeof items)[number])]).toBeUndefined();
  });

  it('counts a held comment for nobody, and a comment without an author for nobody', () => {
    for (const status of ['waiting', 'spam'] as const) {
      expect(
        authorUpdates(submitItems('t', comment({ status }), { contentHash: 'h', author }, eventId).items),
      ).toEqual([]);
    }
    const { items } = submitItems('t', comment(), { contentHash: 'h' }, eventId);
    expect(items.some((item) => String(item.Update?.Key?.pk).startsWith('AUTHOR#'))).toBe(false);
  });
});

describe("submitItems and an author's feed", () => {
  it("files an account's comment, whatever its status, in its feed in the insert's transaction", () => {
    for (const status of ['approved', 'waiting'] as const) {
      const { items, refusalAt } = submitItems(
        't',
        comment({ status, userId: '01ACC', rid: '01ROOT', pid: '01ROOT' }),
        { contentHash: 'h', author: { authorKey: 'user:01ACC' } },
        eventId,
      );
      const entry = items.findIndex((item) => item.Put?.Item?.entity === 'author-feed');
      expect(items[entry]).toEqual({
        Put: {
          TableName: 't',
          Item: {
            pk: 'AUTHOR#user:01ACC',
            sk: 'FEED#01NEW',
            entity: 'author-feed',
            of: '01NEW',
            url: '/p',
            rid: '01ROOT',
          },
        },
      });
      expect(refusalAt[entry]).toBeUndefined();
    }
  });

  it("files an anonymous comment, whatever its status, under its address's author key", () => {
    for (const status of ['approved', 'spam'] as const) {
      const { items } = submitItems(
        't',
        comment({ status }),
        { contentHash: 'h', author: { authorKey: 'mail:HASH' } },
        eventId,
      );
      const entry = items.find((item) => item.Put?.Item?.entity === 'author-feed');
      expect(entry?.Put?.Item).toMatchObject({
        pk: 'AUTHOR#mail:HASH',
        sk: 'FEED#01NEW',
        of: '01NEW',
        url: '/p',
      });
    }
  });

  it("files an account's comment under its address's key too, for whoever proves that address", () => {
    const { items } = submitItems(
      't',
      comment({ userId: '01ACC' }),
      { contentHash: 'h', author: { authorKey: 'user:01ACC', addressKey: 'mail:HASH' } },
      eventId,
    );
    const entries = items.filter((item) => item.Put?.Item?.entity === 'author-feed');
    expect(entries.map((entry) => entry.Put?.Item?.pk)).toEqual(['AUTHOR#user:01ACC', 'AUTHOR#mail:HASH']);
    expect(entries.every((entry) => entry.Put?.Item?.sk === 'FEED#01NEW')).toBe(true);
  });

  it("files an account's comment in its feed even when the caller gives no tally", () => {
    const { items } = submitItems('t', comment({ userId: '01ACC' }), { contentHash: 'h' }, eventId);
    const entry = items.find((item) => item.Put?.Item?.entity === 'author-feed');
    expect(entry?.Put?.Item).toMatchObject({ pk: 'AUTHOR#user:01ACC', sk: 'FEED#01NEW' });
  });

  it('files a comment with no author (no account, no address) nowhere', () => {
    const { items } = submitItems('t', comment(), { contentHash: 'h' }, eventId);
    expect(items.some((item) => item.Put?.Item?.entity === 'author-feed')).toBe(false);
    // An empty account id (an anonymised comment's) names no account either.
    const anonymous = submitItems('t', comment({ userId: '' }), { contentHash: 'h' }, eventId);
    expect(anonymous.items.some((item) => item.Put?.Item?.entity === 'author-feed')).toBe(false);
  });
});
