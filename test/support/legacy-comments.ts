import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { StoredComment } from '../../functions/shared/domain/comment.js';
import { toCommentItem } from '../../functions/shared/table/comment-item.js';

/**
 * Comments for a migrate step's tests: Ann's approved comment on `/a` by default, each a second after the last
 * from `t0`, with `extra` over it.
 */
export function createCommentMaker(t0: number): (extra?: Partial<StoredComment>) => StoredComment {
  let n = 0;
  return (extra = {}) => {
    const at = t0 + ++n * 1000;
    return {
      id: ulid(at),
      url: '/a',
      nick: 'Ann',
      mail: 'ann@example.com',
      link: '',
      ua: '',
      ipHash: 'ip',
      browser: '',
      os: '',
      orig: `said ${n}`,
      html: `<p>said ${n}</p>`,
      status: 'approved',
      like: 0,
      sticky: false,
      insertedAt: at,
      ...extra,
    };
  };
}

/** Stores `comments` as a table written before a migrate step holds them: the comment items alone. */
export function storeLegacyComments(
  client: DynamoDBDocumentClient,
  tableName: string,
  comments: readonly StoredComment[],
): Promise<unknown> {
  return Promise.all(
    comments.map((stored) =>
      client.send(new PutCommand({ TableName: tableName, Item: toCommentItem(stored, stored.id) })),
    ),
  );
}
