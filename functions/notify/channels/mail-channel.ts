import type { SendNotice } from '../notice.js';
import { isPermanentFailure, PermanentFailure } from './permanent-failure.js';
import { buildMailMessage, type MailMessage, type MailMessageSettings } from './mail-message.js';

/**
 * The mail channel: builds the notice's message (mail-message.ts) and hands it to a transport (SMTP or
 * SES). Its errors are kept in the table and shown in /ui, so every address in them is blanked out: an
 * SMTP server's `550 <reader@example.com>: no such user` or SES's list of unverified identities would
 * otherwise keep the reader's address after the comment is gone.
 */

/**
 * Sends one built message to its one envelope recipient; throws when it was not accepted (a
 * PermanentFailure when trying again cannot help: SES's MessageRejected, an SMTP 5xx).
 */
export type MailTransport = (message: MailMessage) => Promise<void>;

/** What the mail channel needs: how to build a message and who sends it. */
export interface MailChannelSettings extends Omit<MailMessageSettings, 'sender'> {
  /** The From line, or why there is none (no SENDER_EMAIL). */
  readonly sender: MailMessageSettings['sender'] | { readonly problem: string };
  readonly transport: MailTransport;
}

/** The mail channel: sends each notice to `notice.to`. */
export function createMailChannel(settings: MailChannelSettings): SendNotice {
  return async (notice) => {
    const { sender } = settings;
    if ('problem' in sender) throw new PermanentFailure(sender.problem);
    const message = await buildMailMessage(notice, { ...settings, sender });
    await sendMailMessage(settings.transport, message);
  };
}

/**
 * Hands `message` to `transport`; a refusal is rethrown in words with every address blanked out (a
 * PermanentFailure stays one), not as a cause: a cause would carry the addresses into the log.
 */
export async function sendMailMessage(transport: MailTransport, message: MailMessage): Promise<void> {
  await transport(message).catch((error: unknown) => {
    const failure = isPermanentFailure(error) ? PermanentFailure : Error;
    throw new failure(
      `the mail was not sent: ${withoutAddresses(error instanceof Error ? error.message : String(error))}`,
    );
  });
}

const addressPattern = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;

/** `text` with every mail address in it blanked out. */
export function withoutAddresses(text: string): string {
  return text.replace(addressPattern, '<address>');
}
