import { randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Notice } from '../notice.js';
import type { NotificationLinks } from '../links.js';
import { singleAddress } from '../notify-config.js';
import {
  type CustomMailTemplates,
  type MailLinks,
  type RenderedMail,
  renderMail,
} from '../templates/render-mail.js';
import type { SiteSettings } from '../templates/site.js';

/**
 * A notice as one MIME message, built once with nodemailer's composer, so that SMTP and SES send the very
 * same bytes. The From line is the site's, fixed; the To line and the envelope hold the one recipient, and
 * no other address is anywhere in the message.
 */

/** A built mail: its envelope and its bytes. */
export interface MailMessage {
  /** The envelope sender (SENDER_EMAIL). */
  readonly from: string;
  /** The one envelope recipient. */
  readonly to: string;
  /** The whole message, CRLF line ends. */
  readonly raw: Buffer;
}

/** What a mail is built with. */
export interface MailMessageSettings {
  readonly site: SiteSettings;
  readonly templates: CustomMailTemplates;
  /** The From line: SENDER_NAME and SENDER_EMAIL, never a commenter's nick. */
  readonly sender: { readonly name: string; readonly address: string };
  readonly links: NotificationLinks;
  /** Milliseconds since the epoch: the Date header. */
  readonly now: () => number;
  /** The shared part of the MIME boundaries; random by default, so no comment can guess it and forge a part. */
  readonly boundary?: () => string;
}

/** The mail of `notice` (to `notice.to`); throws when the recipient is not one plain address. */
export async function buildMailMessage(notice: Notice, settings: MailMessageSettings): Promise<MailMessage> {
  const to = recipientAddress(notice);
  const links = await mailLinks(notice, to, settings.links);
  const rendered = renderMail(notice, { site: settings.site, templates: settings.templates, links });
  return composeMailMessage(
    {
      to,
      rendered,
      lang: notice.lang,
      // Stable across retries of one (event, recipient): a receiver that dedupes by Message-ID shows it once.
      messageIdLocalPart: `${notice.eventId}.${notice.recipient}`,
      ...(links.unsubscribe ? { unsubscribe: links.unsubscribe } : {}),
    },
    settings,
  );
}

/** What a mail is made of, beside the site's settings: its one recipient, its rendering and its headers' values. */
export interface MailParts {
  /** One plain address. */
  readonly to: string;
  readonly rendered: RenderedMail;
  readonly lang: string;
  /** The Message-ID before `@` and the sender's domain: stable across retries of the same mail. */
  readonly messageIdLocalPart: string;
  /** Reader mail: the unsubscribe link, as List-Unsubscribe (and one-click when https). */
  readonly unsubscribe?: string;
}

/** `parts` as one MIME message from `settings.sender`: notices (above) and the owner's digest use it. */
export async function composeMailMessage(
  parts: MailParts,
  settings: Pick<MailMessageSettings, 'sender' | 'now' | 'boundary'>,
): Promise<MailMessage> {
  const { sender } = settings;
  const { to, rendered } = parts;
  const headers: Record<string, string | { prepared: true; value: string }> = {
    // RFC 3834: auto-responders (vacation replies) do not answer a notice.
    'Auto-Submitted': 'auto-generated',
    // Exchange's own way of saying the same.
    'X-Auto-Response-Suppress': 'OOF, AutoReply',
    'Content-Language': parts.lang,
  };
  if (parts.unsubscribe) {
    // Prepared: emitted as is, not folded inside the URL; a URL object's text has no CR or LF to inject.
    headers['List-Unsubscribe'] = { prepared: true, value: `<${parts.unsubscribe}>` };
    // RFC 8058 one-click: a POST of this body to the https URL above unsubscribes, without a page.
    if (parts.unsubscribe.startsWith('https://'))
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const composer = new MailComposer({
    from: { name: sender.name, address: sender.address },
    // An address object, not a string: nodemailer parses a string as a list (`a@x, b@y` is two recipients).
    to: { name: '', address: to },
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers,
    messageId: `<${parts.messageIdLocalPart}@${domainOf(sender.address)}>`,
    date: new Date(settings.now()),
    baseBoundary: (settings.boundary ?? randomBoundary)(),
    // CRLF throughout, as SMTP sends it: SES gets the bytes an SMTP server would.
    newline: 'windows',
  });
  const raw = await composer.compile().build();
  return { from: sender.address, to, raw };
}

/** The notice's address when it is one plain address (notify-config.ts): the one recipient, or an error. */
function recipientAddress(notice: Notice): string {
  if (notice.to === undefined)
    throw new Error(`a ${notice.recipient} mail needs an address, and this notice has none`);
  // Never the address in the message: errors are kept in the table.
  if (!singleAddress.safeParse(notice.to).success) {
    throw new Error(`the ${notice.recipient} address is not one plain address; it is not mailed`);
  }
  return notice.to;
}

/**
 * The links of the notice's mail: unsubscribe in a reply (required), the confirmation link and the
 * site's unsubscribe link in a confirmation mail (required), moderation in the owner's waiting mail.
 */
async function mailLinks(notice: Notice, to: string, links: NotificationLinks): Promise<MailLinks> {
  const self = notice.self;
  if (notice.template === 'confirm') {
    // Leaving the site too: anyone can type this address again every 30 days, and the suppression, checked
    // before a confirmation is asked, ends that for good. No thread: nothing of the replier is shown.
    const confirm = await links.confirm(to, notice.eventId);
    return { confirm, unsubscribe: await links.unsubscribe(to, undefined) };
  }
  if (notice.template === 'reply') {
    return { unsubscribe: await links.unsubscribe(to, self ? (self.rid ?? self.id) : undefined) };
  }
  // Without SERVER_URL the owner still hears of the comment, and moderates it in /ui.
  if (notice.template === 'owner-waiting' && self && links.available) {
    return { moderation: await links.moderation(self.id, self.status) };
  }
  return {};
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

function randomBoundary(): string {
  return randomBytes(12).toString('hex');
}
