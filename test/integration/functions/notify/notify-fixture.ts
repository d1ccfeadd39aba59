import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import {
  createNotifyDependencies,
  type NotifyDependencies,
} from '../../../../functions/notify/dependencies.js';
import type { Notice } from '../../../../functions/notify/notice.js';
import { loadNotifyConfig } from '../../../../functions/notify/notify-config.js';
import { createNotifyFunction } from '../../../../functions/notify/notify-function.js';
import type { StoredComment } from '../../../../functions/shared/domain/comment.js';
import { createDocumentClient } from '../../../../functions/shared/dynamodb-client/client.js';
import { keys, type RecipientKind } from '../../../../functions/shared/table/keys.js';
import { submitItems } from '../../../../functions/shared/table/submit-items.js';
import { transactWrite } from '../../../../functions/shared/table/transact.js';
import { testConfig } from '../../../support/test-config.js';
import type { TestTable } from '../../../support/test-table.js';
import { streamEvent, streamRecord } from '../../../unit/functions/notify/lambda-events.js';

/** Channels that record each notice, or throw while their kind is in `failing`. */
export function recordingChannels() {
  const sent: Notice[] = [];
  const failing = new Map<RecipientKind, string>();
  const channel = (kind: RecipientKind) => async (notice: Notice) => {
    const error = failing.get(kind);
    if (error !== undefined) throw new Error(error);
    sent.push(notice);
  };
  return {
    sent,
    failing,
    channels: { owner: channel('owner'), parent: channel('parent'), webhook: channel('webhook') },
    to: (kind: RecipientKind) => sent.filter((notice) => notice.recipient === kind),
  };
}

/**
 * The notifier over `table`, wired as the handler wires it (createNotifyDependencies) but with recording
 * channels and a clock the test moves; `env` adds notification settings (the site-wide caps are high unless given).
 */
export function createNotifier(table: TestTable, env: Record<string, string> = {}) {
  const config = testConfig({
    TABLE_NAME: table.tableName,
    DYNAMODB_ENDPOINT: table.endpoint,
    DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
    DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
  });
  // Readers mailed without confirming (REPLY_MAIL=all) unless `env` says otherwise: these tests are about
  // the sender's storage, and the confirmation's own tests set REPLY_MAIL=confirmed.
  const notify = loadNotifyConfig({
    AUTHOR_EMAIL: 'owner@example.com',
    REPLY_MAIL: 'all',
    // The tests of a file share one table and hour: the site-wide caps (tested on their own) stay out of the way.
    NOTIFY_SITE_CAP_PER_HOUR: '100000',
    NOTIFY_SITE_CAP_PER_DAY: '1000000',
    NOTIFY_DOMAIN_CAP_PER_HOUR: '100000',
    AUTHOR_NOTIFY_CAP_PER_HOUR: '10000',
    ...env,
  });
  const recording = recordingChannels();
  const clock = { offsetMs: 0 };
  const dependencies: NotifyDependencies = createNotifyDependencies(config, notify, {
    channels: recording.channels,
    now: () => Date.now() + clock.offsetMs,
  });
  const client = createDocumentClient({ endpoint: table.endpoint });
  const tableName = table.tableName;
  const handler = createNotifyFunction(dependencies);

  /** The item of event `eventId` as it stands. */
  const eventItem = async (eventId: string) =>
    (
      await client.send(
        new GetCommand({ TableName: tableName, Key: keys.outboxEvent(eventId), ConsistentRead: true }),
      )
    ).Item;

  /** The stream record of event `eventId`'s item as it stands (Lambda retries deliver the same record again). */
  async function recordOf(eventId: string, eventName: 'INSERT' | 'MODIFY' = 'INSERT') {
    const item = await eventItem(eventId);
    if (!item) throw new Error(`no event ${eventId}`);
    return streamRecord(item, ulid(), eventName);
  }

  /** Stores `comment` through the submit transaction (with its outbox event); returns the event's id. */
  async function store(comment: Partial<StoredComment> & { id: string }): Promise<string> {
    const stored: StoredComment = {
      url: '/post',
      nick: 'Reader',
      mail: 'reader@example.com',
      link: '',
      ua: '',
      ipHash: 'ip',
      browser: '',
      os: '',
      orig: 'Hello',
      html: '<p>Hello</p>',
      status: 'approved',
      like: 0,
      sticky: false,
      insertedAt: Date.now(),
      ...comment,
    };
    const eventId = ulid();
    const { items } = submitItems(tableName, stored, { contentHash: randomUUID() }, eventId);
    const outcome = await transactWrite(client, { TransactItems: items });
    if (!outcome.ok) throw new Error(`the submit transaction was refused: ${outcome.failedConditions}`);
    return eventId;
  }

  return {
    ...recording,
    store,
    /** A root by `mail` (in `lang`) and an approved reply to it by another reader, with the reply's event. */
    async rootAndReply(mail: string, lang: 'en' | 'zh-CN' = 'en') {
      const rootId = ulid();
      await store({ id: rootId, mail, lang });
      const replyId = ulid();
      const eventId = await store({
        id: replyId,
        rid: rootId,
        pid: rootId,
        mail: `replier-${replyId}@example.com`,
      });
      return { rootId, replyId, eventId };
    },
    dependencies,
    clock,
    client,
    handler,
    eventItem,
    deliveryItem: async (eventId: string, recipient: RecipientKind) =>
      (
        await client.send(
          new GetCommand({
            TableName: tableName,
            Key: keys.delivery(eventId, recipient),
            ConsistentRead: true,
          }),
        )
      ).Item,
    recordOf,
    /** Delivers event `eventId` to the notifier as the stream would, its item as it stands the new image. */
    async deliver(eventId: string, eventName: 'INSERT' | 'MODIFY' = 'INSERT') {
      return handler(streamEvent(await recordOf(eventId, eventName)));
    },
    /** Every outbox item (events, deliveries) of today and yesterday. */
    async outboxItems() {
      const days = [0, 1].map((back) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10));
      const items: Record<string, unknown>[] = [];
      for (const day of days) {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.outboxPartition(day) },
            ConsistentRead: true,
          }),
        );
        items.push(...(output.Items ?? []));
      }
      return items;
    },
  };
}

/** A new comment id (a ULID, as the submit route makes them). */
export const newId = () => ulid();
