/**
 * The notifier as local mode runs it: built as on AWS (local-functions.ts), woken by the stream poller in
 * place of the event source mapping, and by a timer in place of the sweep's schedule.
 */
import { notifierSchedule } from '../../functions/notify/stream-settings.js';
import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import type { NotifyDependencies } from '../../functions/notify/dependencies.js';
import type { NotifyConfig } from '../../functions/notify/notify-config.js';
import type { Config } from '../../functions/shared/config.js';
import { createLocalDynamoDbClient } from '../create-table.js';
import { createLocalNotifier, type LocalNotifier } from '../local-functions.js';
import { createLocalStreamsClient } from './streams-client.js';
import { type StreamPoller, type StreamPollerOptions, startStreamPoller } from './stream-poller.js';

/** What local mode's notifier runs with. */
export interface LocalNotifierOptions {
  /** Must name DYNAMODB_ENDPOINT: the poller reads that engine's stream. */
  readonly config: Config;
  readonly notify: NotifyConfig;
  /** Parts of the notifier to swap (tests: a clock, channels). */
  readonly overrides?: Partial<NotifyDependencies>;
  readonly checkpointPath: string;
  readonly deadLetterPath: string;
  /** The poller's timings and settings (tests make them short). */
  readonly poller?: Partial<StreamPollerOptions>;
  /** How often the sweep runs (as the stack's schedule does); 0: never. */
  readonly sweepIntervalMs?: number;
  readonly log?: (message: string) => void;
}

/** A running local notifier. */
export interface RunningNotifier {
  readonly notifier: LocalNotifier;
  readonly poller: StreamPoller;
  /** Runs the sweep now, as its schedule would. */
  sweep(): Promise<void>;
  /** Stops the timer and the poller (after the batch being delivered), then closes the clients. */
  stop(): Promise<void>;
}

/** Builds the notifier and starts reading the table's stream for it. */
export async function startLocalNotifier(options: LocalNotifierOptions): Promise<RunningNotifier> {
  const { config } = options;
  const endpoint = config.DYNAMODB_ENDPOINT;
  if (!endpoint)
    throw new Error("The local notifier needs DYNAMODB_ENDPOINT: it reads DynamoDB Local's stream");
  const log = options.log ?? ((message: string) => console.error(message));
  const notifier = createLocalNotifier(config, options.notify, options.overrides);
  const dynamoDb = createLocalDynamoDbClient(endpoint);
  const streams = createLocalStreamsClient(endpoint);
  let poller: StreamPoller;
  try {
    poller = await startStreamPoller({
      dynamoDb,
      streams,
      tableName: config.TABLE_NAME,
      handler: notifier.handler,
      checkpointPath: options.checkpointPath,
      deadLetterPath: options.deadLetterPath,
      functionName: 'marginalia-notify',
      log,
      ...options.poller,
    });
  } catch (error) {
    dynamoDb.destroy();
    streams.destroy();
    throw error;
  }

  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    // One run at a time, as a schedule of a few minutes gives.
    sweeping = sweeping.then(async () => {
      try {
        await notifier.handler(scheduledEvent(process.env.AWS_REGION || 'local'));
      } catch (error) {
        log(`The notifier's sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return sweeping;
  };
  const sweepIntervalMs = options.sweepIntervalMs ?? notifierSchedule.sweepMinutes * 60_000;
  const timer = sweepIntervalMs > 0 ? setInterval(() => void sweep(), sweepIntervalMs) : undefined;
  timer?.unref();

  return {
    notifier,
    poller,
    sweep,
    async stop() {
      if (timer) clearInterval(timer);
      await poller.stop();
      await sweeping;
      dynamoDb.destroy();
      streams.destroy();
    },
  };
}

/** The event EventBridge Scheduler's rule sends the notifier. */
function scheduledEvent(region: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region,
    resources: [],
    detail: {},
  };
}
