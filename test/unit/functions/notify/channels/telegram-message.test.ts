import { describe, expect, it } from 'vitest';
import {
  escapedCut,
  escapeTelegramHtml,
  maxTelegramMessageChars,
  telegramMessage,
} from '../../../../../functions/notify/channels/telegram-message.js';
import type { Notice, NoticeTemplate } from '../../../../../functions/notify/notice.js';
import type { Lang } from '../../../../../functions/shared/domain/messages.js';
import { limits } from '../../../../../functions/shared/domain/limits.js';
import { testConfig } from '../../../../support/test-config.js';
import { config, parentComment, replyComment } from './notice-fixtures.js';

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
  it('heads a confirmation notice, were one ever sent there, with nothing but the site', () => {
    const confirm = (lang: Lang): Notice => ({
      eventId: replyComment.id,
      recipient: 'telegram',
      template: 'confirm',
      lang,
    });
    expect(telegramMessage(confirm('en'), config)).toContain('Someone replied on');
    expect(telegramMessage(confirm('zh-CN'), config)).toContain('上有人回复了');
  });

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

  it('escapes the four characters Telegram parses, each as its entity', () => {
    expect(escapeTelegramHtml('<b>Tom & "Jerry"</b>')).toBe('&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;');
  });

  /** A notice about a short comment by `Eve <3`: `template` in `lang`, answering `parent` if given. */
  const shortNotice = (
    template: NoticeTemplate,
    lang: Lang,
    parent?: Notice['parent'],
    html = '<p>Hello <em>there</em></p>',
  ): Notice => ({
    eventId: replyComment.id,
    recipient: 'telegram',
    template,
    lang,
    self: { ...replyComment, nick: 'Eve <3', html },
    ...(parent ? { parent } : {}),
  });
  const link = `<a href="https://blog.example/posts/hello/#${replyComment.id}">/posts/hello/</a>`;

  it.each([
    ['owner-new', 'en', 'New comment on Notes &amp; Queries'],
    ['owner-waiting', 'en', 'A comment on Notes &amp; Queries is waiting for approval'],
    ['reply', 'en', 'New reply on Notes &amp; Queries'],
    ['owner-new', 'zh-CN', 'Notes &amp; Queries 上有新评论了'],
    ['owner-waiting', 'zh-CN', 'Notes &amp; Queries 上有一条评论等待审核'],
    ['reply', 'zh-CN', 'Notes &amp; Queries 上有新回复'],
  ] as const)(
    'says what happened where, in the heading (%s, %s), line by line',
    (template, lang, heading) => {
      const inReplyTo = lang === 'en' ? 'in reply to' : '回复';
      expect(telegramMessage(shortNotice(template, lang, parentComment), config)).toBe(
        [
          `<b>${heading}</b>`,
          `<b>Eve &lt;3</b> ${inReplyTo} <b>Reader</b> · ${link}`,
          '<blockquote>Hello there</blockquote>',
        ].join('\n'),
      );
    },
  );

  it('names no one replied to when the comment answers no one', () => {
    expect(telegramMessage(shortNotice('owner-new', 'en'), config)).toBe(
      [
        '<b>New comment on Notes &amp; Queries</b>',
        `<b>Eve &lt;3</b> · ${link}`,
        '<blockquote>Hello there</blockquote>',
      ].join('\n'),
    );
  });

  it.each([
    ['en', 'Test notification from Notes &amp; Queries', 'Notifications reach this chat.'],
    ['zh-CN', '来自 Notes &amp; Queries 的测试通知', '通知可以正常发送到这个聊天。'],
  ] as const)('sends the test notice as its heading and one line, no comment (%s)', (lang, heading, body) => {
    const test: Notice = { eventId: 'test-event', recipient: 'telegram', template: 'test', lang };
    expect(telegramMessage(test, config)).toBe(`<b>${heading}</b>\n${body}`);
  });

  it('keeps the link up to 1,000 characters as escaped, and shows the path alone past them', () => {
    const id = replyComment.id;
    /** The notice of a comment at `path`, on a site whose links are `https://blog.example${path}#${id}`. */
    const at = (path: string) => ({
      ...shortNotice('owner-new', 'en'),
      self: { ...replyComment, url: path },
    });
    const fill = (hrefChars: number, tail = '') =>
      `/${'a'.repeat(hrefChars - `https://blog.example/${tail}#${id}`.length)}${tail}`;

    const longest = fill(1000);
    const href = `https://blog.example${longest}#${id}`;
    expect(href).toHaveLength(1000);
    expect(telegramMessage(at(longest), config)).toContain(`<a href="${href}">`);
    expect(telegramMessage(at(fill(1001)), config)).not.toContain('<a href');
    // Measured escaped: 996 characters and an `&` are 1,000 as typed, 1,004 as sent.
    const ampersand = fill(1000, '&');
    expect(`https://blog.example${ampersand}#${id}`).toHaveLength(1000);
    expect(telegramMessage(at(ampersand), config)).not.toContain('<a href');
  });

  it('cuts the comment, escaped, so that the message is exactly 4,096 characters at most', () => {
    const message = (text: string) =>
      telegramMessage(shortNotice('owner-new', 'en', undefined, `<p>${text}</p>`), config);
    // What the message takes besides the comment's text.
    const room = maxTelegramMessageChars - (message('x').length - 1);

    const fits = `${'x'.repeat(room - 5)}&amp;`;
    expect(message(fits)).toHaveLength(maxTelegramMessageChars);
    expect(message(fits).endsWith(`<blockquote>${'x'.repeat(room - 5)}&amp;</blockquote>`)).toBe(true);

    // One more character: the `&` no longer fits escaped, and goes whole, the `…` taking its place.
    const over = `x${fits}`;
    expect(message(over).endsWith(`<blockquote>${'x'.repeat(room - 4)}…</blockquote>`)).toBe(true);
    expect(message(over)).toHaveLength(maxTelegramMessageChars - 3);

    const plain = message('x'.repeat(room + 1));
    expect(plain).toHaveLength(maxTelegramMessageChars);
    expect(plain.endsWith(`${'x'.repeat(room - 1)}…</blockquote>`)).toBe(true);
  });
});
