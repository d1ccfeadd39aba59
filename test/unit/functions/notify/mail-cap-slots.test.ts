import { describe, expect, it } from 'vitest';
import type { Notice } from '../../../../functions/notify/notice.js';
import { createProcessEvent } from '../../../../functions/notify/process-event.js';
import { recipientDomain } from '../../../../functions/notify/mail-cap-slots.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import type { OutboxEvent } from '../../../../functions/shared/table/outbox-event.js';
import { createFakeOwnerMailHours, createFakeSiteMailCaps } from './fake-mail-caps.js';
import { createFakeNotifyStore, notifiedComment } from './fake-notify-store.js';

const addressHash = createAddressHasher('test-salt-0123456789abcdef');
const start = Date.parse('2026-11-25T17:10:00Z');

function setUp(caps: { perHour?: number; perDay?: number; domainPerHour?: number; owner?: number } = {}) {
  const fake = createFakeNotifyStore();
  const sent: Notice[] = [];
  const site = createFakeSiteMailCaps({
    perHour: caps.perHour ?? 50,
    perDay: caps.perDay ?? 200,
    domainPerHour: caps.domainPerHour ?? 20,
  });
  const owner = createFakeOwnerMailHours(caps.owner ?? 10);
  let time = start;
  const process = createProcessEvent({
    deliveries: fake.store,
    guards: fake.guards,
    confirmations: fake.confirmations,
    siteMailCaps: site.caps,
    ownerMailHours: owner.store,
    readComments: fake.readComments,
    channels: {
      owner: async (notice) => void sent.push(notice),
      parent: async (notice) => void sent.push(notice),
    },
    notify: {
      AUTHOR_EMAIL: 'owner@example.com',
      AUTHOR_LANG: 'en',
      DISABLE_AUTHOR_NOTIFY: false,
      // Every reader mailed: the caps are under test here, not the confirmations.
      REPLY_MAIL: 'all',
      NOTIFY_CAP_PER_HOUR: 5,
      NOTIFY_CAP_PER_DAY: 20,
    },
    now: () => time,
    hashAddress: addressHash,
  });
  return { fake, sent, site, owner, process, setTime: (at: number) => (time = at) };
}

let sequence = 0;
const nextId = () => `01KAZ${String(++sequence).padStart(21, '0')}`;

/** An approved root (told to the owner), or an approved reply to a root by `parentMail` (told to both). */
function submitted(fake: ReturnType<typeof createFakeNotifyStore>, parentMail?: string): OutboxEvent {
  const id = nextId();
  const rootId = parentMail ? nextId() : undefined;
  if (rootId) fake.comments.set(rootId, notifiedComment({ id: rootId, mail: parentMail }));
  fake.comments.set(id, notifiedComment({ id, ...(rootId ? { rid: rootId, pid: rootId } : {}) }));
  const event: OutboxEvent = {
    id,
    cause: 'comment.submitted',
    at: 1,
    subject: {
      url: '/post',
      id,
      ...(rootId ? { rid: rootId, pid: rootId } : {}),
      status: 'approved',
      byAdmin: false,
    },
  };
  fake.addEvent(event);
  return event;
}

const to = (sent: Notice[], recipient: Notice['recipient']) => sent.filter((n) => n.recipient === recipient);

