import { describe, expect, it } from 'vitest';
import { noticesFor, type RuleContext, ruleTable } from '../../../../functions/notify/rules.js';
import type { RecipientKind } from '../../../../functions/shared/table/keys.js';
import type { OutboxEvent, OutboxSubject } from '../../../../functions/shared/table/outbox-event.js';

const eventId = '01KAZ0000000000000000000EV';
const allChannels: RecipientKind[] = ['owner', 'parent', 'webhook', 'telegram'];
const owner = { address: 'owner@example.com', lang: 'en', notifyOff: false } as const;

const root: OutboxSubject = { url: '/post', id: 'ROOT1', status: 'approved', byAdmin: false };
const reply: OutboxSubject = {
  url: '/post',
  id: 'REPLY1',
  rid: 'ROOT1',
  pid: 'ROOT1',
  status: 'approved',
  byAdmin: false,
};
const submitted = (subject: OutboxSubject): OutboxEvent => ({
  id: eventId,
  cause: 'comment.submitted',
  at: 1,
  subject,
});
const approved = (subject: OutboxSubject): OutboxEvent => ({
  id: eventId,
  cause: 'comment.approved',
  at: 1,
  subject,
});
const testEvent: OutboxEvent = { id: eventId, cause: 'test', at: 1 };

const reader = { status: 'approved', mail: 'reader@example.com', lang: 'en' } as const;
const parentAuthor = { status: 'approved', mail: 'parent@example.com', lang: 'zh-CN' } as const;

/** A context with every channel, the owner set, and `overrides` on top. */
const context = (overrides: Partial<RuleContext> = {}): RuleContext => ({
  owner,
  channels: allChannels,
  comment: reader,
  ...overrides,
});

const ownerNotices = (template: string) => [
  { recipient: 'owner', template, lang: 'en', to: 'owner@example.com' },
  { recipient: 'webhook', template, lang: 'en' },
  { recipient: 'telegram', template, lang: 'en' },
];
const replyNotice = { recipient: 'parent', template: 'reply', lang: 'zh-CN', to: 'parent@example.com' };

/** The names of the row tests below, registered as the file loads (before any test runs). */
const rowTests: string[] = [];
const row = (name: string, test: () => void) => {
  rowTests.push(name);
  it(name, test);
};

