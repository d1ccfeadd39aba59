import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet, keyId } from './batch-get.js';
import { type Key, keys } from './keys.js';

/** What a new comment is about to run into, read before anything costly is done for it. */
export interface SubmitMarks {
  /** When the poster's IP last posted (its rate mark), if it has a mark. */
  readonly lastPostAt: number | undefined;
  /** The same content was posted on this url before: its duplicate mark exists. */
  readonly duplicate: boolean;
  /** `mail` is an administrator's address. */
  readonly adminMail: boolean;
}

/** What a submission is checked against: its url, content hash, IP hash and mail. */
export interface SubmitMarksQuery {
  readonly url: string;
  readonly contentHash: string;
  readonly ipHash: string;
  readonly mail: string;
}

/** Reads the marks of a submission. */
export type ReadSubmitMarks = (query: SubmitMarksQuery) => Promise<SubmitMarks>;

/**
 * Reads, in one BatchGetItem, the rate mark of the IP, the duplicate mark of the content and the
 * administrator account of the mail, so that a submission they refuse is refused before its markdown
 * is rendered or a spam service is asked. Eventually consistent, and only a forecast: the insert's
 * transaction checks the rate and duplicate marks again, and decides.
 */
export function createSubmitMarksReader(client: DynamoDBDocumentClient, tableName: string): ReadSubmitMarks {
  return async ({ url, contentHash, ipHash, mail }) => {
    const rate = keys.rate(ipHash);
    const duplicate = keys.duplicate(url, contentHash);
    const admin: Key | undefined = mail === '' ? undefined : keys.admin(mail);
    const found = await batchGet(
      client,
      tableName,
      [rate, duplicate, ...(admin ? [admin] : [])],
      ['lastPostAt'],
    );
    const lastPostAt = Number(found.get(keyId(rate))?.lastPostAt);
    return {
      lastPostAt: Number.isFinite(lastPostAt) ? lastPostAt : undefined,
      duplicate: found.has(keyId(duplicate)),
      adminMail: admin !== undefined && found.has(keyId(admin)),
    };
  };
}
