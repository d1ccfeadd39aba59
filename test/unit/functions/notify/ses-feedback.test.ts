import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSesFeedback } from '../../../../functions/notify/ses-feedback.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { snsEvent } from './lambda-events.js';

/** The keyed address hash under the test configuration's salt (test/support/test-config.ts). */
const addressHash = createAddressHasher('test-salt-0123456789abcdef');

const bounce = (bounceType: string, ...addresses: string[]) => ({
  eventType: 'Bounce',
  mail: { destination: addresses },
  bounce: {
    bounceType,
    bounceSubType: 'General',
    bouncedRecipients: addresses.map((emailAddress) => ({ emailAddress, status: '5.1.1' })),
  },
});

function setUp() {
  const suppress = vi.fn(async () => undefined);
  return {
    suppress,
    handle: createSesFeedback({ outbox: { suppress }, now: () => 42, hashAddress: addressHash }),
  };
}

describe('createSesFeedback', () => {
  afterEach(() => vi.restoreAllMocks());

  it('suppresses each permanently bounced address from the site, as a hash', async () => {
    const { suppress, handle } = setUp();

    const result = await handle(
      snsEvent(bounce('Permanent', 'Gone@Example.com', '"Someone" <other@example.com>')),
    );

    expect(result).toEqual({ suppressed: 2 });
    expect(suppress.mock.calls).toEqual([
      [addressHash('gone@example.com'), { kind: 'site' }, 'bounce', 42],
      [addressHash('other@example.com'), { kind: 'site' }, 'bounce', 42],
    ]);
  });

  it('suppresses a complaining address with the reason complaint, from event publishing or a notification', async () => {
    const { suppress, handle } = setUp();
    const complaint = (key: string) => ({
      [key]: 'Complaint',
      complaint: {
        complainedRecipients: [{ emailAddress: 'angry@example.com' }],
        complaintFeedbackType: 'abuse',
      },
    });

    await handle(snsEvent(complaint('eventType'), complaint('notificationType')));

    expect(suppress.mock.calls).toEqual([
      [addressHash('angry@example.com'), { kind: 'site' }, 'complaint', 42],
      [addressHash('angry@example.com'), { kind: 'site' }, 'complaint', 42],
    ]);
  });

  it('suppresses nobody for a transient bounce or another event', async () => {
    const { suppress, handle } = setUp();

    const result = await handle(
      snsEvent(bounce('Transient', 'full@example.com'), bounce('Undetermined', 'maybe@example.com'), {
        eventType: 'Delivery',
        delivery: { recipients: ['fine@example.com'] },
      }),
    );

    expect(result).toEqual({ suppressed: 0 });
    expect(suppress).not.toHaveBeenCalled();
  });

  it('drops a message that is not SES feedback, logging its id and not its content', async () => {
    const { suppress, handle } = setUp();
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    const result = await handle(
      snsEvent(
        'not json secret@example.com',
        { eventType: 'Bounce', bounce: 'no' },
        bounce('Permanent', 'real@example.com'),
      ),
    );

    expect(result).toEqual({ suppressed: 1 });
    expect(suppress).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls.join('\n')).toContain('message-0');
    expect(log.mock.calls.join('\n')).not.toContain('example.com');
  });

  it('lets a failed write fail the invocation, so the notification is delivered again', async () => {
    const suppress = vi.fn(async () => {
      throw new Error('throttled');
    });
    const handle = createSesFeedback({ outbox: { suppress }, now: () => 42, hashAddress: addressHash });

    await expect(handle(snsEvent(bounce('Permanent', 'gone@example.com')))).rejects.toThrow('throttled');
  });
});
