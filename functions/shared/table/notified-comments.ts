import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ListedComment } from '../domain/comment.js';
import { type Lang, resolveLang } from '../domain/messages.js';
import { batchGet, keyId } from './batch-get.js';
import { fromCommentItem, heldBecauseAttribute, threadAttributes } from './comment-item.js';
import { type Key, keys } from './keys.js';

/** A comment as the sender reads it: what a thread shows, its mail, and the language its writer used. */
export type NotifiedComment = ListedComment & { readonly lang?: Lang };

/** Where the comment of an event is: its url and id, and for a reply its root and the comment it answers. */
export interface NotifiedPlace {
  readonly url: string;
  readonly id: string;
  readonly rid?: string;
  readonly pid?: string;
}

/** Reads the comment an event is about, and the one it answers, as they are when the notice is sent. */
export type ReadNotifiedComments = (place: NotifiedPlace) => Promise<{
  /** Undefined when it was deleted since. */
  readonly comment?: NotifiedComment;
  /** Undefined for a root, or when it was deleted since. */
  readonly parent?: NotifiedComment;
}>;

/** Both places of a comment: a root's one key; a reply's visible and held keys (its status may have moved it). */
function placesOf(url: string, id: string, rid: string | undefined): Key[] {
  if (rid === undefined || rid === id) return [keys.root(url, id)];
  return [keys.reply(url, rid, id, false), keys.reply(url, rid, id, true)];
}

/** Builds the reader on `client` and `tableName`: one consistent BatchGetItem for the comment and its parent. */
export function createNotifiedCommentsReader(
  client: DynamoDBDocumentClient,
  tableName: string,
): ReadNotifiedComments {
  return async ({ url, id, rid, pid }) => {
    const own = placesOf(url, id, rid);
    const parents = pid === undefined ? [] : placesOf(url, pid, rid);
    // Consistent: an approval (the event's cause) may have moved the reply a moment ago.
    const found = await batchGet(
      client,
      tableName,
      [...own, ...parents],
      [...threadAttributes, 'lang', heldBecauseAttribute],
      {
        consistent: true,
      },
    );
    const first = (candidates: Key[]): NotifiedComment | undefined => {
      const item = candidates.map((key) => found.get(keyId(key))).find(Boolean);
      if (!item) return undefined;
      return {
        ...fromCommentItem(item),
        ...(typeof item.lang === 'string' ? { lang: resolveLang(item.lang) } : {}),
      };
    };
    const comment = first(own);
    const parent = first(parents);
    return { ...(comment ? { comment } : {}), ...(parent ? { parent } : {}) };
  };
}
