import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.js';

/**
 * Sets outbox event `eventId` back to `pending` at `at`, so the stream hands it to the sender again: the
 * sweep counts its re-drives (`count`), a re-drive from /ui starts that count again (`reset`). False when
 * there is no such event or it is final (sent or skipped).
 */
export async function redriveEvent(
  client: DynamoDBDocumentClient,
  tableName: string,
  eventId: string,
  at: number,
  sweeps: 'count' | 'reset',
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.outboxEvent(eventId),
        // The new `updatedAt` makes the write a change even for an event left pending, so the stream's filter
        // passes it and the stream alone processes it: nobody runs an event beside it. `sweeps` counts the
        // sweep's re-drives apart from attempts (which the stream's retries also move), and keeps the next
        // sweep off it while the stream has its chance. A re-drive by hand (`byHand`, until the sender has
        // served it) tries every delivery not yet sent now, whatever its own schedule or a give-up says.
        UpdateExpression:
          sweeps === 'count'
            ? 'SET #state = :pending, #updatedAt = :at ADD #sweeps :one'
            : 'SET #state = :pending, #updatedAt = :at, #byHand = :true REMOVE #sweeps',
        // Only an existing event that is not final: one sent meanwhile is never sent again, none is made up.
        ConditionExpression: '#state IN (:pending, :failed)',
        ExpressionAttributeNames: {
          '#state': 'state',
          '#updatedAt': 'updatedAt',
          '#sweeps': 'sweeps',
          ...(sweeps === 'count' ? {} : { '#byHand': 'byHand' }),
        },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':failed': 'failed',
          ':at': at,
          ...(sweeps === 'count' ? { ':one': 1 } : { ':true': true }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
