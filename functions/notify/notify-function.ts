import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  ScheduledEvent,
  SNSEvent,
} from 'aws-lambda';
import { logError, setRequestId } from '../shared/log.js';
import type { NotifyDependencies } from './dependencies.js';
import { createOwnerDigests } from './owner-digest.js';
import { createProcessEvent, keptError } from './process-event.js';
import { createSesFeedback } from './ses-feedback.js';
import { passesOutboxFilter } from './stream-settings.js';
import { createSweep } from './sweep.js';

/** Everything that wakes the notifier: the table's stream, the sweep's schedule, SES feedback through SNS. */
export type NotifyInvocation = DynamoDBStreamEvent | ScheduledEvent | SNSEvent;

/** What the notifier reads of the Lambda context (local mode's sweep passes none: it has no deadline). */
export interface NotifyContext {
  readonly awsRequestId?: string;
  /** Milliseconds left of this invocation: the sweep stops taking events when it runs short. */
  readonly getRemainingTimeInMillis?: () => number;
}

/** The notifier: a stream batch answers its partial failures; a schedule sweeps; SNS suppresses addresses. */
export interface NotifyFunction {
  (event: DynamoDBStreamEvent, context?: NotifyContext): Promise<DynamoDBBatchResponse>;
  (event: ScheduledEvent | SNSEvent, context?: NotifyContext): Promise<void>;
}

const isScheduled = (event: NotifyInvocation): event is ScheduledEvent =>
  'source' in event && event.source === 'aws.events' && event['detail-type'] === 'Scheduled Event';

const isSns = (event: NotifyInvocation): event is SNSEvent =>
  'Records' in event && event.Records.length > 0 && event.Records.every((record) => 'Sns' in record);

const isStream = (event: NotifyInvocation): event is DynamoDBStreamEvent =>
  'Records' in event && event.Records.every((record) => 'dynamodb' in record || 'eventSource' in record);

/** The outbox event a stream record names (`eventId` on the item; keys.ts never needs to be parsed back). */
const eventIdOf = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.eventId?.S;

/**
 * Builds the notifier's one entry point. A stream batch: each record that passes the mapping's filter (an
 * outbox event put or set back to pending) is processed, all at once. A failed delivery does not fail its
 * record (it keeps its own retry schedule, which the sweep serves): a record stuck in the stream's retries
 * would hold back every record after it on the shard, other readers' mail among them. Only a record whose
 * processing broke (the table unreachable) is answered as a batch item failure, so Lambda retries it
 * (bisecting) and finally sends it to the on-failure queue, while its event stays for the sweep and `/ui`. A scheduled event runs the sweep (which sets events back to pending for the stream, within the
 * invocation's time), then sends the owner's digests of past hours. An SNS event is SES feedback (bounces, complaints).
 */
export function createNotifyFunction(dependencies: NotifyDependencies): NotifyFunction {
  const processEvent = createProcessEvent(dependencies);
  const sweep = createSweep(dependencies);
  const sesFeedback = createSesFeedback(dependencies);
  const ownerDigests = createOwnerDigests(dependencies);

  async function processRecord(record: DynamoDBRecord): Promise<boolean> {
    if (!passesOutboxFilter(record)) return true;
    const eventId = eventIdOf(record);
    if (!eventId) return true;
    try {
      return (await processEvent(eventId)).final;
    } catch (error) {
      logError('An outbox event could not be processed', { eventId, error: keptError(error) });
      return false;
    }
  }

  async function handle(
    event: NotifyInvocation,
    context?: NotifyContext,
  ): Promise<DynamoDBBatchResponse | void> {
    setRequestId(context?.awsRequestId);
    if (isScheduled(event)) {
      const remaining = context?.getRemainingTimeInMillis;
      const report = await sweep(remaining && (() => remaining.call(context)));
      if (report.deferred > 0)
        logError('The sweep ran short of time; the next run takes the rest', { ...report });
      // Then the owner's digests of the hours past AUTHOR_NOTIFY_CAP_PER_HOUR (owner-digest.ts).
      await ownerDigests(remaining && (() => remaining.call(context)));
      return;
    }
    if (isSns(event)) {
      await sesFeedback(event);
      return;
    }
    if (isStream(event)) {
      const done = await Promise.all(event.Records.map(processRecord));
      return {
        batchItemFailures: event.Records.flatMap((record, index) =>
          done[index] ? [] : [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }],
        ),
      };
    }
    throw new Error('The notifier was invoked with an event it does not know');
  }

  return handle as NotifyFunction;
}
