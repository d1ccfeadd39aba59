import type { SNSEvent } from 'aws-lambda';
import * as z from '../shared/domain/zod.js';
import { logError } from '../shared/log.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { OutboxRepository, SuppressionReason } from '../shared/table/outbox-repository.js';

/** What turning SES feedback into suppressions needs. */
export interface SesFeedbackDependencies {
  readonly outbox: Pick<OutboxRepository, 'suppress'>;
  readonly now: () => number;
  /** The keyed hash suppressions are kept under (shared/notify/address-hash.ts). */
  readonly hashAddress: HashAddress;
}

/** Takes the SNS notifications of the SES configuration set's event destination. */
export type HandleSesFeedback = (event: SNSEvent) => Promise<{ readonly suppressed: number }>;

const recipientsSchema = z.array(z.object({ emailAddress: z.string() }));

/**
 * The part of an SES event (event publishing: `eventType`; the older identity notifications:
 * `notificationType`) that suppresses addresses.
 */
const feedbackSchema = z.object({
  eventType: z.optional(z.string()),
  notificationType: z.optional(z.string()),
  bounce: z.optional(z.object({ bounceType: z.string(), bouncedRecipients: recipientsSchema })),
  complaint: z.optional(z.object({ complainedRecipients: recipientsSchema })),
});

/** The address in an SES recipient field: plain, or inside `Name <address>`. */
function bareAddress(field: string): string {
  return (/<([^<>]+)>/.exec(field)?.[1] ?? field).trim();
}

/** The addresses a feedback message suppresses, and why: permanent bounces and complaints; nothing else. */
function suppressionsOf(
  message: z.output<typeof feedbackSchema>,
): { address: string; reason: SuppressionReason }[] {
  const type = message.eventType ?? message.notificationType;
  if (type === 'Bounce' && message.bounce?.bounceType === 'Permanent') {
    return message.bounce.bouncedRecipients.map(({ emailAddress }) => ({
      address: bareAddress(emailAddress),
      reason: 'bounce',
    }));
  }
  if (type === 'Complaint' && message.complaint) {
    return message.complaint.complainedRecipients.map(({ emailAddress }) => ({
      address: bareAddress(emailAddress),
      reason: 'complaint',
    }));
  }
  // Transient bounces (a full mailbox, a greylisting server) and every other event suppress nobody.
  return [];
}

/**
 * Builds the SES feedback handler: each permanent bounce or complaint suppresses its address from the whole
 * site (kept as its keyed hash, reason `bounce` or `complaint`). A message that is not SES feedback is logged (without
 * its content) and dropped: it would fail again on every retry.
 */
export function createSesFeedback({ outbox, now, hashAddress }: SesFeedbackDependencies): HandleSesFeedback {
  return async (event) => {
    let suppressed = 0;
    for (const record of event.Records) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(record.Sns.Message);
      } catch {
        parsed = undefined;
      }
      const message = feedbackSchema.safeParse(parsed);
      if (!message.success) {
        logError('An SNS message that is not SES feedback was dropped', { messageId: record.Sns.MessageId });
        continue;
      }
      for (const { address, reason } of suppressionsOf(message.data)) {
        if (!address) continue;
        await outbox.suppress(hashAddress(address), { kind: 'site' }, reason, now());
        suppressed += 1;
      }
    }
    return { suppressed };
  };
}