describe('noticesFor: one test per row of the rule table', () => {
  row('a test tells the owner by mail and on the owner channels', () => {
    const plan = noticesFor(testEvent, context({ comment: undefined }));
    expect(plan).toEqual({ kind: 'notify', notices: ownerNotices('test'), skipped: [] });
  });

  row('spam tells the owner nothing, ever', () => {
    const plan = noticesFor(
      submitted({ ...root, status: 'spam' }),
      context({ comment: { ...reader, status: 'spam' } }),
    );
    expect(plan).toEqual({
      kind: 'skip',
      reason: 'owner: spam notifies nobody; parent: spam notifies nobody',
    });
  });

  row('an approval tells the owner nothing', () => {
    const ofRoot = noticesFor(approved(root), context());
    const ofReply = noticesFor(approved(reply), context({ parent: parentAuthor }));
    expect(ofRoot).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining("owner: an approval is the owner's own doing"),
    });
    expect(ofReply).toEqual({ kind: 'notify', notices: [replyNotice], skipped: [] });
  });

  row('DISABLE_AUTHOR_NOTIFY keeps the owner untold', () => {
    const quiet = { ...owner, notifyOff: true };
    const ofRoot = noticesFor(submitted(root), context({ owner: quiet }));
    const ofWaiting = noticesFor(
      submitted({ ...root, status: 'waiting' }),
      context({ owner: quiet, comment: { ...reader, status: 'waiting' } }),
    );
    const ofReply = noticesFor(submitted(reply), context({ owner: quiet, parent: parentAuthor }));
    expect(ofRoot).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('DISABLE_AUTHOR_NOTIFY is set'),
    });
    expect(ofWaiting).toMatchObject({ kind: 'skip' });
    expect(ofReply).toEqual({ kind: 'notify', notices: [replyNotice], skipped: [] });
  });

  row('a comment an administrator wrote tells the owner nothing', () => {
    const plan = noticesFor(submitted({ ...root, byAdmin: true }), context());
    expect(plan).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('owner: an administrator wrote it'),
    });
  });

  row('a new approved comment tells the owner by mail and on the owner channels', () => {
    const plan = noticesFor(submitted(root), context({ owner: { ...owner, lang: 'zh-CN' } }));
    expect(plan).toEqual({
      kind: 'notify',
      notices: ownerNotices('owner-new').map((notice) => ({ ...notice, lang: 'zh-CN' })),
      skipped: [],
    });
  });

  row('a comment waiting for approval tells the owner, with the moderation links', () => {
    const plan = noticesFor(
      submitted({ ...reply, status: 'waiting' }),
      context({ comment: { ...reader, status: 'waiting' }, parent: parentAuthor }),
    );
    expect(plan).toEqual({ kind: 'notify', notices: ownerNotices('owner-waiting'), skipped: [] });
  });

  row('a test tells no reader', () => {
    const plan = noticesFor(testEvent, context({ comment: undefined, parent: parentAuthor }));
    expect(plan.kind === 'notify' && plan.notices.map((notice) => notice.recipient)).toEqual([
      'owner',
      'webhook',
      'telegram',
    ]);
    expect(plan).toMatchObject({ skipped: [] });
    // With no owner channel, the reason the reader is not told is what the plan says.
    expect(noticesFor(testEvent, context({ comment: undefined, channels: ['parent'] }))).toEqual({
      kind: 'skip',
      reason: 'owner: no channel is configured; parent: a test tells no reader',
    });
  });

  row("spam tells the parent's author nothing, ever", () => {
    const plan = noticesFor(
      approved({ ...reply, status: 'spam' }),
      context({ comment: { ...reader, status: 'spam' }, parent: parentAuthor }),
    );
    expect(plan).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('parent: spam notifies nobody'),
    });
  });

  row('a root comment tells no reader', () => {
    const plan = noticesFor(approved(root), context({ parent: parentAuthor }));
    expect(plan).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('parent: a root answers nobody'),
    });
  });

  row("a reply waiting for approval tells its parent's author nothing yet", () => {
    const plan = noticesFor(
      approved({ ...reply, status: 'waiting' }),
      context({ comment: { ...reader, status: 'waiting' }, parent: parentAuthor }),
    );
    expect(plan).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('parent: a reply waiting for approval is told once approved'),
    });
  });

  row('a reply held when submitted is told by its approval, not by its submission', () => {
    // Submitted waiting, approved before the sender read it: the submission tells the owner, the approval the parent.
    const plan = noticesFor(submitted({ ...reply, status: 'waiting' }), context({ parent: parentAuthor }));
    expect(plan).toEqual({ kind: 'notify', notices: ownerNotices('owner-new'), skipped: [] });
    const readerOnly = noticesFor(
      submitted({ ...reply, status: 'waiting' }),
      context({ channels: ['parent'], parent: parentAuthor }),
    );
    expect(readerOnly).toEqual({
      kind: 'skip',
      reason: "owner: no channel is configured; parent: its approval tells the parent's author",
    });
  });

  row('a reply to a comment deleted since tells nobody', () => {
    const plan = noticesFor(approved(reply), context({ parent: undefined }));
    expect(plan).toEqual({
      kind: 'notify',
      notices: [],
      skipped: [{ recipient: 'parent', reason: 'the comment it answers is gone' }],
    });
  });

  row('a reply to a held comment (waiting or spam) tells nobody', () => {
    for (const status of ['waiting', 'spam'] as const) {
      const plan = noticesFor(approved(reply), context({ parent: { ...parentAuthor, status } }));
      expect(plan).toEqual({
        kind: 'notify',
        notices: [],
        skipped: [{ recipient: 'parent', reason: 'the comment it answers is not approved' }],
      });
    }
  });

  row('a reply to a comment without one plain address tells nobody', () => {
    for (const mail of [
      '',
      '   ',
      'not an address',
      'a@example.com, b@example.com',
      'Name <a@example.com>',
      'grp: a@example.com;',
    ]) {
      const plan = noticesFor(approved(reply), context({ parent: { ...parentAuthor, mail } }));
      expect(plan).toEqual({
        kind: 'notify',
        notices: [],
        skipped: [
          { recipient: 'parent', reason: "no address: the parent's mail is empty or not one plain address" },
        ],
      });
    }
  });

  row("a reply to one's own comment (same address, any case) tells nobody", () => {
    for (const [replier, parent] of [
      [' Parent@Example.COM ', parentAuthor.mail],
      [parentAuthor.mail, ' PARENT@example.com '],
    ] as const) {
      const plan = noticesFor(
        approved(reply),
        context({ comment: { ...reader, mail: replier }, parent: { ...parentAuthor, mail: parent } }),
      );
      expect(plan).toEqual({
        kind: 'notify',
        notices: [],
        skipped: [{ recipient: 'parent', reason: "the replier's own comment" }],
      });
    }
  });

  row("a reply to the owner's address sends no reader mail", () => {
    const plan = noticesFor(
      submitted(reply),
      context({ parent: { ...parentAuthor, mail: 'OWNER@example.com' } }),
    );
    expect(plan).toEqual({
      kind: 'notify',
      notices: ownerNotices('owner-new'),
      skipped: [{ recipient: 'parent', reason: "the owner's address: the owner is told as the owner" }],
    });
  });

  row("an approved reply tells its parent's author, in the parent's language", () => {
    const ofSubmission = noticesFor(
      submitted({ ...reply, pid: 'MID1' }),
      context({ parent: { ...parentAuthor, mail: ' parent@example.com ' } }),
    );
    const withoutLang = noticesFor(
      approved(reply),
      context({
        parent: { status: 'approved', mail: 'parent@example.com' },
        owner: { ...owner, lang: 'zh-CN' },
      }),
    );
    expect(ofSubmission).toEqual({
      kind: 'notify',
      notices: [...ownerNotices('owner-new'), replyNotice],
      skipped: [],
    });
    // A parent stored before languages were: the owner's language, the site's best guess.
    expect(withoutLang).toEqual({ kind: 'notify', notices: [replyNotice], skipped: [] });
  });

  it('has a test for every row, and a row for every test', () => {
    expect([...rowTests].sort()).toEqual(ruleTable.map((rule) => rule.name).sort());
  });
});

