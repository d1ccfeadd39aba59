/**
 * Valine and Waline-on-LeanCloud data as the LeanCloud console exports it: `<Class>.N.jsonl` with
 * a `#filetype` header (since 2020), or `{"results": [...], "className"}` (before), or a bare array.
 * Every Valine version: 1.1 (no `insertedAt`), 1.2 (`rid` but no `pid`), 1.3-1.4 (HTML, `pid`),
 * 1.5 (markdown); Valine-Admin's hidden rows (`isSpam`, `ACL *.read=false`); Waline's added fields, and
 * its `Users` class (accounts: waline-users.ts), which comments name by `user_id` (a string here).
 */
import { jsonRows, leanCloudClass, type Row } from '../json-rows.js';
import type { InputFile, ParsedSource, ReadOptions, SourceAccount } from '../source.js';
import { readWalineUser } from './waline-users.js';
import { count, decodePath, encodedPath, idOf, text, truthy } from '../values.js';
import { commentPage, countersOf, createDateReader, rowStatus, splitCounters } from './common.js';

type LeanClass = 'Comment' | 'Counter' | 'Users' | 'other';

function classOf(file: InputFile, rows: readonly Row[]): LeanClass {
  const named = leanCloudClass(file);
  if (named === 'Comment' || named === 'Counter' || named === 'Users') return named;
  const first = rows[0]?.row;
  // Valine's class names are configurable: recognise the rows by their fields.
  if (first && 'comment' in first && 'url' in first) return 'Comment';
  if (first && 'time' in first && 'url' in first) return 'Counter';
  if (first && 'email' in first && 'password' in first) return 'Users';
  return 'other';
}

/** Reads LeanCloud class exports. */
export function readLeanCloud(files: readonly InputFile[], options: ReadOptions): ParsedSource {
  const dates = createDateReader(options.sourceTimezone);
  const result: ParsedSource = { format: 'valine', comments: [], counters: [], skipped: [], notes: [] };
  const byClass: Record<LeanClass, Row[]> = { Comment: [], Counter: [], Users: [], other: [] };
  for (const file of files) {
    const rows = jsonRows(file);
    const kind = classOf(file, rows);
    byClass[kind].push(...rows);
    if (kind === 'other') result.notes.push(`${file.name}: not a Comment, Counter or Users class, not read`);
  }
  const users = new Map(byClass.Users.map(({ row }) => [idOf(row.objectId) ?? '', row]));
  const accounts: SourceAccount[] = [];
  for (const { ref, row } of byClass.Users) {
    const read = readWalineUser(ref, row, (value) => dates.read(value));
    if ('reason' in read) result.skipped.push(read);
    else accounts.push(read);
  }
  const dropped = new Set<string>();

  for (const { ref, row } of byClass.Comment) {
    const sourceId = idOf(row.objectId);
    if (!sourceId) {
      result.skipped.push({ ref, reason: 'no objectId' });
      continue;
    }
    // Valine-Admin's hidden rows (isSpam, ACL) stay hidden; Waline's rows keep their status.
    const status = rowStatus(row);
    if (!status) {
      result.skipped.push({ ref, reason: `unknown status "${text(row.status)}"` });
      continue;
    }
    for (const field of ['QQAvatar', 'isNotified']) if (field in row) dropped.add(field);
    const userSourceId = idOf(row.user_id);
    const user = users.get(userSourceId ?? '\u0000');
    const pid = idOf(row.pid);
    const rid = idOf(row.rid);
    result.comments.push({
      ref,
      sourceId,
      // Valine stores decodeURI(path); old rows may still be encoded.
      ...commentPage(text(row.url)),
      // Valine 1.2 wrote only `rid`: the reply answers the root.
      ...(pid || rid ? { parentId: pid ?? rid } : {}),
      ...(rid ? { rootId: rid } : {}),
      nick: text(user?.display_name) || text(row.nick) || 'Anonymous',
      mail: text(user?.email) || text(row.mail),
      link: text(user?.url) || text(row.link),
      ua: text(row.ua),
      ip: text(row.ip),
      text: text(row.comment),
      status,
      like: count(row.like),
      sticky: truthy(row.sticky),
      // Never createdAt first: a re-imported class has the re-import time there. Valine 1.1 has only createdAt.
      insertedAt: dates.read(row.insertedAt) ?? dates.read(row.createdAt),
      ...(userSourceId ? { userSourceId } : {}),
    });
  }
  if (dropped.size > 0)
    result.notes.push(`fields with no place in the model, dropped: ${[...dropped].join(', ')}`);

  let titles = 0;
  for (const { ref, row } of byClass.Counter) {
    const raw = text(row.url || row.xid);
    if ('title' in row) titles++;
    const { time, reactions } = splitCounters(countersOf(row));
    // The widget asks pageviews under location.pathname (encoded) and reactions under the decoded path.
    result.counters.push({ ref, rawUrl: raw, url: encodedPath(raw), counts: time });
    if (Object.keys(reactions).length > 0) {
      result.counters.push({ ref, rawUrl: raw, url: decodePath(raw), counts: reactions });
    }
  }
  if (titles > 0) result.notes.push(`${titles} Counter titles dropped: pages have no title in Marginalia`);
  result.notes.push(...dates.note());
  return accounts.length > 0 ? { ...result, accounts } : result;
}
