import { type NotifyConfig, loadNotifyConfig } from '../../../../../functions/notify/notify-config.js';
import type { Notice, NoticeComment } from '../../../../../functions/notify/notice.js';
import type { ChannelSecrets } from '../../../../../functions/notify/channels/channels.js';
import type { SecretSource } from '../../../../../functions/shared/secrets/parameter-secret.js';
import { testConfig } from '../../../../support/test-config.js';

/** Notices, settings and secrets shared by the channel tests. */

/** 2026-11-25 12:00 UTC: tokens and dates are computed from it. */
export const now = Date.UTC(2026, 10, 25, 12);

/** The link key: link tokens are signed with a key derived from it. */
export const linkKey = 'link-key-for-tests-0123456789abcdef';

/** The address the reader typed under the comment being answered: the only recipient of a reply mail. */
export const readerAddress = 'reader@example.com';
/** The replier's own address: never in any notice (NoticeComment has no mail), checked for anyway. */
export const replierAddress = 'eve@evil.example';
export const ownerAddress = 'owner@blog.example';
export const senderAddress = 'noreply@blog.example';

/** A source that always gives `value`. */
export function secretOf(value?: string): SecretSource {
  return () => Promise.resolve(value);
}

/** The secrets, with `overrides`. */
export function secrets(overrides: Partial<ChannelSecrets> = {}): ChannelSecrets {
  return {
    smtpPass: secretOf(),
    botToken: secretOf(),
    webhookSecret: secretOf(),
    linkKey: secretOf(linkKey),
    ...overrides,
  };
}

/** The site's settings (SITE_NAME with an `&`, to see it escaped in HTML and not in a subject). */
export const config = testConfig({ SITE_NAME: 'Notes & Queries', SITE_URL: 'https://blog.example' });

/** The notifier's settings: a sender, an owner, the API's address; `env` on top. */
export function notifyConfig(env: Record<string, string> = {}): NotifyConfig {
  return loadNotifyConfig({
    SENDER_EMAIL: senderAddress,
    SENDER_NAME: 'Notes & Queries',
    AUTHOR_EMAIL: ownerAddress,
    SERVER_URL: 'https://comments.blog.example/prod',
    ...env,
  });
}

/** The reader's comment: a thread root. */
export const parentComment: NoticeComment = {
  id: '01JDKW0000ROOT000000000000',
  url: '/posts/hello/',
  nick: 'Reader',
  link: '',
  html: '<p>What about <em>caching</em>?</p>',
  orig: 'What about *caching*?',
  status: 'approved',
  insertedAt: now - 3_600_000,
};

/**
 * A hostile reply: markup in the nick, a link whose text claims another address than its target, and a
 * tracking image.
 */
export const replyComment: NoticeComment = {
  id: '01JDKW0000REPLY00000000000',
  url: '/posts/hello/',
  nick: '<script>alert(1)</script> Eve & "Co"',
  link: 'https://eve.example',
  html:
    '<p>See <a href="https://evil.example/login" target="_blank" rel="nofollow">https://blog.example/login</a>' +
    ' <img src="https://tracker.example/pixel.gif" alt="x"></p>',
  orig: 'See [https://blog.example/login](https://evil.example/login)',
  status: 'approved',
  insertedAt: now - 60_000,
  rid: parentComment.id,
  pid: parentComment.id,
};

/** The reply notice to the reader, in `lang`. */
export function replyNotice(overrides: Partial<Notice> = {}): Notice {
  return {
    eventId: replyComment.id,
    recipient: 'parent',
    template: 'reply',
    lang: 'en',
    to: readerAddress,
    self: replyComment,
    parent: parentComment,
    ...overrides,
  };
}

/** The owner's notice of a comment waiting for approval. */
export function waitingNotice(overrides: Partial<Notice> = {}): Notice {
  return {
    eventId: replyComment.id,
    recipient: 'owner',
    template: 'owner-waiting',
    lang: 'en',
    to: ownerAddress,
    self: { ...replyComment, status: 'waiting' },
    parent: parentComment,
    ...overrides,
  };
}