describe('the site-wide mail caps in processing', () => {
  it("mails the owner up to the hour's cap, then records the rest skipped into the hour's digest", async () => {
    const { fake, sent, owner, process } = setUp({ owner: 3 });
    const events = Array.from({ length: 5 }, () => submitted(fake));

    for (const event of events) await process(event.id);

    expect(to(sent, 'owner')).toHaveLength(3);
    expect(fake.delivery(events[3]!.id, 'owner')).toMatchObject({
      state: 'skipped',
      lastError: "in the hour's digest",
    });
    expect(fake.events.get(events[4]!.id)).toMatchObject({ state: 'sent' });
    expect(owner.hours.get('2026-11-25T17')).toMatchObject({ sent: 3, overflow: 2 });
  });

  it('never caps the test mail from /ui, nor counts it', async () => {
    const { fake, sent, owner, process } = setUp({ owner: 1 });
    const first = submitted(fake);
    await process(first.id);
    const test: OutboxEvent = { id: nextId(), cause: 'test', at: 1 };
    fake.addEvent(test);

    await process(test.id);

    expect(to(sent, 'owner').map((notice) => notice.template)).toEqual(['owner-new', 'test']);
    expect(owner.hours.get('2026-11-25T17')).toMatchObject({ sent: 1, overflow: 0 });
    expect(fake.delivery(test.id, 'owner')).toEqual({ state: 'sent', attempts: 1 });
  });

  it('counts a failed owner mail once: its retry takes no second slot', async () => {
    const { fake, owner, process } = setUp({ owner: 1 });
    const event = submitted(fake);
    await process(event.id);
    fake.events.set(event.id, { ...fake.events.get(event.id)!, state: 'pending', byHand: true });
    fake.deliveries.set(`${event.id}#owner`, { state: 'failed', attempts: 1, counted: true });

    await process(event.id);

    expect(owner.hours.get('2026-11-25T17')).toMatchObject({ sent: 1, overflow: 0 });
    expect(fake.delivery(event.id, 'owner')).toMatchObject({ state: 'sent' });
  });

  it('stops reader mail at the site cap of the hour, with the cap in the reason', async () => {
    const { fake, sent, process } = setUp({ perHour: 2 });
    const events = ['a@one.test', 'b@two.test', 'c@three.test'].map((mail) => submitted(fake, mail));

    for (const event of events) await process(event.id);

    expect(to(sent, 'parent').map((n) => n.to)).toEqual(['a@one.test', 'b@two.test']);
    expect(fake.delivery(events[2]!.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'site cap: 2 reader mails an hour',
    });
  });

  it('stops reader mail at the site cap of the day, across hours', async () => {
    const { fake, sent, process, setTime } = setUp({ perHour: 10, perDay: 2 });
    const events = ['a@one.test', 'b@two.test', 'c@three.test'].map((mail) => submitted(fake, mail));

    for (const [index, event] of events.entries()) {
      setTime(start + index * 3_600_000);
      await process(event.id);
    }

    expect(to(sent, 'parent')).toHaveLength(2);
    expect(fake.delivery(events[2]!.id, 'parent')).toMatchObject({
      lastError: 'site cap: 2 reader mails a day',
    });
  });

  it('stops reader mail to one domain at its cap, whatever the case of the domain, and not to another', async () => {
    const { fake, sent, process } = setUp({ domainPerHour: 2 });
    const events = ['a@Mail.test', 'b@mail.TEST', 'c@mail.test', 'd@other.test'].map((mail) =>
      submitted(fake, mail),
    );

    for (const event of events) await process(event.id);

    expect(to(sent, 'parent').map((n) => n.to)).toEqual(['a@Mail.test', 'b@mail.TEST', 'd@other.test']);
    expect(fake.delivery(events[2]!.id, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'domain cap: 2 reader mails an hour to one domain',
    });
  });

  it('takes no site slot for a reader the per-address cap already stopped', async () => {
    const { fake, site, process } = setUp();
    const events = Array.from({ length: 7 }, () => submitted(fake, 'same@one.test'));

    for (const event of events) await process(event.id);

    expect(site.counts.get('SITEMAIL|H#2026-11-25T17')).toBe(5);
    expect(fake.delivery(events[6]!.id, 'parent')).toMatchObject({
      lastError: 'capped (5 an hour, 20 a day)',
    });
  });
});

describe('recipientDomain', () => {
  it('is the part after the last @, trimmed and lower-cased', () => {
    expect(recipientDomain('"a@b"@Example.COM ')).toBe('example.com');
  });
});
