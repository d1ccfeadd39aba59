/**
 * A stream record as Lambda hands it to a function: the streams API's record (dates as Date, binaries as
 * bytes) turned into the JSON shape of a DynamoDBStreamEvent record (epoch seconds, base64), with the
 * mapping's `eventSourceARN`.
 */
import type { AttributeValue as StreamAttributeValue, _Record } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';

/** What AWS puts in `userIdentity` of a record its TTL process wrote (a delete of an expired item). */
const timeToLiveIdentity = { type: 'Service', principalId: 'dynamodb.amazonaws.com' } as const;

/** The record Lambda would pass for `record`, read from the stream `streamArn`. */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const { eventName, userIdentity } = normaliseEvent(record);
  return {
    eventID: record.eventID,
    eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(stream.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: stream.ApproximateCreationDateTime.getTime() / 1000 }
        : {}),
      ...(stream.Keys ? { Keys: toLambdaImage(stream.Keys) } : {}),
      ...(stream.NewImage ? { NewImage: toLambdaImage(stream.NewImage) } : {}),
      ...(stream.OldImage ? { OldImage: toLambdaImage(stream.OldImage) } : {}),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    ...(userIdentity ? { userIdentity } : {}),
  };
}

/**
 * DynamoDB Local writes the delete of an expired item as `UNKNOWN_TO_SDK_VERSION` with no identity; AWS
 * writes a `REMOVE` by the DynamoDB service. Any other name the SDK does not know is kept out (undefined),
 * which no filter lets through.
 */
function normaliseEvent(record: _Record): Pick<DynamoDBRecord, 'eventName' | 'userIdentity'> {
  const name: string | undefined = record.eventName;
  if (name === 'INSERT' || name === 'MODIFY' || name === 'REMOVE') {
    return { eventName: name, userIdentity: record.userIdentity };
  }
  if (name === 'UNKNOWN_TO_SDK_VERSION' && !record.dynamodb?.NewImage) {
    return { eventName: 'REMOVE', userIdentity: { ...timeToLiveIdentity } };
  }
  return { eventName: undefined, userIdentity: record.userIdentity };
}

function toLambdaImage(image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

function toLambdaValue(value: StreamAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  throw new Error(
    `A stream record holds an attribute type this poller does not know: ${JSON.stringify(value)}`,
  );
}
