import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  type ModeratedComment,
  moderationItems,
  movesKey,
  removalItems,
} from '../../../../../functions/shared/table/moderation-items.js';

const comment = (extra: Partial<ModeratedComment> = {}): ModeratedComment => ({
  id: '01A',
  url: '/p',
  nick: 'n',
  mail: 'n@example.com',
  link: '',
  browser: '',
  os: '',
  orig: 'old',
  html: '<p>old</p>',
  status: 'waiting',
  like: 2,
  sticky: false,
  insertedAt: 1,
  ...extra,
});
const reply = (extra: Partial<ModeratedComment> = {}) =>
  comment({ id: '01B', pid: '01A', rid: '01A', ...extra });

/** The site counters' update as every status change sends it, guarded by the layout. */
const siteUpdate = (counts: Record<string, number>) => ({
  Update: {
    TableName: 't',
    Key: { pk: 'SITE', sk: 'SITE' },
    UpdateExpression: `ADD ${Object.keys(counts)
      .map((_, i) => `#c${i} :c${i}`)
      .join(', ')} SET #s0 = :s0, #s1 = :s1`,
    ExpressionAttributeNames: {
      ...Object.fromEntries(Object.keys(counts).map((name, i) => [`#c${i}`, name])),
      '#s0': 'entity',
      '#s1': 'layout',
      '#layoutPk': 'pk',
      '#layout': 'layout',
    },
    ExpressionAttributeValues: {
      ...Object.fromEntries(Object.values(counts).map((value, i) => [`:c${i}`, value])),
      ':s0': 'site',
      ':s1': 3,
      ':layout': 3,
    },
    ConditionExpression: 'attribute_not_exists(#layoutPk) OR #layout = :layout',
  },
});

