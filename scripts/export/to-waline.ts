/**
 * Table items to Waline's admin export (`waline.json`, the `/api/db` data), so a site can leave as
 * easily as it came. Comments keep Marginalia's ids as `objectId`; an import of the file reuses them.
 * Accounts go to `Users` without their secrets (users-row.ts); comments name theirs by `user_id`.
 */
import { counterNames } from '../../functions/shared/domain/counters.js';
import { fromCommentItem } from '../../functions/shared/table/comment-item.js';
import { entities } from '../../functions/shared/table/keys.js';
import { storedCount } from '../../functions/shared/table/stored-count.js';
import { toUsersRow } from './users-row.js';

/** Waline's export file. */
export interface WalineExport {
  type: 'waline';
  version: 1;
  time: number;
  tables: ['Comment', 'Counter', 'Users'];
  data: {
    Comment: Record<string, unknown>[];
    Counter: Record<string, unknown>[];
    Users: Record<string, unknown>[];
  };
}

/** Builds the export of `items` (every item of the table, in any order) at time `now`. */
export function toWalineExport(items: Iterable<Record<string, unknown>>, now: number): WalineExport {
  const comments: Record<string, unknown>[] = [];
  const counters: Record<string, unknown>[] = [];
  const users: Record<string, unknown>[] = [];
  for (const item of items) {
    if (item.entity === entities.account) {
      users.push(toUsersRow(item));
      continue;
    }
    if (item.entity === entities.comment) {
      const comment = fromCommentItem(item);
      const at = new Date(comment.insertedAt).toISOString();
      comments.push({
        objectId: comment.id,
        nick: comment.nick,
        mail: comment.mail,
        link: comment.link,
        url: comment.url,
        comment: comment.orig,
        ua: typeof item.ua === 'string' ? item.ua : '',
        // Only a salted hash of the IP is stored: the raw address cannot be given back, the hash
        // goes in a field of its own, which an import into Marginalia keeps as it is.
        ip: '',
        ...(comment.ipHash ? { ipHash: comment.ipHash } : {}),
        insertedAt: at,
        createdAt: at,
        updatedAt: at,
        status: comment.status,
        like: comment.like,
        sticky: comment.sticky ? 1 : null,
        pid: comment.pid ?? null,
        rid: comment.rid ?? null,
        // The author's account (Waline's Users.objectId), for a comment a signed-in account wrote.
        user_id: typeof item.userId === 'string' && item.userId !== '' ? item.userId : null,
      });
    } else if (item.entity === entities.pageCounters && typeof item.url === 'string') {
      const counts = Object.fromEntries(counterNames.map((name) => [name, storedCount(item[name])]));
      if (Object.values(counts).every((value) => value === 0)) continue;
      counters.push({ objectId: counters.length + 1, url: item.url, ...counts });
    }
  }
  comments.sort((a, b) => String(a.objectId).localeCompare(String(b.objectId)));
  counters.sort((a, b) => String(a.url).localeCompare(String(b.url)));
  counters.forEach((counter, i) => (counter.objectId = i + 1));
  users.sort((a, b) => String(a.objectId).localeCompare(String(b.objectId)));
  return {
    type: 'waline',
    version: 1,
    time: now,
    tables: ['Comment', 'Counter', 'Users'],
    data: { Comment: comments, Counter: counters, Users: users },
  };
}
