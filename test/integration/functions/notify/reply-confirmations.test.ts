import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { keys } from '../../../../functions/shared/table/keys.js';
import { createReplyConfirmations } from '../../../../functions/shared/table/reply-confirmations.js';
import { createTestTable, type TestTable } from '../../../support/test-table.js';
import { createNotifier } from './notify-fixture.js';

const dayMs = 86_400_000;
const hashAddress = createAddressHasher('test-salt-0123456789abcdef');

describe('reply confirmations on DynamoDB Local', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await createTestTable();
  });
  afterAll(() => table.drop());

  it('records one confirmation mail per address in 30 days, even when senders race', async () => {
    const notifier = createNotifier(table);
    const confirmations = createReplyConfirmations(notifier.client, table.tableName);
    const hash = hashAddress('racer@example.com');
    const start = Date.parse('2026-11-25T10:00:00Z');

    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, index) => confirmations.markAsked(hash, `01EVENT${index}`, start)),
    );
    const later = await confirmations.markAsked(hash, '01LATER', start + 29 * dayMs);
    const consent = await confirmations.consent(hash, start + 29 * dayMs);
    // Past 30 days the mark is gone for the reader even before TTL deletes it, and a new one may be recorded.
    const expired = await confirmations.consent(hash, start + 30 * dayMs + 1000);
    const renewed = await confirmations.markAsked(hash, '01RENEWED', start + 31 * dayMs);

    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(later).toBe(false);
    expect(consent).toEqual({
      confirmed: false,
      asked: { eventId: expect.stringMatching(/^01EVENT/), at: start },
    });
    expect(expired).toEqual({ confirmed: false });
    expect(renewed).toBe(true);
  });

  it("takes back only its own event's mark, so a capped confirmation leaves the address free to be asked", async () => {
    const notifier = createNotifier(table);
    const confirmations = createReplyConfirmations(notifier.client, table.tableName);
    const hash = hashAddress('capped@example.com');
    const at = Date.parse('2026-11-25T10:00:00Z');

    expect(await confirmations.markAsked(hash, '01OWNMARK', at)).toBe(true);
    await confirmations.unmarkAsked(hash, '01OTHERSMARK');
    const kept = await confirmations.consent(hash, at);
    await confirmations.unmarkAsked(hash, '01OWNMARK');
    const released = await confirmations.consent(hash, at);

    expect(kept.asked?.eventId).toBe('01OWNMARK');
    expect(released).toEqual({ confirmed: false });
    expect(await confirmations.markAsked(hash, '01NEXT', at + 1000)).toBe(true);
  });

  it('replaces the first notice by the confirmation, and sends it once the reader confirmed and the event came back', async () => {
    const notifier = createNotifier(table, { REPLY_MAIL: 'confirmed' });
    const confirmations = createReplyConfirmations(notifier.client, table.tableName);
    const { eventId, replyId } = await notifier.rootAndReply('waiting+tag@example.com');

    await notifier.deliver(eventId);
    expect(notifier.to('parent').map((notice) => notice.template)).toEqual(['confirm']);
    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({
      state: 'skipped',
      awaitingConfirmation: true,
      lastError: 'awaiting confirmation (confirmation mail sent)',
    });

    await confirmations.confirm(hashAddress('waiting@example.com'), Date.now());
    expect(await confirmations.releasePending(eventId, Date.now())).toBe(true);
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'pending' });
    await notifier.deliver(eventId, 'MODIFY');

    expect(notifier.to('parent').map((notice) => [notice.template, notice.self?.id])).toEqual([
      ['confirm', undefined],
      ['reply', replyId],
    ]);
    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({ state: 'sent' });
    expect(await notifier.deliveryItem(eventId, 'parent')).not.toHaveProperty('awaitingConfirmation');
    // The owner's mail was sent once, and is not sent again.
    expect(notifier.to('owner')).toHaveLength(1);
    expect(await confirmations.releasePending(eventId, Date.now())).toBe(false);
  });

  it('sends nothing after the click when the reply was deleted meanwhile', async () => {
    const notifier = createNotifier(table, { REPLY_MAIL: 'confirmed' });
    const confirmations = createReplyConfirmations(notifier.client, table.tableName);
    const { eventId, rootId, replyId } = await notifier.rootAndReply('deleted@example.com');
    await notifier.deliver(eventId);

    await notifier.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: keys.reply('/post', rootId, replyId, false) }),
    );
    await confirmations.confirm(hashAddress('deleted@example.com'), Date.now());
    await confirmations.releasePending(eventId, Date.now());
    await notifier.deliver(eventId, 'MODIFY');

    expect(notifier.to('parent').map((notice) => notice.template)).toEqual(['confirm']);
    expect(await notifier.eventItem(eventId)).toMatchObject({
      state: 'skipped',
      lastError: 'the comment was deleted',
    });
  });

  it('hands back only a delivery that waits for a confirmation, never one skipped for another reason', async () => {
    const notifier = createNotifier(table, { REPLY_MAIL: 'off' });
    const confirmations = createReplyConfirmations(notifier.client, table.tableName);
    const { eventId } = await notifier.rootAndReply('off@example.com');
    await notifier.deliver(eventId);

    expect(await confirmations.releasePending(eventId, Date.now())).toBe(false);
    expect(await notifier.deliveryItem(eventId, 'parent')).toMatchObject({
      state: 'skipped',
      lastError: 'REPLY_MAIL=off',
    });
    expect(await notifier.eventItem(eventId)).toMatchObject({ state: 'sent' });
  });
});
