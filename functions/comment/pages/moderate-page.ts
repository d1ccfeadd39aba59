import type { CommentStatus, ListedComment } from '../../shared/domain/comment.js';
import type { Lang } from '../../shared/domain/messages.js';
import { pageLink } from '../../shared/domain/rss-feed.js';
import type { HttpResult } from '../../shared/http/http-types.js';
import type { ModerateClaims } from '../../shared/notify/link-token.js';
import { linkPage, paragraph, postButton } from './link-page.js';
import { escapeHtml } from './page-shell.js';

/** An action of a moderation link. */
export type MailAction = ModerateClaims['action'];

/** What the pages say, in each language. `{count}` is how many comments a deletion took. */
const texts = {
  en: {
    confirm: {
      approve: 'Approve this comment?',
      spam: 'Mark this comment as spam?',
      delete: 'Delete this comment?',
    },
    confirmText: {
      approve: 'It will be shown on its page.',
      spam: 'It will be hidden, and counted as spam.',
      delete: 'It will be deleted with the replies that answer it. This cannot be undone.',
    },
    button: { approve: 'Approve', spam: 'Mark as spam', delete: 'Delete' },
    done: { approve: 'Approved', spam: 'Marked as spam', delete: 'Deleted' },
    doneText: {
      approve: 'The comment is now shown on its page.',
      spam: 'The comment is hidden and counted as spam.',
      delete: 'Deleted {count} comment(s): this one and the replies that answered it.',
    },
    already: { approve: 'Already approved', spam: 'Already marked as spam' },
    alreadyText: 'Nothing was changed.',
    missing: 'Comment not found',
    missingText: 'It may have been deleted already. Nothing was changed.',
    changed: 'Nothing was changed',
    changedText:
      'The comment changed while this was being done. Look at it on the moderation page, then try again.',
    changedSince: {
      approved: 'This comment was approved in the meantime',
      waiting: 'This comment was set back to waiting in the meantime',
      spam: 'This comment was marked spam in the meantime',
    },
    changedSinceText:
      'Nothing was changed: this link acts only on the comment as your mail showed it. Look at it on the moderation page.',
    author: 'Author',
    page: 'Page',
    status: 'Status',
    posted: 'Posted',
    statuses: { approved: 'approved', waiting: 'waiting for approval', spam: 'spam' },
    moderation: 'Open the moderation page',
    anonymous: 'Anonymous',
  },
  'zh-CN': {
    confirm: { approve: '通过这条评论？', spam: '将这条评论标记为垃圾评论？', delete: '删除这条评论？' },
    confirmText: {
      approve: '评论将显示在其页面上。',
      spam: '评论将被隐藏，并计为垃圾评论。',
      delete: '评论及回复它的评论将被删除，且无法恢复。',
    },
    button: { approve: '通过', spam: '标记为垃圾评论', delete: '删除' },
    done: { approve: '已通过', spam: '已标记为垃圾评论', delete: '已删除' },
    doneText: {
      approve: '评论现已显示在其页面上。',
      spam: '评论已被隐藏，并计为垃圾评论。',
      delete: '已删除 {count} 条评论：这一条及回复它的评论。',
    },
    already: { approve: '已经通过', spam: '已经是垃圾评论' },
    alreadyText: '未做任何更改。',
    missing: '评论不存在',
    missingText: '它可能已被删除。未做任何更改。',
    changed: '未做任何更改',
    changedText: '操作期间评论发生了变化。请在审核页面查看后重试。',
    changedSince: {
      approved: '这条评论在此期间已被通过',
      waiting: '这条评论在此期间已被改回待审核',
      spam: '这条评论在此期间已被标记为垃圾评论',
    },
    changedSinceText: '未做任何更改：此链接只作用于邮件中所示状态的评论。请在审核页面查看。',
    author: '作者',
    page: '页面',
    status: '状态',
    posted: '发表于',
    statuses: { approved: '已通过', waiting: '待审核', spam: '垃圾评论' },
    moderation: '打开审核页面',
    anonymous: '匿名',
  },
} as const;

/** What a moderation page shows besides the comment: the language, the site, the query a button posts. */
export interface ModeratePageContext {
  readonly lang: Lang;
  /** `SITE_URL`: the comment's page is linked under it. */
  readonly siteUrl: string | undefined;
  /** The query the button posts back with: the token (and the language). */
  readonly query: Record<string, string>;
}

/** The moderation page, from this route's address (`/api/notification/moderate`): `/ui` beside `/api`. */
const moderationLink = (lang: Lang) => `<p><a href="../../ui">${escapeHtml(texts[lang].moderation)}</a></p>`;

