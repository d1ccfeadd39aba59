import { afterEach, describe, expect, it } from 'vitest';
import { createChannels } from '../../../../../functions/notify/channels/channels.js';
import { isPermanentFailure } from '../../../../../functions/notify/channels/permanent-failure.js';
import type { Notice } from '../../../../../functions/notify/notice.js';
import {
  type Answer,
  type RecordingServer,
  startRecordingServer,
} from '../../../../support/recording-server.js';
import {
  config,
  notifyConfig,
  readerAddress,
  replyComment,
  secretOf,
  secrets,
  waitingNotice,
} from './notice-fixtures.js';

const token = '123456789:AAE-secret_token-part';

/** The Telegram notice of a waiting comment, as the rules give it. */
const telegramNotice = (overrides: Partial<Notice> = {}) =>
  waitingNotice({ recipient: 'telegram', to: undefined, ...overrides });

/** The tags Telegram's HTML parse mode accepts, as this channel uses them. */
const allowedTag = /^<(\/?(b|blockquote|a)|a href="[^"]*")>$/;

describe('the Telegram channel', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const bot = async (answer: () => Answer = () => ({ status: 200, body: '{"ok":true,"result":{}}' })) => {
    server = await startRecordingServer(() => answer());
    const channels = createChannels({
      config,
      notify: notifyConfig({
        TG_BOT_TOKEN: token,
        TG_CHAT_ID: '-1001234',
        TG_API_URL: `${server.endpoint}/tg`,
      }),
      secrets: secrets({ botToken: secretOf(token) }),
      now: Date.now,
    });
    return { server, telegram: channels.telegram! };
  };

  const sentMessage = (server: RecordingServer) => {
    expect(server.requests).toHaveLength(1);
    return JSON.parse(server.requests[0]!.body) as { chat_id: string; text: string; parse_mode: string };
  };

  it('sends the message to the chat with sendMessage, in Telegram’s HTML', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice());
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: `/tg/bot${token}/sendMessage` });
    const message = sentMessage(server);
    expect(message).toMatchObject({ chat_id: '-1001234', parse_mode: 'HTML' });
    expect(message.text).toContain('<b>A comment on Notes &amp; Queries is waiting for approval</b>');
  });

  it('escapes every text and uses only the tags Telegram allows', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice());
    const { text } = sentMessage(server);
    expect(text).toContain('<b>&lt;script&gt;alert(1)&lt;/script&gt; Eve &amp; &quot;Co&quot;</b>');
    expect(text).toContain(
      `<a href="https://blog.example/posts/hello/#${replyComment.id}">/posts/hello/</a>`,
    );
    for (const tag of text.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(allowedTag);
  });

  it('reduces the comment to its text: links as text and URL, no image', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice());
    const { text } = sentMessage(server);
    expect(text).toContain(
      '<blockquote>See https://blog.example/login (https://evil.example/login)</blockquote>',
    );
    expect(text).not.toContain('tracker.example');
  });

  it('writes in the notice’s language', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice({ lang: 'zh-CN' }));
    expect(sentMessage(server).text).toContain('<b>Notes &amp; Queries 上有一条评论等待审核</b>');
  });

  it('says a test reached the chat', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice({ template: 'test', self: undefined, parent: undefined }));
    expect(sentMessage(server).text).toBe(
      '<b>Test notification from Notes &amp; Queries</b>\nNotifications reach this chat.',
    );
  });

  it('names no address', async () => {
    const { server, telegram } = await bot();
    await telegram(telegramNotice({ to: readerAddress }));
    expect(server.requests[0]!.body).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
  });

  it('fails with Telegram’s description, never the token', async () => {
    const { telegram } = await bot(() => ({
      status: 400,
      body: JSON.stringify({
        ok: false,
        error_code: 400,
        description: `Bad Request: chat not found for bot${token}`,
      }),
    }));
    const failure = telegram(telegramNotice());
    await expect(failure).rejects.toThrow(
      'Telegram answered 400: Bad Request: chat not found for bot<token>',
    );
    await failure.catch((error: Error) => expect(error.message).not.toContain('secret_token'));
  });

  it.each([
    [401, 'Unauthorized', true],
    [403, 'Forbidden: bot was kicked from the group chat', true],
    [400, 'Bad Request: message is too long', true],
    [429, 'Too Many Requests: retry after 5', false],
    [502, 'Bad Gateway', false],
  ])('fails for good on a %i (%s) only when it is a refusal', async (status, description, permanent) => {
    const { telegram } = await bot(() => ({
      status,
      body: JSON.stringify({ ok: false, error_code: status, description }),
    }));
    const failure = await telegram(telegramNotice()).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(`Telegram answered ${status}: ${description}`);
    expect(isPermanentFailure(failure)).toBe(permanent);
  });

  it('fails without the token when Telegram cannot be reached', async () => {
    server = await startRecordingServer();
    const apiUrl = server.endpoint;
    await server.close();
    server = undefined;
    const channels = createChannels({
      config,
      notify: notifyConfig({ TG_BOT_TOKEN: token, TG_CHAT_ID: '42', TG_API_URL: apiUrl }),
      secrets: secrets({ botToken: secretOf(token) }),
      now: Date.now,
    });
    const failure = channels.telegram!(telegramNotice());
    await expect(failure).rejects.toThrow(/^Telegram could not be reached: .*ECONNREFUSED/);
    await failure.catch((error: Error) => expect(error.message).not.toContain('secret_token'));
  });

  it('sends nothing with a token that is not one', async () => {
    const { server } = await bot();
    const channels = createChannels({
      config,
      notify: notifyConfig({ TG_BOT_TOKEN: 'x', TG_CHAT_ID: '42', TG_API_URL: server.endpoint }),
      secrets: secrets({ botToken: secretOf('../../other/path?') }),
      now: Date.now,
    });
    const failure = await channels.telegram!(telegramNotice()).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch('not of the form');
    expect(isPermanentFailure(failure)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
