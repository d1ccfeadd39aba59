import type { SecretSource } from '../../shared/secrets/parameter-secret.js';
import type { SendNotice } from '../notice.js';
import type { SiteSettings } from '../templates/site.js';
import { failureReason } from './failure-reason.js';
import { isPermanentStatus, PermanentFailure } from './permanent-failure.js';
import { telegramMessage } from './telegram-message.js';

/**
 * Telegram (Waline's TG_BOT_TOKEN and TG_CHAT_ID): each notice sent by the bot to the chat with the Bot
 * API's sendMessage (telegram-message.ts writes it). The token is part of the API's URL, so no error
 * ever quotes the URL or the token: errors are kept in the table and shown in /ui.
 */

/** What the Telegram channel needs. */
export interface TelegramChannelSettings {
  /** TG_API_URL: https://api.telegram.org, or a test's receiver. */
  readonly apiUrl: string;
  /** TG_BOT_TOKEN (on AWS TG_BOT_TOKEN_PARAMETER). */
  readonly botToken: SecretSource;
  readonly chatId: string;
  readonly site: SiteSettings;
  readonly fetch?: typeof fetch;
  /** 5 s by default. */
  readonly timeoutMs?: number;
}

const defaultTimeoutMs = 5000;
/** Telegram's answer to sendMessage is the message sent: a few KB. */
const maxAnswerChars = 64 * 1024;

/** The Telegram channel. */
export function createTelegramChannel(settings: TelegramChannelSettings): SendNotice {
  const send = settings.fetch ?? fetch;
  return async (notice) => {
    const token = await settings.botToken();
    if (!token)
      throw new PermanentFailure(
        'the Telegram bot token (TG_BOT_TOKEN or TG_BOT_TOKEN_PARAMETER) is not set',
      );
    // A token is `<bot id>:<secret>`; anything else could rewrite the URL's path.
    if (!/^\d+:[\w-]+$/.test(token))
      throw new PermanentFailure('the Telegram bot token is not of the form <digits>:<letters>');
    // `./`: a first path segment with a colon would be read as a URL scheme.
    const endpoint = new URL(
      `./bot${token}/sendMessage`,
      settings.apiUrl.endsWith('/') ? settings.apiUrl : `${settings.apiUrl}/`,
    );
    const hide = (text: string) => text.split(token).join('<token>');
    // The failure in words, not as a cause: a cause would carry the URL, and with it the token, into the log.
    const answer = await send(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chat_id: settings.chatId,
        text: telegramMessage(notice, settings.site),
        parse_mode: 'HTML',
        // The comment's links are text; Telegram must not fetch them for a preview.
        link_preview_options: { is_disabled: true },
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(settings.timeoutMs ?? defaultTimeoutMs),
    })
      .then(async (response) => ({
        status: response.status,
        body: (await response.text()).slice(0, maxAnswerChars),
      }))
      .catch((error: unknown) => {
        throw new Error(`Telegram could not be reached: ${hide(failureReason(error))}`);
      });
    const parsed = parseAnswer(answer.body);
    if (answer.status < 200 || answer.status > 299 || parsed?.ok !== true) {
      const description = typeof parsed?.description === 'string' ? parsed.description : 'no description';
      // A 4xx (a bad token 401, a chat the bot is not in 403, a message Telegram refuses 400) is for good; a 429
      // (flood control) or a 5xx asks to come back later.
      const failure = isPermanentStatus(answer.status) ? PermanentFailure : Error;
      throw new failure(`Telegram answered ${answer.status}: ${hide(description).slice(0, 500)}`);
    }
  };
}

function parseAnswer(body: string): { ok?: unknown; description?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
