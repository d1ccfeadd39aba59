import { describe, expect, it } from 'vitest';
import type { AccountMailEvent } from '../../../../functions/notify/channels/account-mail-channel.js';
import { PermanentFailure } from '../../../../functions/notify/channels/permanent-failure.js';
import { createProcessEvent } from '../../../../functions/notify/process-event.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { createFakeNotifyStore } from './fake-notify-store.js';

const at = 1_800_000_000_000;
const eventId = '01KAAAAAAAAAAAAAAAAAAAAAAA';

function setUp(answer: (event: AccountMailEvent) => Promise<'sent' | { skip: string }>) {
  const fake = createFakeNotifyStore();
  const asked: AccountMailEvent[] = [];
  let time = at;
  const process = createProcessEvent({
    deliveries: fake.store,
    guards: fake.guards,
    confirmations: fake.confirmations,
    readComments: fake.readComments,
    channels: {},
    accountMail: async (event) => {
      asked.push(event);
      return answer(event);
    },
    notify: {
      AUTHOR_EMAIL: 'owner@example.com',
      AUTHOR_LANG: 'en',
      DISABLE_AUTHOR_NOTIFY: false,
      NOTIFY_CAP_PER_HOUR: 2,
      NOTIFY_CAP_PER_DAY: 20,
      REPLY_MAIL: 'all',
    },
    now: () => time,
    hashAddress: createAddressHasher('test-salt-0123456789abcdef'),
    retryDelaysMs: [60_000],
  });
  fake.events.set(eventId, {
    id: eventId,
    cause: 'account.mail',
    at,
    account: { accountId: '01ACCOUNT', mail: 'confirm', lang: 'en' },
    state: 'pending',
    attempts: 0,
  });
  return { fake, asked, process, advance: (ms: number) => (time += ms) };
}

describe('processing an account mail event', () => {
  it('sends its one mail once, records it, and sends nothing more when the event comes again', async () => {
    const { fake, asked, process } = setUp(async () => 'sent');

    expect(await process(eventId)).toEqual({ final: true, state: 'sent' });
    expect(await process(eventId)).toEqual({ final: true, state: 'sent' });

    expect(asked).toEqual([
      { id: eventId, at, account: { accountId: '01ACCOUNT', mail: 'confirm', lang: 'en' } },
    ]);
    expect(fake.delivery(eventId, 'account')).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('records why a mail was skipped', async () => {
    const { fake, process } = setUp(async () => ({ skip: 'the account is banned' }));

    expect(await process(eventId)).toEqual({ final: true, state: 'skipped' });
    expect(fake.events.get(eventId)).toMatchObject({ state: 'skipped', lastError: 'the account is banned' });
  });

  it('retries a failed mail on its schedule, and gives up on a permanent refusal', async () => {
    let failure: Error = new Error('connection refused');
    const { fake, process, advance, asked } = setUp(async () => {
      throw failure;
    });

    expect(await process(eventId)).toEqual({ final: true, state: 'failed' });
    expect(fake.events.get(eventId)).toMatchObject({ state: 'failed', retryAt: at + 60_000 });
    advance(60_000);
    fake.events.set(eventId, { ...fake.events.get(eventId)!, state: 'pending' });
    failure = new PermanentFailure('550 no such user <ann@example.com>');
    await process(eventId);

    expect(asked).toHaveLength(2);
    expect(fake.events.get(eventId)).toMatchObject({ state: 'failed', gaveUp: true });
    expect(fake.events.get(eventId)?.lastError).not.toContain('ann@example.com');
  });
});
