import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../../functions/notify/notice.js';
import { PermanentFailure } from '../../../../functions/notify/channels/permanent-failure.js';
import { createProcessEvent, keptError } from '../../../../functions/notify/process-event.js';
import { buildMailMessage } from '../../../../functions/notify/channels/mail-message.js';
import { createNotificationLinks } from '../../../../functions/notify/links.js';
import { readLinkToken } from '../../../../functions/shared/notify/link-token.js';
import {
  createAddressHasher,
  createFormerAddressHasher,
} from '../../../../functions/shared/notify/address-hash.js';
import type { RecipientKind } from '../../../../functions/shared/table/keys.js';
import type { OutboxEvent } from '../../../../functions/shared/table/outbox-event.js';
import { createFakeNotifyStore, notifiedComment } from './fake-notify-store.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const notify = {
  AUTHOR_EMAIL: 'owner@example.com',
  AUTHOR_LANG: 'en',
  DISABLE_AUTHOR_NOTIFY: false,
  NOTIFY_CAP_PER_HOUR: 2,
  NOTIFY_CAP_PER_DAY: 20,
  // Readers' mail as before confirmations, unless a test says otherwise (the REPLY_MAIL tests below).
  REPLY_MAIL: 'all',
} as const;

/** Channels that record what they are given; `failing` kinds throw `error` instead. */
function recordingChannels(kinds: RecipientKind[] = ['owner', 'parent', 'webhook', 'telegram']) {
  const sent: Notice[] = [];
  const failing = new Map<RecipientKind, unknown>();
  const channels = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      async (notice: Notice) => {
        if (failing.has(kind)) throw failing.get(kind);
        sent.push(notice);
      },
    ]),
  );
  return { channels, sent, failing, to: (kind: RecipientKind) => sent.filter((n) => n.recipient === kind) };
}

function setUp(
  options: {
    kinds?: RecipientKind[];
    leaseMs?: number;
    retryDelaysMs?: readonly number[];
    replyMail?: 'confirmed' | 'all' | 'off';
    formerHash?: boolean;
    capPerHour?: number;
  } = {},
) {
  const fake = createFakeNotifyStore();
  const channels = recordingChannels(options.kinds);
  let time = 1_800_000_000_000;
  const process = createProcessEvent({
    deliveries: fake.store,
    guards: fake.guards,
    confirmations: fake.confirmations,
    readComments: fake.readComments,
    channels: channels.channels,
    notify: {
      ...notify,
      REPLY_MAIL: options.replyMail ?? notify.REPLY_MAIL,
      NOTIFY_CAP_PER_HOUR: options.capPerHour ?? notify.NOTIFY_CAP_PER_HOUR,
    },
    now: () => time,
    hashAddress: addressHash,
    ...(options.formerHash
      ? { formerHashAddress: createFormerAddressHasher('test-salt-0123456789abcdef') }
      : {}),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
  });
  return { fake, channels, process, advance: (ms: number) => (time += ms) };
}

let sequence = 0;
const nextId = () => `01KAZ${String(++sequence).padStart(21, '0')}`;

/** A root comment's submission event, with the comment stored. */
function rootSubmitted(fake: ReturnType<typeof createFakeNotifyStore>): OutboxEvent {
  const id = nextId();
  fake.comments.set(id, notifiedComment({ id }));
  const event: OutboxEvent = {
    id,
    cause: 'comment.submitted',
    at: 1,
    subject: { url: '/post', id, status: 'approved', byAdmin: false },
  };
  fake.addEvent(event);
  return event;
}

/** An approved reply's submission event, its parent written by `parentMail` (in Chinese). */
function replySubmitted(
  fake: ReturnType<typeof createFakeNotifyStore>,
  parentMail = 'parent@example.com',
  rootId = nextId(),
): OutboxEvent {
  const id = nextId();
  fake.comments.set(rootId, notifiedComment({ id: rootId, mail: parentMail, nick: 'Parent', lang: 'zh-CN' }));
  fake.comments.set(id, notifiedComment({ id, rid: rootId, pid: rootId, mail: 'replier@example.com' }));
  const event: OutboxEvent = {
    id,
    cause: 'comment.submitted',
    at: 1,
    subject: { url: '/post', id, rid: rootId, pid: rootId, status: 'approved', byAdmin: false },
  };
  fake.addEvent(event);
  return event;
}

