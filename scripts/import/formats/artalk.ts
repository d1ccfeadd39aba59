/**
 * Artalk's Artrans (a JSON array of flat objects, values usually strings): `rid` is the direct
 * parent (`"0"` for roots), dates `2006-01-02 15:04:05 -0700` or ISO, `page_key` a URL or path.
 * Artalk v1 (`comments.data.json`: `date`, no `is_pending`) is read too.
 */
import { jsonRows } from '../json-rows.js';
import type { InputFile, ParsedSource, ReadOptions } from '../source.js';
import { count, idOf, pathOf, text, truthy } from '../values.js';
import { commentPage, createDateReader } from './common.js';

/** Reads Artrans files. */
export function readArtalk(files: readonly InputFile[], options: ReadOptions): ParsedSource {
  const dates = createDateReader(options.sourceTimezone);
  const result: ParsedSource = { format: 'artalk', comments: [], counters: [], skipped: [], notes: [] };
  for (const file of files) {
    for (const { ref, row } of jsonRows(file)) {
      const sourceId = idOf(row.id);
      if (!sourceId) {
        result.skipped.push({ ref, reason: 'no id' });
        continue;
      }
      const parent = idOf(row.rid);
      result.comments.push({
        ref,
        sourceId,
        ...commentPage(pathOf(text(row.page_key))),
        // "0" is Artalk's "no parent"; the parent may be at any depth, flattened later.
        ...(parent && parent !== '0' ? { parentId: parent } : {}),
        nick: text(row.nick) || 'Anonymous',
        mail: text(row.email),
        link: text(row.link),
        ua: text(row.ua),
        ip: text(row.ip),
        text: text(row.content),
        status: truthy(row.is_pending) ? 'waiting' : 'approved',
        like: count(row.vote_up),
        sticky: truthy(row.is_pinned),
        insertedAt: dates.read(row.created_at) ?? dates.read(row.date),
      });
    }
  }
  result.notes.push(
    'Artrans carries no pageviews; is_collapsed, vote_down, badges, page titles and site names dropped',
  );
  result.notes.push(...dates.note());
  return result;
}
