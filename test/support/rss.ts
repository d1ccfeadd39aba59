import { parseFeed } from '@rowanmanning/feed-parser';
import { SaxesParser } from 'saxes';

/** A feed as a feed reader reads it (@rowanmanning/feed-parser). */
export type ParsedFeed = ReturnType<typeof parseFeed>;

/**
 * Parses `xml` as a feed reader would, once a strict XML 1.0 parser (saxes, with namespaces) has read
 * it to the end: the feed parser is lenient, and would read past what a stricter reader refuses.
 */
export function parseRss(xml: string): ParsedFeed {
  new SaxesParser({ xmlns: true }).write(xml).close();
  const feed = parseFeed(xml);
  if (feed.meta.type !== 'rss' || feed.meta.version !== '2.0') {
    throw new Error(`not RSS 2.0: ${JSON.stringify(feed.meta)}`);
  }
  return feed;
}