describe('moderationItems', () => {
  const approval = { eventId: ulid(1_800_000_000_000), at: 1_800_000_000_000 };
  const outboxEvents = (items: ReturnType<typeof moderationItems>) =>
    items.flatMap((item) => (item.Put?.Item?.entity === 'outbox' ? [item.Put] : []));

  it('writes the approval of a held reply with its outbox event, in the same transaction', () => {
    const stored = { pk: 'URL#/p', sk: 'H#01A#01B', like: 0, sticky: false, orig: 'old' };
    const items = moderationItems('t', reply(), { status: 'approved' }, stored, approval);
    const events = outboxEvents(items);

    // The moved reply is marked told, on the condition that no other approval told its parent's author meanwhile.
    expect(items[1]?.Put?.Item).toMatchObject({ sk: 'C#01A#01B', status: 'approved', replyNotified: true });
    expect(items[0]?.Delete).toMatchObject({
      ConditionExpression:
        '#status = :previous AND #like = :readlike AND #sticky = :readsticky AND #orig = :readorig' +
        ' AND attribute_not_exists(#replyNotified)',
      ExpressionAttributeNames: expect.objectContaining({ '#replyNotified': 'replyNotified' }),
    });

    expect(events).toEqual([
      {
        TableName: 't',
        Item: expect.objectContaining({
          sk: `E#${approval.eventId}`,
          cause: 'comment.approved',
          state: 'pending',
          subject: { url: '/p', id: '01B', rid: '01A', pid: '01A', status: 'approved', byAdmin: false },
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    ]);
  });

  it('tells nobody again of a reply whose parent was told: approved again after it went back to waiting', () => {
    const stored = {
      pk: 'URL#/p',
      sk: 'H#01A#01B',
      like: 0,
      sticky: false,
      orig: 'old',
      replyNotified: true,
    };

    const items = moderationItems(
      't',
      reply({ replyNotified: true }),
      { status: 'approved' },
      stored,
      approval,
    );

    expect(outboxEvents(items)).toEqual([]);
    expect(items[0]?.Delete?.ConditionExpression).not.toContain('replyNotified');
    expect(items[1]?.Put?.Item).toMatchObject({ sk: 'C#01A#01B', status: 'approved', replyNotified: true });
  });

  it('keeps the mark of a told reply when it moves back to held', () => {
    const stored = { pk: 'URL#/p', sk: 'C#01A#01B', like: 0, orig: 'old', replyNotified: true };

    const items = moderationItems(
      't',
      reply({ status: 'approved', replyNotified: true }),
      { status: 'waiting' },
      stored,
      approval,
    );

    expect(items[1]?.Put?.Item).toMatchObject({ sk: 'H#01A#01B', status: 'waiting', replyNotified: true });
  });

  it('writes no outbox event for the approval of a root: the rules tell nobody of it', () => {
    const items = moderationItems('t', comment(), { status: 'approved' }, undefined, approval);

    expect(items.length).toBeGreaterThan(0);
    expect(outboxEvents(items)).toEqual([]);
  });

  it('writes no outbox event for anything but an approval: spam, waiting, an edit, a pin', () => {
    for (const change of [
      { status: 'spam' as const },
      { text: { orig: 'n', html: '<p>n</p>' } },
      { sticky: true },
    ]) {
      expect(outboxEvents(moderationItems('t', comment(), change, undefined, approval))).toEqual([]);
    }
    const approved = comment({ status: 'approved' });
    expect(outboxEvents(moderationItems('t', approved, { status: 'waiting' }, undefined, approval))).toEqual(
      [],
    );
    // Nor for a held reply: spam, an edit, or an approved reply held again.
    const held = reply();
    const stored = { pk: 'URL#/p', sk: 'H#01A#01B', like: 0, sticky: false, orig: 'old' };
    expect(outboxEvents(moderationItems('t', held, { status: 'spam' }, stored, approval))).toEqual([]);
    expect(
      outboxEvents(moderationItems('t', held, { text: { orig: 'n', html: '<p>n</p>' } }, stored, approval)),
    ).toEqual([]);
    const shown = reply({ status: 'approved' });
    const visible = { ...stored, sk: 'C#01A#01B' };
    expect(outboxEvents(moderationItems('t', shown, { status: 'waiting' }, visible, approval))).toEqual([]);
    // Approving what is already approved changes nothing, and tells nobody again.
    expect(outboxEvents(moderationItems('t', approved, { status: 'approved' }, undefined, approval))).toEqual(
      [],
    );
  });

  it("trusts the address of an approved comment, root or reply, in the approval's transaction", () => {
    const trusted = { ...approval, addressHash: 'H'.repeat(43) };
    const trustMarks = (items: ReturnType<typeof moderationItems>) =>
      items.flatMap((item) => (item.Put?.Item?.entity === 'trust' ? [item.Put] : []));
    const stored = { pk: 'URL#/p', sk: 'H#01A#01B', like: 0, sticky: false, orig: 'old' };
    const mark = {
      TableName: 't',
      Item: { pk: `TRUST#${'H'.repeat(43)}`, sk: 'TRUST', entity: 'trust', at: approval.at },
    };

    expect(trustMarks(moderationItems('t', comment(), { status: 'approved' }, undefined, trusted))).toEqual([
      mark,
    ]);
    expect(
      trustMarks(moderationItems('t', reply({ status: 'spam' }), { status: 'approved' }, stored, trusted)),
    ).toEqual([mark]);
  });

  it("withdraws the address's trust when a comment of it is marked spam, and leaves it when one is held", () => {
    const trusted = { ...approval, addressHash: 'H'.repeat(43) };
    const trustItems = (items: ReturnType<typeof moderationItems>) =>
      items.filter(
        (item) => item.Delete?.Key?.pk?.startsWith('TRUST#') || item.Put?.Item?.entity === 'trust',
      );
    const approved = comment({ status: 'approved' });

    expect(trustItems(moderationItems('t', approved, { status: 'spam' }, undefined, trusted))).toEqual([
      { Delete: { TableName: 't', Key: { pk: `TRUST#${'H'.repeat(43)}`, sk: 'TRUST' } } },
    ]);
    expect(trustItems(moderationItems('t', comment(), { status: 'spam' }, undefined, trusted))).toHaveLength(
      1,
    );
    expect(trustItems(moderationItems('t', approved, { status: 'waiting' }, undefined, trusted))).toEqual([]);
    // Held, the address adds nothing at all to the transaction: the same items as without one.
    expect(moderationItems('t', approved, { status: 'waiting' }, undefined, trusted)).toEqual(
      moderationItems('t', approved, { status: 'waiting' }, undefined, approval),
    );
    expect(trustItems(moderationItems('t', approved, { status: 'spam' }, undefined, approval))).toEqual([]);
  });

  it('writes no trust mark without an address hash, nor for anything but an approval', () => {
    const trusted = { ...approval, addressHash: 'H'.repeat(43) };
    const trustMarks = (items: ReturnType<typeof moderationItems>) =>
      items.filter((item) => item.Put?.Item?.entity === 'trust');

    expect(trustMarks(moderationItems('t', comment(), { status: 'approved' }, undefined, approval))).toEqual(
      [],
    );
    expect(trustMarks(moderationItems('t', comment(), { status: 'spam' }, undefined, trusted))).toEqual([]);
    expect(trustMarks(moderationItems('t', comment(), { sticky: true }, undefined, trusted))).toEqual([]);
    const approved = comment({ status: 'approved' });
    expect(
      trustMarks(moderationItems('t', approved, { status: 'approved', sticky: true }, undefined, trusted)),
    ).toEqual([]);
  });

  it('edits, pins and approves a waiting root in one update, with both counters, in one transaction', () => {
    const items = moderationItems('t', comment(), {
      text: { orig: 'new', html: '<p>new</p>' },
      sticky: true,
      status: 'approved',
    });

    expect(items).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          // Into approved-by-time, out of held-by-time (and layout 2's recent index), its new text weighed.
          UpdateExpression:
            'SET #a0 = :a0, #a1 = :a1, #a2 = :a2, #a3 = :a3, #a4 = :a4, #a5 = :a5, #a6 = :a6, #a7 = :a7' +
            ' REMOVE #r0, #r1, #r2, #r3',
          ConditionExpression:
            'attribute_exists(pk) AND #status = :read AND (attribute_not_exists(#sticky) OR #sticky = :readsticky)' +
            ' AND #orig = :readorig',
          ExpressionAttributeNames: {
            '#a0': 'status',
            '#a1': 'orig',
            '#a2': 'html',
            '#a3': 'textBytes',
            '#a4': 'sticky',
            '#a5': 'approvedPk',
            '#a6': 'approvedSk',
            '#a7': 'rootsPk',
            '#r0': 'heldPk',
            '#r1': 'heldSk',
            '#r2': 'recentPk',
            '#r3': 'recentSk',
            '#status': 'status',
            '#sticky': 'sticky',
            '#orig': 'orig',
          },
          ExpressionAttributeValues: {
            ':a0': 'approved',
            ':a1': 'new',
            ':a2': '<p>new</p>',
            ':a3': 13,
            ':a4': true,
            ':a5': 'STATUS#approved',
            ':a6': '01A',
            ':a7': 'R#approved#pinned#/p',
            ':read': 'waiting',
            ':readsticky': false,
            ':readorig': 'old',
          },
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          // The approved comment's own time dates the article, unless an approved one did first.
          UpdateExpression:
            'ADD #c0 :c0, #c1 :c1, #c2 :c2, #c3 :c3 SET #s0 = :s0, #s1 = :s1, #f0 = if_not_exists(#f0, :f0)',
          ExpressionAttributeNames: {
            '#c0': 'comments',
            '#c1': 'roots',
            '#c2': 'held',
            '#c3': 'heldRoots',
            '#s0': 'entity',
            '#s1': 'url',
            '#f0': 'firstCommentAt',
          },
          ExpressionAttributeValues: {
            ':c0': 1,
            ':c1': 1,
            ':c2': -1,
            ':c3': -1,
            ':s0': 'page',
            ':s1': '/p',
            ':f0': 1,
          },
        },
      },
      siteUpdate({ comments: 1, waiting: -1 }),
    ]);
  });

  it("dates the article from an approved reply's own time, and no other status change dates it", () => {
    const stored = { pk: 'URL#/p', sk: 'H#01A#01B', like: 0, sticky: false, orig: 'old' };
    const page = (items: ReturnType<typeof moderationItems>) =>
      items.find((item) => item.Update?.Key?.sk === 'PAGE')?.Update;
    const approved = page(
      moderationItems('t', reply({ insertedAt: 42 }), { status: 'approved' }, stored, approval),
    );

    expect(approved?.UpdateExpression).toMatch(/ SET #s0 = :s0, #s1 = :s1, #f0 = if_not_exists\(#f0, :f0\)$/);
    expect(approved?.ExpressionAttributeNames).toMatchObject({ '#f0': 'firstCommentAt' });
    expect(approved?.ExpressionAttributeValues).toMatchObject({ ':f0': 42 });
    for (const [from, to] of [
      ['approved', 'waiting'],
      ['approved', 'spam'],
    ] as const) {
      const update = page(moderationItems('t', comment({ status: from }), { status: to }));
      expect(update?.UpdateExpression).toBeDefined();
      expect(update?.UpdateExpression).not.toContain('if_not_exists');
      expect(Object.values(update?.ExpressionAttributeNames ?? {})).not.toContain('firstCommentAt');
    }
  });

  it('moves an edited reply from visible to held: Delete as read, Put with the change, then the counters', () => {
    const stored = {
      pk: 'URL#/p',
      sk: 'C#01A#01B',
      status: 'approved',
      like: 3,
      orig: 'old',
      rid: '01A',
      approvedPk: 'STATUS#approved',
      approvedSk: '01B',
    };

    const items = moderationItems(
      't',
      reply({ status: 'approved', like: 3 }),
      { text: { orig: 'new', html: '<p>new</p>' }, status: 'spam' },
      stored,
    );

    expect(items).toEqual([
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
          // Moved as read: its like count, pin (none here) and text too.
          ConditionExpression:
            '#status = :previous AND #like = :readlike AND attribute_not_exists(#sticky) AND #orig = :readorig',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#like': 'like',
            '#sticky': 'sticky',
            '#orig': 'orig',
          },
          ExpressionAttributeValues: { ':previous': 'approved', ':readlike': 3, ':readorig': 'old' },
        },
      },
      {
        Put: {
          TableName: 't',
          Item: {
            pk: 'URL#/p',
            sk: 'H#01A#01B',
            status: 'spam',
            like: 3,
            orig: 'new',
            html: '<p>new</p>',
            textBytes: 13,
            rid: '01A',
            // Out of approved-by-time, into held-by-time.
            heldPk: 'STATUS#spam',
            heldSk: '01B',
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1 SET #s0 = :s0, #s1 = :s1',
          ExpressionAttributeNames: { '#c0': 'comments', '#c1': 'held', '#s0': 'entity', '#s1': 'url' },
          ExpressionAttributeValues: { ':c0': -1, ':c1': 1, ':s0': 'page', ':s1': '/p' },
        },
      },
      siteUpdate({ comments: -1, spam: 1 }),
    ]);
  });

  it("moves an author's edited reply on the text the author read and while it is theirs, whatever was read again", () => {
    // Read again before the move, the item already holds another text (a placeholder made meanwhile).
    const stored = {
      pk: 'URL#/p',
      sk: 'C#01A#01B',
      status: 'approved',
      like: 0,
      orig: '[deleted]',
      rid: '01A',
    };

    const [move] = moderationItems(
      't',
      reply({ status: 'approved', orig: 'mine' }),
      { text: { orig: 'new', html: '<p>new</p>' }, status: 'waiting', ownerId: 'acct-1' },
      stored,
    );

    expect(move).toEqual({
      Delete: {
        TableName: 't',
        Key: { pk: 'URL#/p', sk: 'C#01A#01B' },
        ConditionExpression:
          '#status = :previous AND #like = :readlike AND attribute_not_exists(#sticky) AND #orig = :readorig' +
          ' AND #owner = :owner',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#like': 'like',
          '#sticky': 'sticky',
          '#orig': 'orig',
          '#owner': 'userId',
        },
        ExpressionAttributeValues: {
          ':previous': 'approved',
          ':readlike': 0,
          ':readorig': 'mine',
          ':owner': 'acct-1',
        },
      },
    });
  });

  it("edits an author's comment in place only while it carries the author's account id", () => {
    const [update] = moderationItems('t', comment(), {
      text: { orig: 'new', html: '<p>new</p>' },
      ownerId: 'acct-1',
    });

    expect(update?.Update).toMatchObject({
      ConditionExpression:
        'attribute_exists(pk) AND #status = :read AND #orig = :readorig AND #owner = :owner',
      ExpressionAttributeNames: { '#orig': 'orig', '#owner': 'userId' },
      ExpressionAttributeValues: { ':readorig': 'old', ':owner': 'acct-1' },
    });
  });

  it('keeps a reply moving from waiting to spam at its held key, and moves no page counter', () => {
    const items = moderationItems('t', reply(), { status: 'spam' });

    expect(movesKey(reply(), { status: 'spam' })).toBe(false);
    expect(items).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'H#01A#01B' },
          UpdateExpression: 'SET #a0 = :a0, #a1 = :a1, #a2 = :a2 REMOVE #r0, #r1, #r2, #r3',
          ConditionExpression: 'attribute_exists(pk) AND #status = :read',
          ExpressionAttributeNames: {
            '#a0': 'status',
            '#a1': 'heldPk',
            '#a2': 'heldSk',
            '#r0': 'approvedPk',
            '#r1': 'approvedSk',
            '#r2': 'recentPk',
            '#r3': 'recentSk',
            '#status': 'status',
          },
          ExpressionAttributeValues: {
            ':a0': 'spam',
            ':a1': 'STATUS#spam',
            ':a2': '01B',
            ':read': 'waiting',
          },
        },
      },
      siteUpdate({ waiting: -1, spam: 1 }),
    ]);
  });

  it('edits the text of a root alone, on the text as read, without indexing it again (a pin meanwhile does not refuse it)', () => {
    expect(
      moderationItems('t', comment({ sticky: true }), { text: { orig: 'new', html: '<p>new</p>' } }),
    ).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          UpdateExpression: 'SET #a0 = :a0, #a1 = :a1, #a2 = :a2',
          // Another edit meanwhile, or the deleted placeholder, changed the text: refused.
          ConditionExpression: 'attribute_exists(pk) AND #status = :read AND #orig = :readorig',
          ExpressionAttributeNames: {
            '#a0': 'orig',
            '#a1': 'html',
            '#a2': 'textBytes',
            '#status': 'status',
            '#orig': 'orig',
          },
          ExpressionAttributeValues: {
            ':a0': 'new',
            ':a1': '<p>new</p>',
            ':a2': 13,
            ':read': 'waiting',
            ':readorig': 'old',
          },
        },
      },
    ]);
  });

  it('moves a reply read without a pin on the condition that it has none, and sends no value for it', () => {
    const stored = { pk: 'URL#/p', sk: 'H#01A#01B', status: 'waiting', like: 0, orig: 'old', rid: '01A' };

    const [remove] = moderationItems('t', reply({ like: 0 }), { status: 'approved' }, stored);

    expect(remove?.Delete?.ConditionExpression).toBe(
      '#status = :previous AND #like = :readlike AND attribute_not_exists(#sticky) AND #orig = :readorig',
    );
    // Exactly these: DynamoDB refuses a value that no expression uses.
    expect(remove?.Delete?.ExpressionAttributeValues).toStrictEqual({
      ':previous': 'waiting',
      ':readlike': 0,
      ':readorig': 'old',
    });
  });

  it('sends nothing for an empty change or a status the comment already has', () => {
    expect(moderationItems('t', comment(), {})).toEqual([]);
    expect(moderationItems('t', comment(), { status: 'waiting' })).toEqual([]);
  });

  it('refuses to build a move without the item as read', () => {
    expect(() => moderationItems('t', reply(), { status: 'approved' })).toThrow('needs its item as read');
  });
});

