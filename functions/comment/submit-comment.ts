import { bearerToken } from '../shared/auth/token.js';
import { isAdministrator, type ResolveViewer } from '../shared/auth/viewer.js';
import type { Config } from '../shared/config.js';
import type { CommentStatus, StoredComment } from '../shared/domain/comment.js';
import type { InitialStatus, StatusInput } from './initial-status.js';
import { submitBodySchema } from '../shared/domain/comment-schemas.js';
import { AppError } from '../shared/domain/errors.js';
import { contentHash, hashIp } from '../shared/domain/hashing.js';
import { fitsInOneItem } from '../shared/domain/item-size.js';
import { limits } from '../shared/domain/limits.js';
import { translate } from '../shared/domain/messages.js';
import { type Presentation, presentComment, presentReplyUser } from '../shared/domain/present-comment.js';
import { loadUserAgentParser } from '../shared/domain/write-only-modules.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import { isPlainAddress } from '../shared/domain/mail-address.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import { fieldWithWord, isRestrictedName } from '../shared/spam/field-rules.js';
import type { CommentRepository } from '../shared/table/comment-repository.js';
import type { MarkRefusedPost, ReadSubmitMarks } from '../shared/table/submit-marks.js';
import type { CaptchaDemand, CaptchaGuard } from './captcha-guard.js';

/** What storing a submission takes. */
export interface SubmitCommentDependencies {
  readonly viewer: ResolveViewer;
  readonly comments: Pick<CommentRepository, 'insert' | 'find'>;
  readonly config: Pick<
    Config,
    | 'IP_HASH_SALT'
    | 'IPQPS'
    | 'BLOCKED_IP_HASHES'
    | 'BLOCKED_WORDS'
    | 'RESTRICTED_NAMES'
    | 'COMMENT_AUDIT'
    | 'READONLY_AGE'
  >;
  /**
   * A submission's rate mark, duplicate mark, administrator mail, and as needed its address's trust mark and
   * its article's first-comment time, read before it costs anything.
   */
  readonly readSubmitMarks: ReadSubmitMarks;
  /** Counts a submission refused for what it revealed against its IP's rate. */
  readonly markRefusedPost: MarkRefusedPost;
  /** Markdown to sanitised HTML. */
  readonly renderMarkdown: (text: string) => Promise<string>;
  /** The captcha check (captcha-guard.ts): a token demanded at once, verified once the marks let the post through. */
  readonly captcha: CaptchaGuard;
  /** The status a new comment starts with, and why it is held (initial-status.ts). */
  readonly initialStatus: (comment: StatusInput) => Promise<InitialStatus>;
  /** The keyed hash an address's trust mark is kept under (shared/notify/address-hash.ts). */
  readonly hashAddress: HashAddress;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** A new comment id (a ULID) for a comment inserted at `time`. */
  readonly newId: (time: number) => string;
  readonly presentation: Presentation;
}

/** Milliseconds in a day, for READONLY_AGE. */
const dayMs = 86_400_000;

/**
 * `POST /api/comment`: validates; refuses an anonymous post without the captcha token when a captcha is in
 * force, before any read; refuses, before anything costly, what its rules and marks say will be refused
 * (blocked IP, a blocked word or a restricted nick, an article closed by its age, an administrator's mail
 * from an anonymous poster, duplicate content, too fast); then verifies the captcha token (a refused or
 * reused token is a 403; a provider that cannot be asked holds the comment as waiting); renders
 * the markdown once, decides the status (filters, moderation, Akismet), and stores the comment in one
 * transaction with its duplicate mark, its rate mark, its parents' checks and its counters. The poster's
 * answer shows the status, waiting or spam included; nobody else sees such a comment until it is approved.
 */
