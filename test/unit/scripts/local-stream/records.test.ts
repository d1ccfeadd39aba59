import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { passesOutboxFilter } from '../../../../functions/notify/stream-settings.js';
import { toLambdaRecord } from '../../../../scripts/local-stream/lambda-record.js';

const streamArn = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-11-25T00:00:00.000';

describe('toLambdaRecord', () => {
  it('gives epoch seconds, base64 binaries and the mapping ARN, as Lambda passes a record', () => {
    const record: _Record = {
      eventID: 'e1',
      eventName: 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      dynamodb: {
        ApproximateCreationDateTime: new Date('2026-11-25T17:18:00.000Z'),
        Keys: { pk: { S: 'OUTBOX#2026-11-25' }, sk: { S: 'E#1' } },
        NewImage: {
          n: { N: '7' },
          yes: { BOOL: true },
          none: { NULL: true },
          bytes: { B: new Uint8Array([0, 255]) },
          names: { SS: ['a', 'b'] },
          numbers: { NS: ['1', '2'] },
          blobs: { BS: [new Uint8Array([1]), new Uint8Array([2])] },
          list: { L: [{ S: 'x' }, { M: { inner: { B: new Uint8Array([3]) } } }] },
        },
        SequenceNumber: '000000000000000000042',
        SizeBytes: 99,
        StreamViewType: 'NEW_IMAGE',
      },
    };

    expect(toLambdaRecord(record, streamArn)).toEqual({
      eventID: 'e1',
      eventName: 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      eventSourceARN: streamArn,
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2026-11-25T17:18:00.000Z') / 1000,
        Keys: { pk: { S: 'OUTBOX#2026-11-25' }, sk: { S: 'E#1' } },
        NewImage: {
          n: { N: '7' },
          yes: { BOOL: true },
          none: { NULL: true },
          bytes: { B: 'AP8=' },
          names: { SS: ['a', 'b'] },
          numbers: { NS: ['1', '2'] },
          blobs: { BS: ['AQ==', 'Ag=='] },
          list: { L: [{ S: 'x' }, { M: { inner: { B: 'Aw==' } } }] },
        },
        SequenceNumber: '000000000000000000042',
        SizeBytes: 99,
        StreamViewType: 'NEW_IMAGE',
      },
    });
  });

  it("turns DynamoDB Local's TTL delete into AWS's: a REMOVE by the DynamoDB service, which the filter drops", () => {
    const record = {
      eventID: 'e2',
      eventName: 'UNKNOWN_TO_SDK_VERSION',
      dynamodb: { Keys: { pk: { S: 'OUTBOX#2026-10-01' }, sk: { S: 'E#2' } }, SequenceNumber: '43' },
    } as unknown as _Record;

    const lambdaRecord = toLambdaRecord(record, streamArn);

    expect(lambdaRecord.eventName).toBe('REMOVE');
    expect(lambdaRecord.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
    expect(passesOutboxFilter(lambdaRecord)).toBe(false);
  });

  it('leaves the event name out when it is one Lambda never sends', () => {
    const record = {
      eventName: 'SOMETHING_NEW',
      dynamodb: { NewImage: { entity: { S: 'outbox' }, state: { S: 'pending' } }, SequenceNumber: '44' },
    } as unknown as _Record;

    const lambdaRecord = toLambdaRecord(record, streamArn);

    expect(lambdaRecord.eventName).toBeUndefined();
    expect(passesOutboxFilter(lambdaRecord)).toBe(false);
  });
});
