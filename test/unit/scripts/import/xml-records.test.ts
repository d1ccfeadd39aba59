import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../../scripts/import/source.js';
import { childText, xmlRecords, type XmlElement } from '../../../../scripts/import/xml-records.js';

const collect = async (records: AsyncIterable<XmlElement>) => {
  const all: XmlElement[] = [];
  for await (const record of records) all.push(record);
  return all;
};

describe('xmlRecords', () => {
  it('yields each child of the root with its attributes, text, CDATA and entities when given chunks', async () => {
    const bytes = Buffer.from(
      '\uFEFF<?xml version="1.0"?>\n<!-- export -->\n<disqus xmlns:dsq="x">\n' +
        '  <post dsq:id="1" note="a &amp; b"><message><![CDATA[<p>é</p>]]></message><n>&#x41;&lt;</n></post>\n' +
        '  <post dsq:id="2"><message>Ünïcödé</message><empty/></post>\n</disqus>\n',
    );
    // Seven-byte chunks split the two-byte characters between chunks.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) =>
      bytes.subarray(i * 7, i * 7 + 7),
    );

    const [first, second, ...rest] = await collect(xmlRecords(chunks, 'f.xml', { root: 'disqus' }));

    expect(rest).toEqual([]);
    expect(first?.attributes).toEqual({ 'dsq:id': '1', note: 'a & b' });
    expect(first && childText(first, 'message')).toBe('<p>é</p>');
    expect(first && childText(first, 'n')).toBe('A<');
    expect(second?.children.map((element) => element.name)).toEqual(['message', 'empty']);
    expect(second && childText(second, 'message')).toBe('Ünïcödé');
  });

  it('keeps an entity XML does not define as written when a message holds one', async () => {
    const [post] = await collect(
      xmlRecords(['<disqus><post><message>a&nbsp;b</message></post></disqus>'], 'f.xml', { root: 'disqus' }),
    );

    expect(post && childText(post, 'message')).toBe('a&nbsp;b');
  });

  it('names the file and the line when a tag is not closed', async () => {
    await expect(
      collect(xmlRecords(['<disqus>\n<post>\n</disqus>'], 'd.xml', { root: 'disqus' })),
    ).rejects.toThrow(/^d\.xml line 3: unexpected close tag/);
  });

  it('names the file when the document ends inside a record', async () => {
    const reading = collect(xmlRecords(['<disqus>\n<post><message>cut'], 'd.xml', { root: 'disqus' }));

    await expect(reading).rejects.toBeInstanceOf(BadInputError);
    await expect(reading).rejects.toThrow(/^d\.xml line 2: /);
  });

  it('refuses a root of another name when told which one to expect', async () => {
    await expect(collect(xmlRecords(['<rss><item/></rss>'], 'feed.xml', { root: 'disqus' }))).rejects.toThrow(
      'feed.xml: the root element must be <disqus>',
    );
  });

  it('stops with an error when one record holds more than the bound', async () => {
    const post = `<post><message>${'x'.repeat(600)}</message><message>${'y'.repeat(600)}</message></post>`;

    await expect(
      collect(xmlRecords([`<disqus>${post}</disqus>`], 'big.xml', { root: 'disqus', maxChars: 1000 })),
    ).rejects.toThrow('big.xml line 1: <post> holds more than 1000 characters');
  });

  it('stops reading when a text node grows past the bound before it is closed', async () => {
    let delivered = 0;
    async function* endlessText() {
      yield '<disqus><post><message>';
      for (; delivered < 1000; delivered++) yield 'z'.repeat(100);
    }

    await expect(
      collect(xmlRecords(endlessText(), 'big.xml', { root: 'disqus', maxChars: 5000 })),
    ).rejects.toThrow('big.xml line 1: a piece of text or markup longer than 5000 characters');
    expect(delivered).toBeLessThan(60);
  });
});
