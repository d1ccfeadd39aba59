import type { Lang } from '../../shared/domain/messages.js';
import { renderStandaloneMail, type RenderedMail } from '../templates/render-mail.js';
import { ownerDigestTemplates } from '../templates/owner-digest-templates.js';
import { type SiteSettings, siteVariables } from '../templates/site.js';
import { type MailTransport, sendMailMessage } from './mail-channel.js';
import { composeMailMessage, type MailMessageSettings } from './mail-message.js';
import { PermanentFailure } from './permanent-failure.js';

/** One hour's digest: the comments its owner mails did not tell one by one. */
export interface OwnerDigest {
  /** The UTC hour, `2026-11-25T17`. */
  readonly hour: string;
  /** How many comments it tells of. */
  readonly count: number;
}

/** Mails one digest to the owner; throws when the mail was not accepted (a PermanentFailure for good). */
export type SendOwnerDigest = (digest: OwnerDigest) => Promise<void>;

/** What the digest mail needs. */
export interface OwnerDigestChannelSettings {
  /** AUTHOR_EMAIL. */
  readonly to: string;
  /** AUTHOR_LANG. */
  readonly lang: Lang;
  /** AUTHOR_NOTIFY_CAP_PER_HOUR, as the mail says it. */
  readonly cap: number;
  readonly site: SiteSettings;
  /** SERVER_URL: the digest links to its `/ui`. */
  readonly serverUrl: string | undefined;
  /** The From line, or why there is none (no SENDER_EMAIL). */
  readonly sender: MailMessageSettings['sender'] | { readonly problem: string };
  readonly transport: MailTransport;
  readonly now: () => number;
  /** The MIME boundaries' shared part (tests fix it). */
  readonly boundary?: () => string;
}

/** The administration page under SERVER_URL (keeping its base path), or empty without it. */
export function administrationPageUrl(serverUrl: string | undefined): string {
  if (!serverUrl) return '';
  return new URL('ui', serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`).toString();
}

/** The digest of `digest` as a mail in `settings.lang`. */
export function renderOwnerDigest(
  digest: OwnerDigest,
  settings: Pick<OwnerDigestChannelSettings, 'lang' | 'cap' | 'site' | 'serverUrl'>,
): RenderedMail {
  const start = Date.parse(`${digest.hour}:00:00Z`);
  const minute = (at: number) => new Date(at).toISOString().slice(11, 16);
  const { name, url } = siteVariables(settings.site);
  return renderStandaloneMail(
    ownerDigestTemplates[settings.lang],
    {
      site: { name, url },
      digest: {
        count: digest.count,
        day: digest.hour.slice(0, 10),
        from: minute(start),
        to: minute(start + 3_600_000),
        cap: settings.cap,
        uiUrl: administrationPageUrl(settings.serverUrl),
      },
    },
    settings.lang,
  );
}

/** The owner's digest by mail, through the same transport and From line as every notice. */
export function createOwnerDigestChannel(settings: OwnerDigestChannelSettings): SendOwnerDigest {
  return async (digest) => {
    const { sender } = settings;
    if ('problem' in sender) throw new PermanentFailure(sender.problem);
    const message = await composeMailMessage(
      {
        to: settings.to,
        rendered: renderOwnerDigest(digest, settings),
        lang: settings.lang,
        // One Message-ID per hour's digest: a retry after an unrecorded success shows once where ids dedupe.
        messageIdLocalPart: `digest-${digest.hour}.owner`,
      },
      { ...settings, sender },
    );
    await sendMailMessage(settings.transport, message);
  };
}
