/**
 * Twikoo's admin export (`twikoo-comment.json`, `twikoo-counter.json`): a JSON array, JSON Lines
 * (CloudBase console), `{code, data}` (API backups), Extended JSON (`{$oid}`, `{$numberLong}`), D1
 * rows (`pid: ""`, likes as JSON strings). `uid` and voter uids are tokens: never read.
 */
import { jsonRows } from '../json-rows.js';
import type { InputFile, ParsedSource, ReadOptions } from '../source.js';
import { idOf, text, truthy } from '../values.js';
import { commentPage, countersOf, createDateReader, rowStatus } from './common.js';

/** Voter ids of `like` (before v1.6.45) or `ups` (after), as an array or a JSON string (D1). */
function voters(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }
  return [];
}

/** Reads Twikoo exports. */
export function readTwikoo(files: readonly InputFile[], options: ReadOptions): ParsedSource {
  const dates = createDateReader(options.sourceTimezone);
  const result: ParsedSource = { format: 'twikoo', comments: [], counters: [], skipped: [], notes: [] };
  let downs = 0;
  let titles = 0;
  for (const file of files) {
    for (const { ref, row } of jsonRows(file)) {
      if (!('comment' in row) && 'time' in row) {
        if ('title' in row) titles++;
        // Twikoo keys counters by the undecoded location.pathname, as the Waline widget sends pageviews.
        const url = text(row.url);
        result.counters.push({ ref, rawUrl: url, url, counts: countersOf({ time: row.time }) });
        continue;
      }
      const sourceId = idOf(row._id);
      if (!sourceId) {
        result.skipped.push({ ref, reason: 'no _id' });
        continue;
      }
      // isSpam is also Twikoo's "pending" (manual review): hidden either way, approvable by an admin.
      const status = rowStatus(row);
      if (!status) {
        result.skipped.push({ ref, reason: `unknown status "${text(row.status)}"` });
        continue;
      }
      const pid = idOf(row.pid);
      const rid = idOf(row.rid);
      if (voters(row.downs).length > 0) downs++;
      result.comments.push({
        ref,
        sourceId,
        // Twikoo keeps the percent-encoded pathname; the Waline widget asks for comments decoded.
        ...commentPage(text(row.url)),
        ...(pid || rid ? { parentId: pid ?? rid } : {}),
        ...(rid ? { rootId: rid } : {}),
        nick: text(row.nick) || 'Anonymous',
        mail: text(row.mail),
        link: text(row.link),
        ua: text(row.ua),
        ip: text(row.ip),
        text: text(row.comment),
        status,
        like: new Set([...voters(row.ups), ...voters(row.like)].map(String)).size,
        sticky: truthy(row.top),
        insertedAt: dates.read(row.created) ?? dates.read(row.updated),
      });
    }
  }
  result.notes.push('Twikoo uid and voter tokens are never stored; likes become bare counts');
  if (downs > 0) result.notes.push(`${downs} comments had down-votes: the model has none, dropped`);
  if (titles > 0) result.notes.push(`${titles} counter titles dropped: pages have no title in Marginalia`);
  result.notes.push(...dates.note());
  return result;
}
