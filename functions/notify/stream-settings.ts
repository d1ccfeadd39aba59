import { entities } from '../shared/table/keys.js';

/**
 * How the notifier reads the table's stream, written once: the CDK stack's event source mapping
 * (lib/) and local mode's poller (scripts/local-stream/) both take these, so local mode behaves as AWS does.
 */
export const streamSettings = {
  /** Records per invocation: bounds the time one invocation spends sending. */
  batchSize: 10,
  /** Seconds Lambda may wait to fill a batch: a notice leaves within seconds of its write. */
  maxBatchingWindowSeconds: 1,
  /** Retries of a failing batch (split in halves first, which costs no retry). */
  retryAttempts: 5,
  /** A record older than this goes to the on-failure queue; its event stays failed or pending in the table. */
  maxRecordAgeSeconds: 6 * 3600,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
} as const;

/** How often the sweep re-drives events left pending or failed, and how long one run of the notifier may take. */
export const notifierSchedule = {
  sweepMinutes: 10,
  timeoutSeconds: 60,
} as const;

/**
 * The one filter pattern of the mapping: an outbox event put or updated into `pending` (written by its
 * cause, or set back by a re-drive). Deliveries, suppressions and the sender's own state changes
 * (`sent`, `failed`) wake nobody. Lambda's filter syntax, on the record's `dynamodb` key.
 */
export const outboxFilterPattern = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { NewImage: { entity: { S: [entities.outbox] }, state: { S: ['pending'] } } },
} as const;

/** A stream record as far as the filter looks at it. */
export interface FilterableRecord {
  readonly eventName?: string;
  readonly dynamodb?: { readonly NewImage?: Record<string, { readonly S?: string } | undefined> };
}

/** The same filter as a predicate, for local mode's poller (tested against the pattern above). */
export function passesOutboxFilter(record: FilterableRecord): boolean {
  const image = record.dynamodb?.NewImage;
  return (
    (outboxFilterPattern.eventName as readonly string[]).includes(record.eventName ?? '') &&
    image?.entity?.S === entities.outbox &&
    image.state?.S === 'pending'
  );
}
