import { describe, expect, it } from 'vitest';
import {
  escapedCut,
  maxTelegramMessageChars,
  telegramMessage,
} from '../../../../../functions/notify/channels/telegram-message.js';
import type { Notice, NoticeTemplate } from '../../../../../functions/notify/notice.js';
import type { Lang } from '../../../../../functions/shared/domain/messages.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { testConfig } from '../../../../support/test-config.js';
import { parentComment, replyComment } from './notice-fixtures.js';

/**
 * Every part of a Telegram message at its longest, in the characters that grow most when escaped (`&` and
 * `"` become 5 and 6), and astral characters (two UTF-16 units each).
 */
const siteName = '&'.repeat(200);
const longPath = `/${'&'.repeat(limits.urlChars - 1)}`;
const longNick = '"'.repeat(limits.nickChars * 10);
const longComment = `<p>${'&amp;😀'.repeat(limits.commentChars / 2)}</p>`;

/** A site at the longest SITE_NAME the configuration accepts, and a long SITE_URL. */
const site = testConfig({
  SITE_NAME: siteName,
  SITE_URL: `https://blog.example/${'a&b'.repeat(300)}/`,
});

/** The reply notice with every part at its longest. */
const longest = (template: NoticeTemplate, lang: Lang): Notice => ({
  eventId: replyComment.id,
  recipient: 'telegram',
  template,
  lang,
  self: { ...replyComment, url: longPath, nick: longNick, html: longComment },
  parent: { ...parentComment, url: longPath, nick: longNick },
});

/** Every `&` in `html` begins one of the four entities Telegram's parser knows: no entity was cut. */
const wholeEntities = (html: string) => !/&(?!amp;|lt;|gt;|quot;)/.test(html);

describe('telegramMessage', () => {
  it('accepts SITE_NAME only up to 200 characters, the longest this test builds', () => {
    expect(() => testConfig({ SITE_NAME: 'x'.repeat(201) })).toThrow('SITE_NAME');
  });

  it.each([
    ['owner-new', 'en'],
    ['owner-waiting', 'en'],
    ['reply', 'en'],
    ['owner-new', 'zh-CN'],
    ['reply', 'zh-CN'],
  ] as const)(
    'stays within 4,096 characters, as sent, with the longest site name, nicks, url and comment (%s, %s)',
    (template, lang) => {
      const message = telegramMessage(longest(template, lang), site);

      // Counted as sent (escaped, tags included) and in UTF-16 units: never less than Telegram counts.
      expect(message.length).toBeLessThanOrEqual(maxTelegramMessageChars);
      expect(wholeEntities(message)).toBe(true);
      // Still a message: the heading, both nicks (cut), the page and a good part of the comment.
      expect(message).toMatch(
        /^<b>.+<\/b>\n<b>(&quot;)+…<\/b> .+ <b>(&quot;)+…<\/b> · .+\n<blockquote>.+…<\/blockquote>$/s,
      );
      expect(message.split('<blockquote>')[1]!.length).toBeGreaterThan(1500);
      expect(message).not.toMatch(/<a href/);
    },
  );

  it('keeps the link when it fits, and the message whole when it is short', () => {
    const short = telegramMessage(
      { ...longest('owner-new', 'en'), self: replyComment, parent: parentComment },
      testConfig({ SITE_NAME: 'Notes', SITE_URL: 'https://blog.example' }),
    );
    expect(short).toContain(
      `<a href="https://blog.example/posts/hello/#${replyComment.id}">/posts/hello/</a>`,
    );
    expect(short).not.toContain('…');
  });

  it('cuts escaped text at a whole character, never inside an entity or a surrogate pair', () => {
    expect(escapedCut('a&b', 3)).toBe('a…');
    expect(escapedCut('a&b', 6)).toBe('a…');
    expect(escapedCut('a&b', 7)).toBe('a&amp;b');
    expect(escapedCut('😀😀😀', 5)).toBe('😀😀…');
    expect(escapedCut('😀😀😀', 4)).toBe('😀…');
  });
});
