import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { importedCommentId, isOwnId } from '../../../../scripts/import/import-id.js';
import { detectFormat } from '../../../../scripts/import/detect.js';
import { parseDate } from '../../../../scripts/import/values.js';

describe('importedCommentId', () => {
  it('derives the same time-ordered ULID when given the same source id twice', () => {
    const id = importedCommentId('waline', '42', 1_700_000_000_123);

    expect(id).toBe(importedCommentId('waline', '42', 1_700_000_000_123));
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decodeTime(id)).toBe(1_700_000_000_123);
    expect(importedCommentId('twikoo', '42', 1_700_000_000_123)).not.toBe(id);
  });

  it('recognises its own ids only when the time part matches', () => {
    const id = importedCommentId('waline', '1', 1_700_000_000_000);

    expect(isOwnId(id, 1_700_000_000_000)).toBe(true);
    expect(isOwnId(id, 1_700_000_000_001)).toBe(false);
    expect(isOwnId('5f1a2b3c4d5e6f7a8b9c0d1e', 1_700_000_000_000)).toBe(false);
  });
});

describe('parseDate', () => {
  it('reads every date shape the exports use when given a source zone', () => {
    const utc = Date.UTC(2026, 10, 21, 12, 17, 24);

    expect(parseDate('2026-11-21 20:17:24', 'Asia/Shanghai')).toEqual({ ms: utc, naive: true });
    expect(parseDate('2026-11-21T12:17:24.000Z', 'Asia/Shanghai')?.ms).toBe(utc);
    expect(parseDate('2026-11-21 20:17:24 +0800', 'UTC')?.ms).toBe(utc);
    expect(parseDate({ __type: 'Date', iso: '2026-11-21T12:17:24Z' }, 'UTC')?.ms).toBe(utc);
    expect(parseDate({ $date: { $numberLong: String(utc) } }, 'UTC')?.ms).toBe(utc);
    expect(parseDate(utc / 1000, 'UTC')?.ms).toBe(utc);
    expect(parseDate('yesterday', 'UTC')).toBeUndefined();
  });

  it('follows daylight saving when a naive time falls in summer', () => {
    expect(parseDate('2024-07-01 12:00:00', 'Europe/Paris')?.ms).toBe(Date.UTC(2024, 6, 1, 10));
    expect(parseDate('2024-01-01 12:00:00', 'Europe/Paris')?.ms).toBe(Date.UTC(2024, 0, 1, 11));
  });
});

describe('detectFormat', () => {
  it('tells each format apart when given its first record', () => {
    const detect = (text: string) => detectFormat({ name: 'f', text });

    expect(detect('{"type":"waline","data":{}}')).toBe('waline');
    expect(detect('{"errno":0,"data":{"type":"waline","data":{}}}')).toBe('waline');
    expect(detect('#filetype:JSON-streaming {}\n{"objectId":"a"}')).toBe('valine');
    expect(detect('{"results":[{"objectId":"a","comment":"x"}]}')).toBe('valine');
    expect(detect('{"code":0,"data":[{"_id":"a","comment":"x"}]}')).toBe('twikoo');
    expect(detect('[{"id":"1","rid":"0","content":"x","page_key":"/"}]')).toBe('artalk');
    expect(detect('<?xml version="1.0"?><disqus/>')).toBe('disqus');
    expect(() => detect('[{"foo":1}]')).toThrow(/unknown format/);
  });
});
