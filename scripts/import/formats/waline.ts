/**
 * Waline's admin export (`waline.json`, the `/api/db` data): any storage's ids (SQL integers,
 * LeanCloud/Mongo hex strings), dates (naive local, ISO, `{__type:'Date'}`), `null`s, `like: true`,
 * sticky as 0/1, registered users (`Users`, brought over as accounts: waline-users.ts) whose comments
 * name them by `user_id` and whose nick/mail/link are copied onto them, and, from LeanCloud
 * storage, Valine-era rows that Valine-Admin hid (`isSpam`, `ACL`) with no `status`.
 */
import {
  BadInputError,
  type InputFile,
  type ParsedSource,
  type ReadOptions,
  type SourceAccount,
  type SourceComment,
} from '../source.js';
import { readWalineUser } from './waline-users.js';
import { wholeJson } from '../json-rows.js';
import { count, idOf, text, truthy } from '../values.js';
import { isOwnId } from '../import-id.js';
import { commentPage, countersOf, createDateReader, rowStatus } from './common.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `ipHash` a Marginalia export adds to its rows (a salted hash, base64url), or undefined. */
const ipHashOf = (value: unknown) =>
  typeof value === 'string' && /^[\w-]{16,64}$/.test(value) ? value : undefined;

/** The export inside `value`: the file itself, or the raw `{errno, data}` response body. */
export function walineDocument(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'waline') return value;
  if (isObject(value.data) && value.data.type === 'waline') return value.data;
  return undefined;
}

/** Reads Waline exports. */
export function readWaline(files: readonly InputFile[], options: ReadOptions): ParsedSource {
  const dates = createDateReader(options.sourceTimezone);
  const accounts: SourceAccount[] = [];
  const result: ParsedSource = {
    format: 'waline',
    comments: [],
    counters: [],
    accounts,
    skipped: [],
    notes: [],
  };
  let rows = 0;
  let ownRows = 0;
  for (const file of files) {
    const document = walineDocument(wholeJson(file));
    if (!document) throw new BadInputError(`${file.name}: not a Waline export (no "type": "waline")`);
    const data = document.data;
    if (!isObject(data)) throw new BadInputError(`${file.name}: "data" must be an object of tables`);
    const table = (name: string) => {
      const rows = data[name] ?? [];
      if (!Array.isArray(rows)) throw new BadInputError(`${file.name}: data.${name} must be an array`);
      return rows.map((row: unknown, i) => {
        if (!isObject(row)) throw new BadInputError(`${file.name} ${name}[${i}]: must be an object`);
        return { ref: `${file.name} ${name}[${i}]`, row };
      });
    };

    const userRows = table('Users');
    const users = new Map(userRows.map(({ row }) => [idOf(row.objectId) ?? '', row]));
    for (const { ref, row } of userRows) {
      const read = readWalineUser(ref, row, (value) => dates.read(value));
      if ('reason' in read) result.skipped.push(read);
      else accounts.push(read);
    }
    for (const { ref, row } of table('Comment')) {
      const sourceId = idOf(row.objectId);
      if (!sourceId) {
        result.skipped.push({ ref, reason: 'no objectId' });
        continue;
      }
      rows++;
      const status = rowStatus(row);
      if (!status) {
        result.skipped.push({ ref, reason: `unknown status "${text(row.status)}"` });
        continue;
      }
      const userSourceId = idOf(row.user_id);
      const user = users.get(userSourceId ?? '\u0000');
      const insertedAt = dates.read(row.insertedAt ?? row.createdAt);
      const ownId = insertedAt !== undefined && isOwnId(sourceId, insertedAt) ? sourceId : undefined;
      if (ownId) ownRows++;
      const comment: SourceComment = {
        ref,
        sourceId,
        // The widget asks for comments decoded; a Marginalia export has them as it was asked.
        ...(ownId ? { url: text(row.url) } : commentPage(text(row.url))),
        ...(idOf(row.pid) ? { parentId: idOf(row.pid) } : {}),
        ...(idOf(row.rid) ? { rootId: idOf(row.rid) } : {}),
        // Waline shows a registered author's current profile over the row (its formatCmt overlay): the
        // copy stays on the comment, and reads overlay the account's profile when the account is imported.
        // Marginalia stores '' for an anonymous author: its own export keeps it.
        nick: text(user?.display_name) || text(row.nick) || (ownId ? '' : 'Anonymous'),
        mail: text(user?.email) || text(row.mail),
        link: text(user?.url) || text(row.link),
        ua: text(row.ua),
        ip: text(row.ip),
        ...(ipHashOf(row.ipHash) ? { ipHash: ipHashOf(row.ipHash) } : {}),
        text: text(row.comment),
        status,
        like: count(row.like),
        sticky: truthy(row.sticky),
        insertedAt,
        ...(ownId ? { ownId } : {}),
        ...(userSourceId ? { userSourceId } : {}),
      };
      result.comments.push(comment);
    }
    for (const { ref, row } of table('Counter')) {
      const url = text(row.url);
      // Waline keys pageviews by the raw path and reactions by the decoded one, each in its own row
      // when they differ: the rows are already keyed as the widget asks.
      result.counters.push({ ref, rawUrl: url, url, counts: countersOf(row) });
    }
  }
  result.notes.push(...dates.note());
  return { ...result, ...(rows > 0 && ownRows === rows ? { ownExport: true } : {}) };
}
