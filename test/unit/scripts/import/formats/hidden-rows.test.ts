import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowStatus } from '../../../../../scripts/import/formats/common.js';
import { readLeanCloud } from '../../../../../scripts/import/formats/leancloud.js';
import { readTwikoo } from '../../../../../scripts/import/formats/twikoo.js';
import { readWaline } from '../../../../../scripts/import/formats/waline.js';
import type { InputFile, ParsedSource } from '../../../../../scripts/import/source.js';

const fixture = (name: string): InputFile => ({
  name,
  text: readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'import', name), 'utf8'),
});
const options = { sourceTimezone: 'UTC' };
const statusByNick = (source: ParsedSource) =>
  Object.fromEntries(source.comments.map((comment) => [comment.nick, comment.status]));

describe('rowStatus', () => {
  it('hides a row without status when Valine-Admin or Twikoo marked it isSpam, however written', () => {
    for (const isSpam of [true, 1, 'true']) expect(rowStatus({ isSpam })).toBe('spam');
    expect(rowStatus({ isSpam: true, ACL: { '*': { read: false } } })).toBe('spam');
  });

  it('holds a row without status as waiting when its ACL keeps visitors from reading it', () => {
    expect(rowStatus({ ACL: { '*': { read: false } } })).toBe('waiting');
    expect(rowStatus({ ACL: { 'role:admin': { read: true } } })).toBe('waiting');
    expect(rowStatus({ ACL: {} })).toBe('waiting');
  });

  it('approves a row without status when visitors could read it and nothing marked it', () => {
    expect(rowStatus({})).toBe('approved');
    expect(rowStatus({ status: null, isSpam: false, ACL: { '*': { read: true, write: true } } })).toBe(
      'approved',
    );
  });

  it('follows the status when the row has one, since Waline shows rows by it alone', () => {
    expect(rowStatus({ status: 'approved', isSpam: true, ACL: { '*': { read: false } } })).toBe('approved');
    expect(rowStatus({ status: 'waiting' })).toBe('waiting');
    expect(rowStatus({ status: 'bogus' })).toBeUndefined();
  });
});

describe('hidden rows in every file that carries them', () => {
  it('keeps Valine-era rows hidden when a Waline export from LeanCloud wraps them', () => {
    const source = readWaline([fixture('waline-leancloud.json')], options);

    expect(statusByNick(source)).toEqual({
      Ann: 'approved',
      Spam: 'spam',
      Held: 'waiting',
      Val: 'approved',
      Rep: 'approved',
      Han: 'approved',
    });
  });

  it('keeps hidden rows hidden when a LeanCloud console export holds them', () => {
    const source = readLeanCloud([fixture('leancloud-hidden.json')], options);

    expect(statusByNick(source)).toEqual({ Kept: 'approved', Flagged: 'spam', Locked: 'waiting' });
  });

  it('keeps pending and spam Twikoo rows hidden when they come as {code, data}, an array or JSON Lines', () => {
    const wrapped = fixture('twikoo-split-comment.json');
    const rows = (JSON.parse(wrapped.text) as { data: unknown[] }).data;
    const shapes: InputFile[] = [
      wrapped,
      { name: 'array.json', text: JSON.stringify(rows) },
      { name: 'lines.jsonl', text: rows.map((row) => JSON.stringify(row)).join('\n') },
    ];

    for (const file of shapes) {
      const statuses = readTwikoo([file], options).comments.map((comment) => comment.status);

      expect(statuses.filter((status) => status === 'spam')).toHaveLength(2);
      expect(statuses.filter((status) => status === 'approved')).toHaveLength(6);
    }
  });
});

describe('comment keys of the readers', () => {
  it('decodes an encoded Waline url and keeps the source form when it differs', () => {
    const source = readWaline([fixture('waline-leancloud.json')], options);
    const han = source.comments.find((comment) => comment.nick === 'Han');

    expect(han).toMatchObject({ url: '/中文/', rawUrl: '/%E4%B8%AD%E6%96%87/' });
    expect(source.comments.find((comment) => comment.nick === 'Ann')?.rawUrl).toBeUndefined();
    expect(source.ownExport).toBeUndefined();
  });

  it('marks a Waline file as a Marginalia export when every comment carries a Marginalia id', () => {
    const insertedAt = '2024-01-01T00:00:00.000Z';
    const own = {
      type: 'waline',
      data: {
        // A ULID whose time part is 2024-01-01T00:00:00.000Z, as Marginalia gives.
        Comment: [
          {
            objectId: '01HK153X00ABCDEFGHJKMNPQRS',
            url: '/a%20b',
            comment: 'x',
            insertedAt,
            status: 'approved',
          },
        ],
      },
    };

    const source = readWaline([{ name: 'own.json', text: JSON.stringify(own) }], options);

    expect(source.ownExport).toBe(true);
    expect(source.comments[0]?.url).toBe('/a%20b');
  });
});