describe('removalItems', () => {
  it('deletes each comment as read with its duplicate mark, leaves a tombstone of each, and moves the counters', () => {
    const items = removalItems(
      't',
      '/p',
      [reply(), { ...comment({ status: 'approved' }), contentHash: 'hA' }],
      1_700_000_000_000,
    );

    expect(items).toEqual([
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'H#01A#01B' },
          ConditionExpression: '#status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': 'waiting' },
        },
      },
      {
        Put: {
          TableName: 't',
          Item: { pk: 'URL#/p', sk: 'DEL#01B', entity: 'tombstone', deletedAt: 1_700_000_000_000 },
        },
      },
      {
        Delete: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'C#01A' },
          ConditionExpression: '#status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': 'approved' },
        },
      },
      { Delete: { TableName: 't', Key: { pk: 'URL#/p', sk: 'DUP#hA' } } },
      {
        Put: {
          TableName: 't',
          Item: { pk: 'URL#/p', sk: 'DEL#01A', entity: 'tombstone', deletedAt: 1_700_000_000_000 },
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2 SET #s0 = :s0, #s1 = :s1',
          ExpressionAttributeNames: {
            '#c0': 'comments',
            '#c1': 'roots',
            '#c2': 'held',
            '#s0': 'entity',
            '#s1': 'url',
          },
          ExpressionAttributeValues: { ':c0': -1, ':c1': -1, ':c2': -1, ':s0': 'page', ':s1': '/p' },
        },
      },
      siteUpdate({ comments: -1, waiting: -1 }),
    ]);
  });

  it('moves the counters of the page it is given, and only by the comments it deletes', () => {
    const items = removalItems('t', '/q', [reply({ url: '/q', status: 'spam' })], 5);

    expect(items.slice(2)).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/q', sk: 'PAGE' },
          UpdateExpression: 'ADD #c0 :c0 SET #s0 = :s0, #s1 = :s1',
          ExpressionAttributeNames: { '#c0': 'held', '#s0': 'entity', '#s1': 'url' },
          ExpressionAttributeValues: { ':c0': -1, ':s0': 'page', ':s1': '/q' },
        },
      },
      siteUpdate({ spam: -1 }),
    ]);
  });
});