export function createSubmitComment(dependencies: SubmitCommentDependencies): Router {
  const { viewer: resolveViewer, comments, config, now, newId, presentation } = dependencies;
  const { readSubmitMarks, markRefusedPost, renderMarkdown, initialStatus, captcha, hashAddress } =
    dependencies;
  return async (request) => {
    const body = parseInput(submitBodySchema, request.jsonBody(), request.lang);
    const tokens = { turnstile: body.turnstile, recaptchaV3: body.recaptchaV3 };
    const pid = body.pid ?? undefined;
    const rid = body.rid ?? undefined;
    // The v2 client expects the legacy route to prefix replies with a link to the parent. The rules and Akismet
    // judge this text, the one stored and shown, so that `at` cannot carry what `comment` may not.
    const orig = request.legacy && pid && body.at ? `[@${body.at}](#${pid}): ${body.comment}` : body.comment;
    // A post with no sign-in token is anonymous: a missing captcha token is refused before any read. One with
    // a sign-in token may be an administrator's, who skips the captcha: it is demanded once that is known.
    const presented = bearerToken(request.authorization);
    const mayBeAdmin = presented !== undefined && presented !== 'undefined';
    const anonymousDemand = mayBeAdmin ? undefined : await captcha.demand(tokens, request);
    const ipHash = hashIp(config.IP_HASH_SALT, request.sourceIp);
    const hash = contentHash(body);
    // One read of the marks beside the token check: a submission they refuse costs no rendering and no
    // spam-service call. The transaction below checks the rate and duplicate marks again, and decides.
    // Only a plain address can be trusted (COMMENT_AUDIT=first): an empty or made-up mail is always held.
    const trustHash =
      config.COMMENT_AUDIT === 'first' && isPlainAddress(body.mail) ? hashAddress(body.mail) : undefined;
    const [viewer, marks] = await Promise.all([
      resolveViewer(request.authorization),
      readSubmitMarks({
        url: body.url,
        contentHash: hash,
        ipHash,
        mail: body.mail,
        ...(trustHash === undefined ? {} : { trustHash }),
        ...(config.READONLY_AGE > 0 ? { withFirstCommentAt: true } : {}),
      }),
    ]);
    // Only an administrator's token waives the visitors' rules; a guest's posts as a visitor's does.
    const byAdmin = isAdministrator(viewer);
    // A post whose sign-in token is no administrator's is refused without its captcha token now, before any
    // rule answers: a missing token must not let anyone probe the word lists, names or duplicates.
    const demand: CaptchaDemand = byAdmin
      ? { kind: 'none' }
      : (anonymousDemand ?? (await captcha.demand(tokens, request)));
    const insertedAt = now();
    const windowMs = config.IPQPS * 1000;
    // Administrators are not rate-limited: they may answer many comments in a row.
    const rateLimited = config.IPQPS > 0 && !byAdmin;
    if (!byAdmin && config.BLOCKED_IP_HASHES.includes(ipHash)) {
      throw new AppError('forbidden', translate(request.lang, 'ipBlocked'));
    }
    // The owner's rules on words and names, for visitors: refused outright, nothing stored, nothing rendered.
    const blockedIn = byAdmin
      ? undefined
      : fieldWithWord({ text: orig, nick: body.nick, link: body.link }, config.BLOCKED_WORDS);
    if (blockedIn) {
      throw new AppError('forbidden', translate(request.lang, 'blockedWord', { field: blockedIn }), {
        [blockedIn]: 'contains a blocked word (BLOCKED_WORDS)',
      });
    }
    if (!byAdmin && isRestrictedName(body.nick, config.RESTRICTED_NAMES)) {
      throw new AppError('forbidden', translate(request.lang, 'restrictedName'), {
        nick: 'is a restricted name (RESTRICTED_NAMES)',
      });
    }
    // An article closed by its age takes nobody's comment but an administrator's; one with no first-comment
    // time yet (no comment, or not migrated) is open.
    if (
      !byAdmin &&
      config.READONLY_AGE > 0 &&
      marks.firstCommentAt !== undefined &&
      insertedAt - marks.firstCommentAt > config.READONLY_AGE * dayMs
    ) {
      throw new AppError('read_only', translate(request.lang, 'readOnly', { days: config.READONLY_AGE }), {
        url: `takes no new comments ${config.READONLY_AGE} days after its first (READONLY_AGE)`,
      });
    }
    if (rateLimited && marks.lastPostAt !== undefined && marks.lastPostAt > insertedAt - windowMs) {
      throw new AppError('rate_limited', translate(request.lang, 'rateLimited'));
    }
    // Nobody posts as an administrator without signing in: refused rather than posted without the mail, so
    // the administrator who forgot to sign in learns why, and nobody's comment is changed behind their back.
    if (!byAdmin && marks.adminMail) {
      // Counted against the IP like a post: finding out which addresses are administrators' costs a wait.
      if (rateLimited) await markRefusedPost({ ipHash, at: insertedAt, windowMs });
      throw new AppError('forbidden', translate(request.lang, 'adminMailNeedsSignIn'), {
        mail: 'belongs to an administrator: sign in to use it',
      });
    }
    if (marks.duplicate) throw new AppError('duplicate', translate(request.lang, 'duplicate'));
    // Administrators skip the captcha; anyone else's token is asked about only now, past the cheap refusals,
    // and before rendering and Akismet: a refused token costs neither. A refused token counts against the IP
    // like a post, so junk tokens cost their sender a wait each, not the provider's quota.
    const captchaOutcome = await captcha.verify(demand, request).catch(async (error: unknown) => {
      if (rateLimited && error instanceof AppError)
        await markRefusedPost({ ipHash, at: insertedAt, windowMs });
      throw error;
    });

    const [html, { describeUserAgent }] = await Promise.all([renderMarkdown(orig), loadUserAgentParser()]);
    if (!fitsInOneItem(orig, html)) {
      throw new AppError(
        'payload_too_large',
        translate(request.lang, 'commentTooLarge', { limit: limits.storedCommentBytes }),
      );
    }
    const { status, heldBecause } = await initialStatus({
      byAdmin,
      // The provider could not say: the comment waits for the owner, neither refused nor approved.
      ...(captchaOutcome.passed ? {} : { captchaUnreachable: true }),
      trusted: marks.trusted,
      ip: request.sourceIp,
      userAgent: body.ua,
      url: body.url,
      nick: body.nick,
      mail: body.mail,
      link: body.link,
      text: orig,
    });
    const comment: StoredComment = {
      id: newId(insertedAt),
      url: body.url,
      ...(pid !== undefined && rid !== undefined ? { pid, rid } : {}),
      nick: body.nick,
      mail: body.mail,
      link: body.link,
      ua: body.ua,
      ipHash,
      ...describeUserAgent(body.ua),
      orig,
      html,
      status,
      like: 0,
      sticky: false,
      insertedAt,
      ...(byAdmin ? { type: 'administrator' as const } : {}),
      lang: request.lang,
      ...(heldBecause === undefined ? {} : { heldBecause }),
    };

    // The answer names a reply's parent (`reply_user`) as the list does, and the widget shows it at once; the
    // parent is read beside the write, not after it. A failed read only leaves the name out: the reply is stored.
    const insert = (parentStatus?: CommentStatus) =>
      comments.insert(comment, {
        contentHash: hash,
        ...(rateLimited ? { rateLimit: { ipHash, windowMs } } : {}),
        ...(parentStatus ? { parentStatus } : {}),
        // A visitor answers only what visitors can see; an administrator may answer a held comment too.
        ...(byAdmin ? {} : { visibleParents: true }),
      });
    const parentRef =
      pid === undefined ? undefined : { url: body.url, id: pid, ...(pid === rid ? {} : { rid }) };
    const [firstTry, parent] = await Promise.all([
      insert(),
      parentRef === undefined
        ? undefined
        : comments.find(parentRef, { withHeld: byAdmin }).catch(() => undefined),
    ]);
    let result = firstTry;
    // The insert looked for the parent where visible replies are; one held from visitors (an administrator
    // answering a waiting reply) is elsewhere: the transaction wrote nothing, so it is tried there.
    if (
      byAdmin &&
      !result.ok &&
      result.reason === 'parent_missing' &&
      parent &&
      parent.status !== 'approved'
    ) {
      result = await insert(parent.status);
    }
    if (!result.ok) {
      switch (result.reason) {
        // Our own write already landed: the SDK retried a commit whose answer was lost, and a fresh
        // ULID collides with nothing else. The comment is stored; say so.
        case 'id_taken':
          break;
        case 'duplicate':
          throw new AppError('duplicate', translate(request.lang, 'duplicate'));
        case 'rate_limited':
          throw new AppError('rate_limited', translate(request.lang, 'rateLimited'));
        case 'parent_missing':
          throw new AppError(
            'invalid_input',
            translate(request.lang, 'parentNotFound', { field: 'pid', id: pid ?? '' }),
            { pid: 'must name a comment of the same url', rid: 'must name the root of that thread' },
          );
        default:
          // A refusal added to the storage without an answer here fails to compile.
          throw new Error(`unhandled insert refusal: ${result.reason satisfies never}`);
      }
    }
    const options = { ...presentation, legacy: request.legacy };
    return envelope({
      ...presentComment(comment, options, { withUrl: true }),
      ...(parent?.status === 'approved' ? { reply_user: presentReplyUser(parent, options) } : {}),
    });
  };
}
