import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { disqusRecords, readDisqus } from '../../../../../scripts/import/formats/disqus.js';
import type { StreamedFile } from '../../../../../scripts/import/source.js';

const header =
  '<?xml version="1.0" encoding="utf-8"?>\n<disqus xmlns:dsq="http://disqus.com/disqus-internals">\n';
const thread = (id: string, link: string) =>
  `  <thread dsq:id="${id}">\n    <id />\n    <link>${link}</link>\n    <isDeleted>false</isDeleted>\n  </thread>\n`;
const post = (id: string, threadId: string, text: string) =>
  `  <post dsq:id="${id}">\n    <message><![CDATA[${text}]]></message>\n` +
  `    <createdAt>2015-01-02T10:00:00Z</createdAt>\n    <author><name>Ann</name></author>\n` +
  `    <thread dsq:id="${threadId}" />\n  </post>\n`;

/** Fails instead of waiting for ever when `promise` does not settle in time. */
const soon = <T>(promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still waiting')), 2000)),
  ]);

describe('disqusRecords', () => {
  it('yields the first thread and post before the stream has ended when the rest is withheld', async () => {
    const stream = new PassThrough();
    const file: StreamedFile = { name: 'forum.xml', open: () => stream };
    stream.write(header + thread('10', 'https://example.com/a/') + post('100', '10', 'first'));
    // The next post is cut in the middle: nothing after it has been delivered.
    stream.write('  <post dsq:id="101">\n    <message><![CDATA[sec');
    const records = disqusRecords(file);

    const first = await soon(records.next());
    const second = await soon(records.next());

    expect(first.value).toMatchObject({ kind: 'thread', id: '10', url: '/a/' });
    expect(second.value).toMatchObject({
      kind: 'post',
      ref: 'forum.xml post 1',
      sourceId: '100',
      text: 'first',
    });
    expect(stream.writableEnded).toBe(false);
    const third = records.next();
    stream.end(`ond]]></message>\n    <thread dsq:id="10" />\n  </post>\n</disqus>\n`);
    expect((await soon(third)).value).toMatchObject({ kind: 'post', sourceId: '101', text: 'second' });
    expect((await soon(records.next())).done).toBe(true);
  });
});

describe('readDisqus', () => {
  it('ties a post to its thread when the thread comes later in the file', async () => {
    const text = `${header}${post('100', '10', 'early')}${thread('10', 'https://example.com/late/')}</disqus>`;

    const source = await readDisqus([{ name: 'forum.xml', text }], { sourceTimezone: 'UTC' });

    expect(source.skipped).toEqual([]);
    expect(source.comments).toMatchObject([{ ref: 'forum.xml post 1', sourceId: '100', url: '/late/' }]);
  });
});