describe("removalItems: the authors' feed entries", () => {
  it("deletes each comment's feed entry under its author, whatever its status, and none of a comment with no author", () => {
    const authorOf = (deleted: ModeratedComment) =>
      deleted.mail === '' ? undefined : { authorKey: deleted.id === '01D' ? 'user:01ACC' : 'mail:h1' };
    const items = removalItems(
      't',
      '/p',
      [
        reply({ status: 'approved' }),
        reply({ id: '01D', status: 'waiting' }),
        reply({ id: '01E', status: 'spam', mail: '' }),
      ],
      5,
      authorOf,
    );
    const feedDeletes = items
      .filter((item) => String(item.Delete?.Key?.pk).startsWith('AUTHOR#'))
      .map((item) => item.Delete?.Key);
    expect(feedDeletes).toEqual([
      { pk: 'AUTHOR#mail:h1', sk: 'FEED#01B' },
      { pk: 'AUTHOR#user:01ACC', sk: 'FEED#01D' },
    ]);
  });

  it("deletes an account's comment's entries under its account and its address", () => {
    const items = removalItems('t', '/p', [reply({ status: 'approved' })], 5, () => ({
      authorKey: 'user:01ACC',
      addressKey: 'mail:h1',
    }));
    expect(
      items
        .filter((item) => String(item.Delete?.Key?.pk).startsWith('AUTHOR#'))
        .map((item) => item.Delete?.Key),
    ).toEqual([
      { pk: 'AUTHOR#user:01ACC', sk: 'FEED#01B' },
      { pk: 'AUTHOR#mail:h1', sk: 'FEED#01B' },
    ]);
  });
});

