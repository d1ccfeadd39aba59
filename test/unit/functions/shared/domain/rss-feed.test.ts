import { describe, expect, it } from 'vitest';
import {
  commentLink,
  excerpt,
  pageLink,
  renderCommentFeed,
  xmlCdata,
  xmlText,
} from '../../../../../functions/shared/domain/rss-feed.js';
import { parseRss } from '../../../../support/rss.js';

describe('xmlText and xmlCdata', () => {
  it('escape markup and drop what XML 1.0 allows nowhere, keeping tab, newline and astral characters', () => {
    expect(xmlText('<a href="x">&\'</a>\u0000\u001f\t\n\ud83d\ude00\ud800\ufffe')).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;\t\n\ud83d\ude00',
    );
  });

  it('split a CDATA end inside the HTML across two sections', () => {
    expect(xmlCdata('<p>a]]>b]]></p>')).toBe('<![CDATA[<p>a]]]]><![CDATA[>b]]]]><![CDATA[></p>]]>');
  });
});

describe('excerpt', () => {
  it('reads the text of the HTML: tags dropped, blocks and breaks parted, entities decoded, spaces collapsed', () => {
    expect(
      excerpt(
        '<h1>Title</h1><p>one<br>two &amp; <em>three</em>&#x1F600;&#128512;&nbsp;&bogus;</p>\n<ul><li>x</li></ul>',
      ),
    ).toBe('Title one two & three😀😀 &bogus; x');
  });

  it('leaves a character reference past Unicode as it is', () => {
    expect(excerpt('<p>&#x110000;</p>')).toBe('&#x110000;');
  });
});

describe('pageLink and commentLink', () => {
  it.each([
    ['https://blog.example', '/p', 'https://blog.example/p'],
    ['https://blog.example/', '/p', 'https://blog.example/p'],
    ['https://blog.example//', 'p', 'https://blog.example/p'],
    ['https://blog.example/base', '/p?x=1', 'https://blog.example/base/p?x=1'],
  ])('joins %s and %s as %s', (site, path, link) => {
    expect(pageLink(site, path)).toBe(link);
    expect(commentLink(site, path, '01A')).toBe(`${link}#01A`);
  });

  it('gives no link without a site address, or with one that is no address', () => {
    expect(pageLink(undefined, '/p')).toBeUndefined();
    expect(commentLink(undefined, '/p', '01A')).toBeUndefined();
    expect(commentLink('not an address', '/p', '01A')).toBeUndefined();
  });

  it("replaces a path's own fragment with the comment's", () => {
    expect(commentLink('https://blog.example', '/p#top', '01A')).toBe('https://blog.example/p#01A');
  });
});

describe('renderCommentFeed', () => {
  it('renders a valid feed with no items and no date when there are no comments', () => {
    const xml = renderCommentFeed({
      comments: [],
      lang: 'zh-CN',
      siteUrl: undefined,
      siteName: 'blog.example',
      serverUrl: 'https://api.example',
      self: 'https://api.example/api/comment/rss',
    });

    const feed = parseRss(xml);
    expect(feed).toMatchObject({ title: 'blog.example 的评论', url: 'https://api.example', items: [] });
    expect(xml).not.toContain('lastBuildDate');
  });
});