describe('noticesFor: what no row covers', () => {
  it('tells nobody of a comment gone before the notice is sent', () => {
    const plan = noticesFor(submitted(reply), context({ comment: undefined, parent: parentAuthor }));
    expect(plan).toEqual({ kind: 'skip', reason: 'owner: no rule applies; parent: no rule applies' });
  });

  it('reads an event without its subject as about a root, and tells no reader', () => {
    const plan = noticesFor({ id: eventId, cause: 'comment.approved', at: 1 }, context());
    expect(plan).toEqual({
      kind: 'skip',
      reason: "owner: an approval is the owner's own doing; parent: a root answers nobody",
    });
  });
});

describe('noticesFor: channels', () => {
  it('plans only the kinds that have a channel, and nobody when none has', () => {
    const mailOnly = noticesFor(
      submitted(reply),
      context({ channels: ['owner', 'parent'], parent: parentAuthor }),
    );
    const webhookOnly = noticesFor(
      submitted(reply),
      context({ channels: ['webhook'], parent: parentAuthor }),
    );
    const none = noticesFor(submitted(reply), context({ channels: [], parent: parentAuthor }));

    expect(mailOnly).toEqual({
      kind: 'notify',
      notices: [ownerNotices('owner-new')[0], replyNotice],
      skipped: [],
    });
    expect(webhookOnly).toEqual({ kind: 'notify', notices: [ownerNotices('owner-new')[1]], skipped: [] });
    expect(none).toEqual({
      kind: 'skip',
      reason: 'owner: no channel is configured; parent: no mail channel is configured',
    });
  });

  it('records the owner mail as skipped when AUTHOR_EMAIL is not set, and still tells the owner channels', () => {
    const plan = noticesFor(submitted(root), context({ owner: { ...owner, address: undefined } }));
    expect(plan).toEqual({
      kind: 'notify',
      notices: ownerNotices('owner-new').slice(1),
      skipped: [{ recipient: 'owner', reason: 'no address: AUTHOR_EMAIL is not set' }],
    });
  });
});
