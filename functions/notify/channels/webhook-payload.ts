import type { Notice, NoticeComment, NoticeTemplate } from '../notice.js';
import { type SiteSettings, type SiteVariables, siteVariables } from '../templates/site.js';

/**
 * The webhook's JSON body, version 1 (docs/notifications.md shows it). It is a public contract: a field is
 * added in a new version, never changed in this one. It carries what the page shows of a comment, never a
 * mail address, an IP (or its hash) or a user agent.
 */

/** What happened. */
export type WebhookEventType = 'comment.created' | 'comment.waiting' | 'comment.replied' | 'test';

/** A comment in the payload. */
export interface WebhookComment {
  readonly id: string;
  /** The page path. */
  readonly url: string;
  /** The comment on its page, when SITE_URL is set; else empty. */
  readonly postUrl: string;
  readonly nick: string;
  /** The commenter's website, as typed (may be empty). */
  readonly link: string;
  /** The stored, sanitised HTML. */
  readonly html: string;
  /** The text as typed (markdown). */
  readonly text: string;
  readonly status: NoticeComment['status'];
  /** ISO 8601. */
  readonly insertedAt: string;
  /** The comment it answers, and its thread's root (replies only). */
  readonly pid?: string;
  readonly rid?: string;
}

/** The body of one webhook delivery. */
export interface WebhookPayload {
  readonly type: WebhookEventType;
  readonly version: 1;
  /** When this delivery was made, ISO 8601. */
  readonly timestamp: string;
  readonly data: {
    /** The outbox event's id (a ULID): the same in every retry of the event. */
    readonly eventId: string;
    readonly site: { readonly name: string; readonly url: string };
    /** The comment (absent in a test). */
    readonly comment?: WebhookComment;
    /** The comment it answers (replies only). */
    readonly parent?: WebhookComment;
  };
}

const eventTypes: Readonly<Record<NoticeTemplate, WebhookEventType>> = {
  'owner-new': 'comment.created',
  'owner-waiting': 'comment.waiting',
  reply: 'comment.replied',
  test: 'test',
  // Never sent: a confirmation goes by mail to a reader, and no webhook is a reader's channel.
  confirm: 'comment.replied',
};

/** The payload of `notice`, delivered at `nowMs`. */
export function webhookPayload(notice: Notice, site: SiteSettings, nowMs: number): WebhookPayload {
  const { name, url } = siteVariables(site);
  return {
    type: eventTypes[notice.template],
    version: 1,
    timestamp: new Date(nowMs).toISOString(),
    data: {
      eventId: notice.eventId,
      site: { name, url },
      ...(notice.self ? { comment: webhookComment(notice.self, siteVariables(site, notice.self)) } : {}),
      ...(notice.parent ? { parent: webhookComment(notice.parent, siteVariables(site, notice.parent)) } : {}),
    },
  };
}

/** The fields of `comment` a webhook may see, named one by one: nothing private can slip in. */
function webhookComment(comment: NoticeComment, site: SiteVariables): WebhookComment {
  return {
    id: comment.id,
    url: comment.url,
    postUrl: site.postUrl,
    nick: comment.nick,
    link: comment.link,
    html: comment.html,
    text: comment.orig,
    status: comment.status,
    insertedAt: new Date(comment.insertedAt).toISOString(),
    ...(comment.pid === undefined ? {} : { pid: comment.pid }),
    ...(comment.rid === undefined ? {} : { rid: comment.rid }),
  };
}