/** The comment as the owner sees it before acting: author, page, status, time, and its sanitised HTML. */
function commentCard(comment: ListedComment, context: ModeratePageContext): string {
  const text = texts[context.lang];
  // Through pageLink, as the mails and feeds build it: a url such as `@evil.example/x` stays on the site.
  const pageUrl = pageLink(context.siteUrl, comment.url);
  const page = pageUrl
    ? `<a href="${escapeHtml(pageUrl)}" rel="noopener noreferrer">${escapeHtml(comment.url)}</a>`
    : escapeHtml(comment.url);
  return `<dl>
<dt>${escapeHtml(text.author)}</dt><dd>${escapeHtml(comment.nick || text.anonymous)}</dd>
<dt>${escapeHtml(text.page)}</dt><dd>${page}</dd>
<dt>${escapeHtml(text.status)}</dt><dd>${escapeHtml(text.statuses[comment.status])}</dd>
<dt>${escapeHtml(text.posted)}</dt><dd>${escapeHtml(new Date(comment.insertedAt).toISOString())}</dd>
</dl>
<div class="comment">${comment.html}</div>`;
}

/** Why a moderation link leaves its comment as it is: the action is done already, or the comment moved on. */
export type LinkStanding =
  | { readonly kind: 'already'; readonly action: Exclude<MailAction, 'delete'> }
  | { readonly kind: 'changedSince'; readonly status: CommentStatus };

/**
 * Whether a link for `action` on a comment in `issuedFor` (its status when the mail was made) may still act
 * on `comment` as it is now: undefined when it may; `already` when the action would leave it as it is
 * (approving an approved one, marking spam as spam); `changedSince` when its status is no longer the one
 * the owner saw (marked spam in `/ui` since, say): the link then changes nothing.
 */
export function linkStanding(
  action: MailAction,
  issuedFor: CommentStatus,
  comment: Pick<ListedComment, 'status'>,
): LinkStanding | undefined {
  if (action === 'approve' && comment.status === 'approved') return { kind: 'already', action };
  if (action === 'spam' && comment.status === 'spam') return { kind: 'already', action };
  return comment.status === issuedFor ? undefined : { kind: 'changedSince', status: comment.status };
}

/**
 * `GET /api/notification/moderate`: the comment and one button for the link's action; or, when the link
 * can no longer act (done already, or the comment's status changed since the mail), why, and no button.
 * The comment's HTML is the sanitised HTML its page shows.
 */
export function moderateConfirmPage(
  comment: ListedComment,
  link: { readonly action: MailAction; readonly status: CommentStatus },
  context: ModeratePageContext,
): HttpResult {
  const { action } = link;
  const text = texts[context.lang];
  const card = commentCard(comment, context);
  const standing = linkStanding(action, link.status, comment);
  if (standing) {
    const { title, body } = standingText(standing, context.lang);
    return linkPage({
      status: 200,
      lang: context.lang,
      title,
      body: `${paragraph(body)}\n${card}\n${moderationLink(context.lang)}`,
    });
  }
  return linkPage({
    status: 200,
    lang: context.lang,
    title: text.confirm[action],
    body: `${card}\n${paragraph(text.confirmText[action])}\n${postButton(
      context.query,
      text.button[action],
      action === 'approve' ? '' : 'danger',
    )}\n${moderationLink(context.lang)}`,
  });
}

/** The title and text of a link that can no longer act. */
function standingText(standing: LinkStanding, lang: Lang): { title: string; body: string } {
  const text = texts[lang];
  return standing.kind === 'already'
    ? { title: text.already[standing.action], body: text.alreadyText }
    : { title: text.changedSince[standing.status], body: text.changedSinceText };
}

/** What became of a moderation link's POST. */
export type MailModerationOutcome =
  | { readonly kind: 'done'; readonly action: MailAction; readonly count?: number }
  | LinkStanding
  | { readonly kind: 'missing' }
  | { readonly kind: 'changed' };

/**
 * The answer of `POST /api/notification/moderate`: 200 when done (or done already), 404 missing, 409 when
 * the comment's status changed since the mail (nothing done) or changed while this was being done.
 */
export function moderateResultPage(outcome: MailModerationOutcome, lang: Lang): HttpResult {
  const text = texts[lang];
  const page = (status: number, title: string, body: string) =>
    linkPage({ status, lang, title, body: `${paragraph(body)}\n${moderationLink(lang)}` });
  switch (outcome.kind) {
    case 'done':
      return page(
        200,
        text.done[outcome.action],
        text.doneText[outcome.action].replace('{count}', String(outcome.count ?? 1)),
      );
    case 'already':
    case 'changedSince': {
      const { title, body } = standingText(outcome, lang);
      return page(outcome.kind === 'already' ? 200 : 409, title, body);
    }
    case 'missing':
      return page(404, text.missing, text.missingText);
    case 'changed':
      return page(409, text.changed, text.changedText);
  }
}
