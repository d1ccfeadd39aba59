import { marshall } from '@aws-sdk/util-dynamodb';
import type {
  AttributeValue,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  ScheduledEvent,
  SNSEvent,
} from 'aws-lambda';

/** The Lambda events the notifier receives, built as AWS sends them. */

/** A stream record of `item` (DynamoDB JSON, as the stream carries it) with sequence number `sequenceNumber`. */
export function streamRecord(
  item: Record<string, unknown>,
  sequenceNumber: string,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE' = 'INSERT',
): DynamoDBRecord {
  return {
    eventID: `event-${sequenceNumber}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_800_000_000,
      Keys: marshall({ pk: item.pk, sk: item.sk }) as Record<string, AttributeValue>,
      NewImage: marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>,
      SequenceNumber: sequenceNumber,
      SizeBytes: 100,
      StreamViewType: 'NEW_IMAGE',
    },
    eventSourceARN: 'arn:aws:dynamodb:eu-west-1:123456789012:table/t/stream/2026-11-25T00:00:00.000',
  };
}

/** A stream batch of `records`. */
export const streamEvent = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

/** What EventBridge sends on a schedule. */
export const scheduledEvent: ScheduledEvent = {
  version: '0',
  id: 'schedule-1',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: '2026-11-25T17:00:00Z',
  region: 'eu-west-1',
  resources: ['arn:aws:events:eu-west-1:123456789012:rule/sweep'],
  detail: {},
};

/** An SNS event carrying `messages`, each as SES event publishing sends it (a JSON string). */
export function snsEvent(...messages: unknown[]): SNSEvent {
  return {
    Records: messages.map((message, index) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:eu-west-1:123456789012:ses-feedback:sub',
      Sns: {
        Type: 'Notification',
        MessageId: `message-${index}`,
        TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-feedback',
        Message: typeof message === 'string' ? message : JSON.stringify(message),
        Timestamp: '2026-11-25T17:00:00.000Z',
        SignatureVersion: '1',
        Signature: 'x',
        SigningCertUrl: 'https://example.com/cert',
        UnsubscribeUrl: 'https://example.com/unsubscribe',
        MessageAttributes: {},
      },
    })),
  };
}
