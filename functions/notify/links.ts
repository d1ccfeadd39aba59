import type { CommentStatus } from '../shared/domain/comment.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import { type ModerateClaims, signLinkToken } from '../shared/notify/link-token.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';

/**
 * The links a mail carries: the reader's unsubscribe link, the confirmation link (REPLY_MAIL=confirmed) and
 * the owner's approve / spam / delete links,
 * each a route of the comment function with a signed, expiring, single-purpose token
 * (shared/notify/link-token.ts) and no personal data (an address only as its keyed hash).
 */

/** The routes the links open (GET: a confirmation page; POST: the action). */
export const notificationRoutes = {
  unsubscribe: '/api/notification/unsubscribe',
  moderate: '/api/notification/moderate',
  confirm: '/api/notification/confirm',
} as const;

/**
 * How long an unsubscribe link works, in days: long, since a reader may leave from an old mail, and any
 * newer mail carries a fresh one.
 */
export const unsubscribeLinkDays = 365;

/** How long a confirmation link works, in days: as long as no second confirmation mail is sent. */
export const confirmLinkDays = 30;

/** The three moderation links of one comment, and when they stop working. */
export interface ModerationLinks {
  readonly approve: string;
  readonly spam: string;
  readonly delete: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/** Builds the links of a mail; each throws when SERVER_URL or the link key is not set. */
export interface NotificationLinks {
  /** The unsubscribe link of `address` in a mail about the thread `rootId`. */
  unsubscribe(address: string, rootId: string | undefined): Promise<string>;
  /**
   * The approve, spam and delete links of the comment `commentId`, whose status is `status` as the mail
   * shows it: each acts only while the comment is still in that status.
   */
  moderation(commentId: string, status: CommentStatus): Promise<ModerationLinks>;
  /** The confirmation link of `address`, whose reply notice of event `eventId` waits for it. */
  confirm(address: string, eventId: string): Promise<string>;
  /** True when links can be built (SERVER_URL set); the key is read only when a link is built. */
  readonly available: boolean;
}

/** What {@link createNotificationLinks} needs. */
export interface NotificationLinkSettings {
  /** The API's public address (SERVER_URL), possibly with a base path. */
  readonly serverUrl: string | undefined;
  /** The link key (LINK_SECRET, or LINK_SECRET_PARAMETER on AWS), never the sign-in key. */
  readonly linkKey: SecretSource;
  /** The keyed address hash (notify/address-hash.ts) the unsubscribe token carries. */
  readonly hashAddress: HashAddress;
  /** How long moderation links work (MODERATION_LINK_HOURS). */
  readonly moderationLinkHours: number;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** The notification links of a site whose API answers at `settings.serverUrl`. */
export function createNotificationLinks(settings: NotificationLinkSettings): NotificationLinks {
  const { serverUrl, linkKey, hashAddress, moderationLinkHours, now } = settings;

  const signingKey = async () => {
    const key = await linkKey();
    if (!key)
      throw new Error(
        'the link key (LINK_SECRET or LINK_SECRET_PARAMETER) is not set: no link can be signed',
      );
    return key;
  };

  return {
    available: serverUrl !== undefined,
    async unsubscribe(address, rootId) {
      const key = await signingKey();
      const expiresAt = now() + unsubscribeLinkDays * 86_400_000;
      const claims = {
        purpose: 'unsubscribe',
        addressHash: hashAddress(address),
        ...(rootId ? { rootId } : {}),
      } as const;
      return routeUrl(serverUrl, notificationRoutes.unsubscribe, await signLinkToken(key, claims, expiresAt));
    },
    async moderation(commentId, status) {
      const key = await signingKey();
      const expiresAt = now() + moderationLinkHours * 3_600_000;
      const link = async (action: ModerateClaims['action']) =>
        routeUrl(
          serverUrl,
          notificationRoutes.moderate,
          await signLinkToken(key, { purpose: 'moderate', action, commentId, status }, expiresAt),
        );
      const [approve, spam, remove] = await Promise.all([link('approve'), link('spam'), link('delete')]);
      return { approve, spam, delete: remove, expiresAt };
    },
    async confirm(address, eventId) {
      const key = await signingKey();
      const expiresAt = now() + confirmLinkDays * 86_400_000;
      const claims = { purpose: 'confirm', addressHash: hashAddress(address), eventId } as const;
      return routeUrl(serverUrl, notificationRoutes.confirm, await signLinkToken(key, claims, expiresAt));
    },
  };
}

/** `route` under SERVER_URL, keeping its base path (an API Gateway stage, a reverse proxy's prefix). */
function routeUrl(serverUrl: string | undefined, route: string, token: string): string {
  if (!serverUrl) throw new Error('SERVER_URL is not set: the links of a mail need the API address');
  const base = serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`;
  const url = new URL(route.slice(1), base);
  url.search = new URLSearchParams({ token }).toString();
  return url.toString();
}
