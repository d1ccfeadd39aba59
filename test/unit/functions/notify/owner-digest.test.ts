import { describe, expect, it } from 'vitest';
import { PermanentFailure } from '../../../../functions/notify/channels/permanent-failure.js';
import type { OwnerDigest } from '../../../../functions/notify/channels/owner-digest-channel.js';
import { createOwnerDigests } from '../../../../functions/notify/owner-digest.js';
import { createFakeOwnerMailHours } from './fake-mail-caps.js';

const hour = 3_600_000;
const start = Date.parse('2026-11-25T17:10:00Z');

function setUp(perHour = 2) {
  const owner = createFakeOwnerMailHours(perHour);
  const sent: OwnerDigest[] = [];
  const failures: unknown[] = [];
  let time = start;
  const digests = createOwnerDigests(
    {
      ownerMailHours: owner.store,
      ownerDigestMail: async (digest) => {
        const failure = failures.shift();
        if (failure) throw failure;
        sent.push(digest);
      },
      now: () => time,
    },
    { maxAttempts: 3 },
  );
  /** `count` owner mails at `at`. */
  const flood = async (count: number, at: number) => {
    for (let index = 0; index < count; index += 1) await owner.store.take(at);
  };
  return { owner, sent, failures, digests, flood, setTime: (at: number) => (time = at) };
}

describe('createOwnerDigests', () => {
  it('sends one digest of an hour past the cap once the hour is over, and never again', async () => {
    const { sent, digests, flood, setTime } = setUp();
    await flood(7, start);

    const during = await digests();
    setTime(start + hour);
    const after = await digests();
    const again = await digests();

    expect(during).toEqual({ sent: 0, failed: 0 });
    expect(after).toEqual({ sent: 1, failed: 0 });
    expect(again).toEqual({ sent: 0, failed: 0 });
    expect(sent).toEqual([{ hour: '2026-11-25T17', count: 5 }]);
  });

  it('sends no digest for an hour that stayed within the cap', async () => {
    const { sent, digests, flood, setTime } = setUp();
    await flood(2, start);
    setTime(start + hour);

    await digests();

    expect(sent).toEqual([]);
  });

  it('sends a mail counted after the digest was claimed by itself: the digest says what it froze', async () => {
    const { owner, sent, digests, flood, setTime } = setUp();
    await flood(3, start);
    setTime(start + hour);
    await digests();

    expect(await owner.store.take(start)).toBe('send');
    expect(sent).toEqual([{ hour: '2026-11-25T17', count: 1 }]);
  });

  it('tries a failed digest again at the next sweep, and gives up after its attempts', async () => {
    const { owner, sent, failures, digests, flood, setTime } = setUp();
    await flood(4, start);
    setTime(start + hour);
    failures.push(new Error('421 try later'), new Error('421 try later'));

    expect(await digests()).toEqual({ sent: 0, failed: 1 });
    expect(owner.hours.get('2026-11-25T17')).toMatchObject({ lastError: '421 try later' });
    expect(await digests()).toEqual({ sent: 0, failed: 1 });
    expect(await digests()).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual([{ hour: '2026-11-25T17', count: 2 }]);

    await flood(3, start + hour);
    setTime(start + 2 * hour);
    failures.push(new Error('down'), new Error('down'), new Error('down'));
    for (let run = 0; run < 4; run += 1) await digests();
    expect(owner.hours.get('2026-11-25T18')).toMatchObject({ attempts: 3, gaveUp: true });
  });

  it('gives a digest up at once when the mail is refused for good', async () => {
    const { owner, failures, digests, flood, setTime } = setUp();
    await flood(3, start);
    setTime(start + hour);
    failures.push(new PermanentFailure('SENDER_EMAIL is not set'));

    await digests();

    expect(owner.hours.get('2026-11-25T17')).toMatchObject({ gaveUp: true, attempts: 1 });
  });

  it('takes no digest once the invocation runs short of time', async () => {
    const { sent, digests, flood, setTime } = setUp();
    await flood(3, start);
    setTime(start + hour);

    expect(await digests(() => 1000)).toEqual({ sent: 0, failed: 0 });
    expect(sent).toEqual([]);
  });

  it('sends nothing without a digest mail (no mail channel)', async () => {
    const owner = createFakeOwnerMailHours(1);
    await owner.store.take(start);
    await owner.store.take(start);
    const digests = createOwnerDigests({ ownerMailHours: owner.store, now: () => start + hour });

    expect(await digests()).toEqual({ sent: 0, failed: 0 });
    expect(owner.hours.get('2026-11-25T17')?.attempts).toBe(0);
  });
});