describe('moderationItems and removalItems: the level counters', () => {
  const author = { authorKey: 'mail:h1', display: { nick: 'n', link: '', avatar: 'https://a.example/x' } };
  const approval = { eventId: ulid(5), at: 5 };
  const authorDeltas = (items: ReturnType<typeof moderationItems>) =>
    items
      .filter((item) => String(item.Update?.Key?.pk).startsWith('AUTHOR#'))
      .map((item) => [item.Update?.Key?.pk, item.Update?.ExpressionAttributeValues?.[':delta']]);

  it("adds one to the author's count when a comment is approved, with the display, in the status change's transaction", () => {
    const items = moderationItems('t', comment(), { status: 'approved' }, undefined, approval, author);
    expect(authorDeltas(items)).toEqual([['AUTHOR#mail:h1', 1]]);
    expect(
      items.find((item) => item.Update?.Key?.pk === 'AUTHOR#mail:h1')?.Update?.ExpressionAttributeValues,
    ).toMatchObject({
      ':nick': 'n',
    });
    // The comment's own update is conditioned on its status as read: a concurrent change refuses the count too.
    expect(items[0]?.Update?.ConditionExpression).toContain('#status = :read');
  });

  it('takes one away when an approved comment goes to waiting or spam, root or reply', () => {
    for (const status of ['waiting', 'spam'] as const) {
      expect(
        authorDeltas(
          moderationItems('t', comment({ status: 'approved' }), { status }, undefined, approval, author),
        ),
      ).toEqual([['AUTHOR#mail:h1', -1]]);
    }
    const stored = { pk: 'URL#/p', sk: 'C#01A#01B', status: 'approved', like: 0, sticky: false, orig: 'old' };
    expect(
      authorDeltas(
        moderationItems('t', reply({ status: 'approved' }), { status: 'waiting' }, stored, approval, author),
      ),
    ).toEqual([['AUTHOR#mail:h1', -1]]);
  });

  it('moves no count between two held statuses, for an edit or a pin, or without an author', () => {
    expect(
      authorDeltas(moderationItems('t', comment(), { status: 'spam' }, undefined, approval, author)),
    ).toEqual([]);
    expect(
      authorDeltas(
        moderationItems(
          't',
          comment({ status: 'approved' }),
          { sticky: true, text: { orig: 'a', html: 'b' } },
          undefined,
          approval,
          author,
        ),
      ),
    ).toEqual([]);
    expect(
      authorDeltas(moderationItems('t', comment(), { status: 'approved' }, undefined, approval)),
    ).toEqual([]);
  });

  it("takes each deleted approved comment from its author's count, summed per author, and none for a held one", () => {
    const authorOf = (deleted: ModeratedComment) =>
      deleted.mail === 'n@example.com' ? author : { authorKey: 'user:01ACC' };
    const items = removalItems(
      't',
      '/p',
      [
        reply({ status: 'approved' }),
        reply({ id: '01C', status: 'approved' }),
        reply({ id: '01D', status: 'waiting', mail: 'x@example.com' }),
        comment({ status: 'approved', mail: 'x@example.com' }),
      ],
      9,
      authorOf,
    );
    expect(authorDeltas(items)).toEqual([
      ['AUTHOR#mail:h1', -2],
      ['AUTHOR#user:01ACC', -1],
    ]);
    expect(
      removalItems('t', '/p', [comment({ status: 'approved' })], 9).some((item) =>
        String(item.Update?.Key?.pk).startsWith('AUTHOR#'),
      ),
    ).toBe(false);
  });
});