describe('createProcessEvent', () => {
  it('sends a new comment to the owner by mail and on the owner channels, then records each and the event sent', async () => {
    const { fake, channels, process } = setUp();
    const event = rootSubmitted(fake);

    const outcome = await process(event.id);

    expect(outcome).toEqual({ final: true, state: 'sent' });
    expect(channels.sent.map((notice) => notice.recipient).sort()).toEqual(['owner', 'telegram', 'webhook']);
    expect(channels.to('owner')[0]).toMatchObject({
      eventId: event.id,
      template: 'owner-new',
      lang: 'en',
      to: 'owner@example.com',
      self: { id: event.id, nick: 'Reader', html: '<p>Hello</p>', status: 'approved' },
    });
    // The comment in a notice never carries the commenter's address; the webhook's has no address at all.
    expect(JSON.stringify(channels.sent)).not.toContain('reader@example.com');
    expect(channels.to('webhook')[0]).not.toHaveProperty('to');
    for (const kind of ['owner', 'webhook', 'telegram'] as const) {
      expect(fake.delivery(event.id, kind)).toEqual({ state: 'sent', attempts: 1 });
    }
    expect(fake.events.get(event.id)).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('sends nothing the second time, neither once the event is sent nor when it is set back to pending', async () => {
    const { fake, channels, process } = setUp();
    const event = replySubmitted(fake);

    await process(event.id);
    const again = await process(event.id);
    fake.events.set(event.id, { ...fake.events.get(event.id)!, state: 'pending' });
    const redriven = await process(event.id);

    expect(again).toEqual({ final: true, state: 'sent' });
    expect(redriven).toEqual({ final: true, state: 'sent' });
    expect(channels.sent).toHaveLength(4);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('mails a reply to the parent in the parent language, with both comments', async () => {
    const { fake, channels, process } = setUp();
    const event = replySubmitted(fake);

    await process(event.id);

    expect(channels.to('parent')).toEqual([
      expect.objectContaining({
        template: 'reply',
        lang: 'zh-CN',
        to: 'parent@example.com',
        self: expect.objectContaining({ id: event.id, pid: event.subject?.pid }),
        parent: expect.objectContaining({ id: event.subject?.pid, nick: 'Parent' }),
      }),
    ]);
  });

  it('records a failing channel failed with its next try, the event failed and done for the stream, and sends only that one once due', async () => {
    const { fake, channels, process, advance } = setUp();
    const event = replySubmitted(fake);
    channels.failing.set('parent', new Error('connect ECONNREFUSED 127.0.0.1:2525'));
    const failedAt = 1_800_000_000_000;

    const first = await process(event.id);

    // The record is done: the stream does not retry it (which would hold back every record behind it).
    expect(first).toEqual({ final: true, state: 'failed' });
    expect(fake.delivery(event.id, 'parent')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'connect ECONNREFUSED 127.0.0.1:2525',
      retryAt: failedAt + 2 * 60_000,
    });
    expect(fake.delivery(event.id, 'owner')).toMatchObject({ state: 'sent' });
    expect(fake.events.get(event.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'parent: connect ECONNREFUSED 127.0.0.1:2525',
      retryAt: failedAt + 2 * 60_000,
    });

    channels.failing.clear();
    advance(60_000);
    const early = await process(event.id);
    expect(early).toEqual({ final: true, state: 'failed' });
    expect(channels.to('parent')).toEqual([]);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({ state: 'failed', attempts: 1 });

    advance(60_000);
    const second = await process(event.id);

    expect(second).toEqual({ final: true, state: 'sent' });
    expect(channels.sent.map((notice) => notice.recipient).sort()).toEqual([
      'owner',
      'parent',
      'telegram',
      'webhook',
    ]);
    expect(fake.delivery(event.id, 'parent')).toEqual({ state: 'sent', attempts: 2, counted: true });
    expect(fake.events.get(event.id)).toEqual(expect.objectContaining({ state: 'sent', attempts: 3 }));
    expect(fake.events.get(event.id)).not.toHaveProperty('lastError');
    expect(fake.events.get(event.id)).not.toHaveProperty('retryAt');
  });

  it('keeps each delivery on its own schedule: a channel that fails again waits longer, one mended is sent', async () => {
    const start = 1_800_000_000_000;
    const { fake, channels, process, advance } = setUp({
      kinds: ['owner', 'webhook', 'telegram'],
      retryDelaysMs: [1000, 5000],
    });
    const event = rootSubmitted(fake);
    channels.failing.set('webhook', new Error('the webhook answered 503'));
    channels.failing.set('telegram', new Error('Telegram answered 502: Bad Gateway'));
    await process(event.id);
    expect(fake.events.get(event.id)).toMatchObject({ state: 'failed', retryAt: start + 1000 });

    advance(1000);
    channels.failing.delete('telegram');
    await process(event.id);
    expect(channels.to('telegram')).toHaveLength(1);
    expect(fake.delivery(event.id, 'webhook')).toMatchObject({ attempts: 2, retryAt: start + 6000 });
    expect(fake.events.get(event.id)).toMatchObject({ state: 'failed', retryAt: start + 6000 });

    advance(2000);
    channels.failing.clear();
    await process(event.id);
    expect(channels.to('webhook')).toHaveLength(0);

    advance(3000);
    expect(await process(event.id)).toEqual({ final: true, state: 'sent' });
    expect(channels.to('webhook')).toHaveLength(1);
    expect(channels.to('telegram')).toHaveLength(1);
    expect(channels.to('owner')).toHaveLength(1);
  });

  it('gives a delivery up once its schedule is used up, and the event with it', async () => {
    const { fake, channels, process, advance } = setUp({
      kinds: ['owner', 'webhook'],
      retryDelaysMs: [10, 20],
    });
    const event = rootSubmitted(fake);
    channels.failing.set('webhook', new Error('the webhook answered 500'));

    for (const wait of [0, 10, 20, 1000]) {
      advance(wait);
      await process(event.id);
    }

    expect(fake.delivery(event.id, 'webhook')).toMatchObject({ state: 'failed', attempts: 3, gaveUp: true });
    expect(fake.delivery(event.id, 'webhook')).not.toHaveProperty('retryAt');
    expect(fake.events.get(event.id)).toMatchObject({ state: 'failed', gaveUp: true });
    expect(fake.events.get(event.id)).not.toHaveProperty('retryAt');
    expect(channels.to('owner')).toHaveLength(1);
  });

  it('never retries a permanent failure, and tries it once more when re-driven by hand', async () => {
    const { fake, channels, process, advance } = setUp({ kinds: ['owner', 'telegram'] });
    const event = rootSubmitted(fake);
    channels.failing.set('telegram', new PermanentFailure('Telegram answered 401: Unauthorized'));

    expect(await process(event.id)).toEqual({ final: true, state: 'failed' });
    expect(fake.delivery(event.id, 'telegram')).toMatchObject({
      state: 'failed',
      attempts: 1,
      gaveUp: true,
      lastError: 'Telegram answered 401: Unauthorized (refused for good: not retried)',
    });
    expect(fake.events.get(event.id)).toMatchObject({ state: 'failed', gaveUp: true });
    advance(86_400_000);
    fake.events.set(event.id, { ...fake.events.get(event.id)!, state: 'pending' });
    await process(event.id);
    expect(fake.delivery(event.id, 'telegram')).toMatchObject({ attempts: 1 });

    channels.failing.clear();
    fake.events.set(event.id, { ...fake.events.get(event.id)!, state: 'pending', byHand: true });
    expect(await process(event.id)).toEqual({ final: true, state: 'sent' });
    expect(channels.to('telegram')).toHaveLength(1);
    expect(channels.to('owner')).toHaveLength(1);
    expect(fake.events.get(event.id)).not.toHaveProperty('byHand');
  });

  it('keeps no address in a recorded error, and at most 500 characters of it', async () => {
    const { fake, channels, process } = setUp();
    const event = replySubmitted(fake);
    channels.failing.set('parent', new Error(`550 <parent@example.com>: no such user ${'x'.repeat(900)}`));
    channels.failing.set('owner', 'Owner@Example.com%40 refused, and owner%40example.com too');

    await process(event.id);

    const parentError = fake.delivery(event.id, 'parent')?.lastError ?? '';
    const ownerError = fake.delivery(event.id, 'owner')?.lastError ?? '';
    expect(parentError.startsWith('550 <<address>>: no such user xxx')).toBe(true);
    expect(parentError).toHaveLength(500);
    expect(ownerError).toBe('<address> refused, and <address> too');
    expect(JSON.stringify([...fake.deliveries.values(), ...fake.events.values()])).not.toMatch(
      /example\.com/i,
    );
  });

  it('skips the event when its comment was deleted meanwhile, sending nothing', async () => {
    const { fake, channels, process } = setUp();
    const event = rootSubmitted(fake);
    fake.comments.delete(event.id);

    const outcome = await process(event.id);

    expect(outcome).toEqual({ final: true, state: 'skipped' });
    expect(channels.sent).toEqual([]);
    expect(fake.events.get(event.id)).toMatchObject({
      state: 'skipped',
      lastError: 'the comment was deleted',
    });
  });

  it('skips the event with the rules’ reason when nobody is to be told (a comment marked spam since)', async () => {
    const { fake, channels, process } = setUp();
    const event = replySubmitted(fake);
    fake.comments.set(event.id, { ...fake.comments.get(event.id)!, status: 'spam' });

    await process(event.id);

    expect(channels.sent).toEqual([]);
    expect(fake.events.get(event.id)).toMatchObject({
      state: 'skipped',
      lastError: 'owner: spam notifies nobody; parent: spam notifies nobody',
    });
  });

  it('records a recipient the rules leave out with why, and the event sent', async () => {
    const { fake, channels, process } = setUp();
    const event = replySubmitted(fake, 'REPLIER@example.com');

    const outcome = await process(event.id);

    expect(outcome.state).toBe('sent');
    expect(channels.to('parent')).toEqual([]);
    expect(fake.delivery(event.id, 'parent')).toEqual({
      state: 'skipped',
      attempts: 0,
      lastError: "the replier's own comment",
    });
  });

  it('sends nothing to an address suppressed from the site or from the thread, and the rest as usual', async () => {
    const { fake, channels, process } = setUp();
    const siteWide = replySubmitted(fake, 'gone@example.com');
    const threadOnly = replySubmitted(fake, 'muted@example.com');
    fake.suppressions.add(`${addressHash('gone@example.com')}#site`);
    fake.suppressions.add(`${addressHash('Muted@example.com')}#${threadOnly.subject?.rid}`);
    const elsewhere = replySubmitted(fake, 'muted@example.com');

    await process(siteWide.id);
    await process(threadOnly.id);
    await process(elsewhere.id);

    expect(fake.delivery(siteWide.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (the whole site)',
    });
    expect(fake.delivery(threadOnly.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (this thread)',
    });
    expect(channels.to('parent').map((notice) => notice.eventId)).toEqual([elsewhere.id]);
    expect(fake.events.get(siteWide.id)).toMatchObject({ state: 'sent' });
  });

  it('applies the site suppression, not a thread one, to the owner', async () => {
    const { fake, channels, process } = setUp();
    const muted = rootSubmitted(fake);
    fake.suppressions.add(`${addressHash('owner@example.com')}#${muted.id}`);
    await process(muted.id);
    fake.suppressions.add(`${addressHash('owner@example.com')}#site`);
    const bounced = rootSubmitted(fake);
    await process(bounced.id);

    expect(channels.to('owner').map((notice) => notice.eventId)).toEqual([muted.id]);
    expect(fake.delivery(bounced.id, 'owner')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (the whole site)',
    });
    expect(channels.to('webhook')).toHaveLength(2);
  });

  it('stops the reader mail past the cap, never the owner’s, and a retried failure takes no second slot', async () => {
    const { fake, channels, process, advance } = setUp();
    const first = replySubmitted(fake);
    channels.failing.set('parent', new Error('timeout'));
    await process(first.id);
    channels.failing.clear();
    advance(120_000);
    await process(first.id);
    const second = replySubmitted(fake);
    await process(second.id);
    const third = replySubmitted(fake);
    await process(third.id);

    expect(channels.to('parent').map((notice) => notice.eventId)).toEqual([first.id, second.id]);
    expect(fake.delivery(third.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'capped (2 an hour, 20 a day)',
    });
    expect(channels.to('owner')).toHaveLength(3);
    expect(fake.capCounts.get(addressHash('parent@example.com'))).toBe(2);
  });

  it('leaves a delivery another sender holds, and takes it over once its lease expired', async () => {
    const { fake, channels, process, advance } = setUp({ kinds: ['owner'], leaseMs: 1000 });
    const event = rootSubmitted(fake);
    await fake.store.claim(event.id, 'owner', { at: 1_800_000_000_000, leaseMs: 1000 });

    const held = await process(event.id);
    advance(1001);
    const takenOver = await process(event.id);

    expect(held).toEqual({ final: true, state: 'held elsewhere' });
    expect(takenOver).toEqual({ final: true, state: 'sent' });
    expect(channels.sent).toHaveLength(1);
    expect(fake.delivery(event.id, 'owner')).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('counts a delivery whose claim threw as failed, after the others finished: the event is failed, for a retry', async () => {
    const { fake, channels, process } = setUp({ kinds: ['owner', 'parent'] });
    const event = replySubmitted(fake);
    const claim = fake.store.claim;
    fake.store.claim = async (eventId, recipient, lease) => {
      if (recipient === 'owner')
        throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      return claim(eventId, recipient, lease);
    };
    // The parent's send is still under way when the owner's claim throws.
    channels.channels.parent = async (notice: Notice) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      channels.sent.push(notice);
    };

    const outcome = await process(event.id);

    expect(outcome).toEqual({ final: false, state: 'failed' });
    // The other delivery was seen through: sent and recorded before the event was.
    expect(channels.to('parent')).toHaveLength(1);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({ state: 'sent' });
    expect(fake.events.get(event.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'owner: ThrottlingException: Rate exceeded',
    });
  });

  it('answers final for an event that no longer exists', async () => {
    const { channels, process } = setUp();
    expect(await process(nextId())).toEqual({ final: true, state: 'missing' });
    expect(channels.sent).toEqual([]);
  });

  it('tells a test to the owner channels alone', async () => {
    const { fake, channels, process } = setUp();
    const id = nextId();
    fake.addEvent({ id, cause: 'test', at: 1 });

    await process(id);

    expect(channels.sent.map((notice) => [notice.recipient, notice.template]).sort()).toEqual([
      ['owner', 'test'],
      ['telegram', 'test'],
      ['webhook', 'test'],
    ]);
    expect(channels.sent[0]).not.toHaveProperty('self');
  });
});

describe('keptError', () => {
  it('names a non-plain error, and states a thrown value', () => {
    const typed = new TypeError('bad');
    expect(keptError(typed)).toBe('TypeError: bad');
    expect(keptError(42)).toBe('42');
  });
});

describe('createProcessEvent with REPLY_MAIL', () => {
  it('replaces the first reply notice to an unconfirmed address by one confirmation mail with nothing of the replier', async () => {
    const { fake, channels, process } = setUp({ replyMail: 'confirmed' });
    const event = replySubmitted(fake, 'victim@example.com');

    expect(await process(event.id)).toEqual({ final: true, state: 'sent' });

    const [mail, ...others] = channels.to('parent');
    expect(others).toEqual([]);
    expect(mail).toEqual({
      eventId: event.id,
      recipient: 'parent',
      template: 'confirm',
      lang: 'zh-CN',
      to: 'victim@example.com',
    });
    expect(fake.delivery(event.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'awaiting confirmation (confirmation mail sent)',
      awaitingConfirmation: true,
      counted: true,
    });
    // The owner is told as ever; the confirmation took a slot of the address's caps.
    expect(channels.to('owner')).toHaveLength(1);
    expect(fake.capCounts.get(addressHash('victim@example.com'))).toBe(1);
  });

  it('sends no second confirmation within 30 days, to any spelling of the address', async () => {
    const { fake, channels, process, advance } = setUp({ replyMail: 'confirmed' });
    await process(replySubmitted(fake, 'victim@gmail.com').id);
    advance(29 * 86_400_000);
    const variants = ['victim+1@gmail.com', 'v.ictim@gmail.com', 'VICTIM+x@googlemail.com'];
    const later = variants.map((mail) => replySubmitted(fake, mail));
    for (const event of later) await process(event.id);

    // googlemail.com is its own domain here: its one confirmation is its own.
    expect(channels.to('parent').map((notice) => [notice.template, notice.to])).toEqual([
      ['confirm', 'victim@gmail.com'],
      ['confirm', 'VICTIM+x@googlemail.com'],
    ]);
    for (const event of later.slice(0, 2)) {
      expect(fake.delivery(event.id, 'parent')).toMatchObject({
        state: 'skipped',
        lastError: 'awaiting confirmation (confirmation already sent in the last 30 days)',
      });
    }

    advance(2 * 86_400_000);
    await process(replySubmitted(fake, 'victim+2@gmail.com').id);
    expect(channels.to('parent').map((notice) => notice.template)).toEqual(['confirm', 'confirm', 'confirm']);
  });

  it('sends no more confirmation mails, ever, to an address that left the site from one', async () => {
    const { fake, channels, process, advance } = setUp({ replyMail: 'confirmed' });
    await process(replySubmitted(fake, 'victim@example.com').id);
    // The confirmation mail as it is sent, and what its one-click header records (unsubscribe.ts).
    const linkKey = 'l'.repeat(32);
    const mail = await buildMailMessage(channels.to('parent')[0]!, {
      site: { SITE_NAME: 'Notes' },
      templates: {},
      sender: { name: 'Notes', address: 'notes@example.com' },
      links: createNotificationLinks({
        serverUrl: 'https://api.example',
        linkKey: async () => linkKey,
        hashAddress: addressHash,
        moderationLinkHours: 72,
        now: () => 0,
      }),
      now: () => 0,
    });
    const header = /^List-Unsubscribe: <([^>]+)>$/m.exec(mail.raw.toString('utf8'))?.[1] ?? '';
    const token = new URL(header).searchParams.get('token') ?? undefined;
    const claims = await readLinkToken(linkKey, token, 'unsubscribe', 0);
    expect(claims).toEqual({ purpose: 'unsubscribe', addressHash: addressHash('victim@example.com') });
    fake.suppressions.add(`${claims?.addressHash}#site`);

    advance(31 * 86_400_000);
    const later = replySubmitted(fake, 'Victim+again@example.com');
    await process(later.id);

    expect(channels.to('parent').map((notice) => notice.template)).toEqual(['confirm']);
    expect(fake.delivery(later.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (the whole site)',
    });
  });

  it('sends the waiting notice once the address confirmed, and later replies directly, each against the caps', async () => {
    const { fake, channels, process } = setUp({ replyMail: 'confirmed', capPerHour: 3 });
    const first = replySubmitted(fake, 'reader+tag@example.com');
    await process(first.id);

    await fake.confirmations.confirm(addressHash('reader@example.com'), 0);
    expect(await fake.confirmations.releasePending(first.id, 0)).toBe(true);
    expect(await process(first.id)).toEqual({ final: true, state: 'sent' });
    const later = replySubmitted(fake, 'Reader@example.com');
    await process(later.id);

    expect(channels.to('parent').map((notice) => [notice.template, notice.eventId, notice.to])).toEqual([
      ['confirm', first.id, 'reader+tag@example.com'],
      ['reply', first.id, 'reader+tag@example.com'],
      ['reply', later.id, 'Reader@example.com'],
    ]);
    expect(channels.to('parent')[1]?.self?.id).toBe(first.id);
    expect(fake.delivery(first.id, 'parent')).toMatchObject({ state: 'sent', counted: true });
    // The confirmation, the waiting notice and the later one: three slots of one address.
    expect(fake.capCounts.get(addressHash('reader@example.com'))).toBe(3);
    // A second click finds nothing waiting.
    expect(await fake.confirmations.releasePending(first.id, 0)).toBe(false);
  });

  it('sends the confirmation mail again when its send failed, and never a second one for another event', async () => {
    const { fake, channels, process, advance } = setUp({ replyMail: 'confirmed' });
    const event = replySubmitted(fake, 'victim@example.com');
    channels.failing.set('parent', new Error('connect ECONNREFUSED 127.0.0.1:2525'));
    await process(event.id);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({ state: 'failed', counted: true });

    channels.failing.clear();
    await process(replySubmitted(fake, 'victim@example.com').id);
    advance(2 * 60_000);
    await process(event.id);

    expect(channels.to('parent').map((notice) => [notice.template, notice.eventId])).toEqual([
      ['confirm', event.id],
    ]);
    expect(fake.capCounts.get(addressHash('victim@example.com'))).toBe(1);
  });

  it('sends a capped address no confirmation, and leaves it free to be asked later', async () => {
    const { fake, channels, process } = setUp({ replyMail: 'confirmed' });
    fake.capCounts.set(addressHash('victim@example.com'), 2);
    const event = replySubmitted(fake, 'victim@example.com');

    await process(event.id);

    expect(channels.to('parent')).toEqual([]);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'capped (2 an hour, 20 a day)',
    });
    expect(fake.asked.size).toBe(0);
  });

  it('lets two senders asking one address at once spend one cap slot: the one that loses the mark takes none', async () => {
    const { fake, channels, process } = setUp({ replyMail: 'confirmed' });
    const victim = addressHash('victim@example.com');
    // One slot left this hour: the confirmation needs it, and a losing sender must not take it first.
    fake.capCounts.set(victim, 1);
    const first = replySubmitted(fake, 'victim@example.com');
    const second = replySubmitted(fake, 'victim@example.com');

    await Promise.all([process(first.id), process(second.id)]);

    expect(channels.to('parent')).toHaveLength(1);
    const reasons = [first, second].map((event) => fake.delivery(event.id, 'parent')?.lastError).sort();
    expect(reasons).toEqual([
      'awaiting confirmation (confirmation already sent in the last 30 days)',
      'awaiting confirmation (confirmation mail sent)',
    ]);
  });

  it('sends no reader mail with REPLY_MAIL=off, and the owner is told as ever', async () => {
    const { fake, channels, process } = setUp({ replyMail: 'off' });
    const event = replySubmitted(fake);

    await process(event.id);

    expect(channels.to('parent')).toEqual([]);
    expect(channels.to('owner')).toHaveLength(1);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'REPLY_MAIL=off',
    });
  });

  it('honours a suppression kept under the former hash of a +tag address, as an old unsubscribe link wrote it', async () => {
    const former = createFormerAddressHasher('test-salt-0123456789abcdef');
    const { fake, channels, process } = setUp({ formerHash: true });
    const event = replySubmitted(fake, 'reader+blog@example.com');
    fake.suppressions.add(`${former('reader+blog@example.com')}#site`);

    await process(event.id);

    expect(channels.to('parent')).toEqual([]);
    expect(fake.delivery(event.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'suppressed (the whole site)',
    });
  });
});
