import { accountAttributes } from '../domain/account.js';
import { normalizeAddress } from '../domain/normalize-address.js';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, keyId } from './batch-get.js';
import { firstCommentAttribute } from './counter-deltas.js';
import { attributes, entities, type Key, keys } from './keys.js';

/** What a new comment is about to run into, read before anything costly is done for it. */
export interface SubmitMarks {
  /** When the poster's IP last posted (its rate mark), if it has a mark. */
  readonly lastPostAt: number | undefined;
  /** The same content was posted on this url before: its duplicate mark exists. */
  readonly duplicate: boolean;
  /** `mail` is an administrator's address. */
  readonly adminMail: boolean;
  /** An administrator approved a comment from the address `trustHash` names: its trust mark exists. */
  readonly trusted: boolean;
  /** When the article got its first comment (its page counters), when asked for and known. */
  readonly firstCommentAt: number | undefined;
}

/** What a submission is checked against: its url, content hash, IP hash and mail. */
export interface SubmitMarksQuery {
  readonly url: string;
  readonly contentHash: string;
  readonly ipHash: string;
  readonly mail: string;
  /** The keyed hash of the mail, when its trust mark matters (`COMMENT_AUDIT=first`, a plain address). */
  readonly trustHash?: string;
  /** Read the article's first-comment time too (`READONLY_AGE` is set). */
  readonly withFirstCommentAt?: boolean;
}

/** Reads the marks of a submission. */
export type ReadSubmitMarks = (query: SubmitMarksQuery) => Promise<SubmitMarks>;

/**
 * Reads, in one BatchGetItem, the rate mark of the IP, the duplicate mark of the content, the
 * claim of the mail by an account (with the account's type), and when asked the trust mark of the mail and the article's page
 * counters (its first-comment time), so that a submission they refuse is refused before its markdown
 * is rendered or a spam service is asked, and none costs a request of its own. Eventually consistent,
 * and only a forecast: the insert's transaction checks the rate and duplicate marks again, and decides.
 */
export function createSubmitMarksReader(client: DynamoDBDocumentClient, tableName: string): ReadSubmitMarks {
  return async ({ url, contentHash, ipHash, mail, trustHash, withFirstCommentAt }) => {
    const rate = keys.rate(ipHash);
    const duplicate = keys.duplicate(url, contentHash);
    // The address's claim names its account's type: only an administrator's address is refused to visitors.
    const admin: Key | undefined = mail === '' ? undefined : keys.accountEmail(normalizeAddress(mail));
    const trust: Key | undefined = trustHash === undefined ? undefined : keys.trust(trustHash);
    const page: Key | undefined = withFirstCommentAt ? keys.pageCounters(url) : undefined;
    const found = await batchGet(
      client,
      tableName,
      [rate, duplicate, ...[admin, trust, page].filter((key): key is Key => key !== undefined)],
      ['lastPostAt', firstCommentAttribute, accountAttributes.type],
    );
    const lastPostAt = Number(found.get(keyId(rate))?.lastPostAt);
    const firstCommentAt = page ? Number(found.get(keyId(page))?.[firstCommentAttribute]) : Number.NaN;
    return {
      lastPostAt: Number.isFinite(lastPostAt) ? lastPostAt : undefined,
      duplicate: found.has(keyId(duplicate)),
      adminMail: admin !== undefined && found.get(keyId(admin))?.[accountAttributes.type] === 'administrator',
      trusted: trust !== undefined && found.has(keyId(trust)),
      // An article without the attribute (no comment yet, or not migrated yet) has no age: it is open.
      firstCommentAt: Number.isFinite(firstCommentAt) ? firstCommentAt : undefined,
    };
  };
}

/** Counts a refused submission against its IP's rate, as a post would be counted. */
export type MarkRefusedPost = (mark: { ipHash: string; at: number; windowMs: number }) => Promise<void>;

/**
 * Writes the IP's rate mark for a submission refused for what it revealed (an administrator's mail), so
 * that probing which addresses are administrators' costs one post's wait per try, like posting. The same
 * condition as the insert's: a younger mark is kept.
 */
export function createRefusedPostMarker(client: DynamoDBDocumentClient, tableName: string): MarkRefusedPost {
  return async ({ ipHash, at, windowMs }) => {
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.rate(ipHash),
            entity: entities.rate,
            lastPostAt: at,
            [attributes.expiresAt]: Math.ceil((at + windowMs) / 1000),
          },
          // Only over a mark older than the window (or none): TTL deletion lags, so the time is compared.
          ConditionExpression: 'attribute_not_exists(pk) OR lastPostAt <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': at - windowMs },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  };
}
