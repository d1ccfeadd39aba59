import { newUlid } from '../shared/domain/new-ulid.js';
import type { Config } from '../shared/config.js';
import { createAvatarResolver } from '../shared/domain/avatar.js';
import type { Presentation } from '../shared/domain/present-comment.js';
import { loadMarkdownRenderer, loadRegionOf } from '../shared/domain/write-only-modules.js';
import { createAkismetCheck, type SpamCheck } from '../shared/spam/akismet.js';
import { type AccountRepository, createAccountRepository } from '../shared/table/account-repository.js';
import { createSignInRecords, type SignInRecords } from '../shared/table/sign-in-records.js';
import { cacheAuthorProfiles, type CachedAuthorProfiles } from '../shared/caches/cached-author-profiles.js';
import { type AccountTotpStore, createAccountTotpStore } from '../shared/table/account-totp.js';
import { createPasskeyStore, type PasskeyStore } from '../shared/table/passkey-store.js';
import { cacheCounterReads } from '../shared/caches/cached-counters.js';
import { createAuthorProfileReader } from '../shared/table/author-profiles.js';
import { cacheListReads } from '../shared/caches/cached-reads.js';
import { cacheAuthorCounts } from '../shared/caches/cached-author-counts.js';
import {
  type AuthorKeyOf,
  type AuthorTallyOf,
  createAuthorKeyOf,
  createAuthorTally,
} from '../shared/domain/author-tally.js';
import { type AuthorCounts, createAuthorCounts } from '../shared/table/author-counts.js';
import { type AuthorFeed, createAuthorFeed } from '../shared/table/author-feed.js';
import { createMyDataStore, type MyDataStore } from '../shared/table/my-data-store.js';
import { createFunctionClient } from '../shared/dynamodb-client/client.js';
import { createAddressHasher, type HashAddress } from '../shared/notify/address-hash.js';
import { type CommentRepository, createCommentRepository } from '../shared/table/comment-repository.js';
import { type CounterRepository, createCounterRepository } from '../shared/table/counter-repository.js';
import { createLayoutCheck } from '../shared/table/layout.js';
import {
  createModerationRepository,
  type ModerationRepository,
} from '../shared/table/moderation-repository.js';
import { createOutboxRepository, type OutboxRepository } from '../shared/table/outbox-repository.js';
import { createReplyConfirmations, type ReplyConfirmations } from '../shared/table/reply-confirmations.js';
import type { SecretSource } from '../shared/secrets/parameter-secret.js';
import { type CaptchaSecretSource, createCaptchaSecret } from '../shared/secrets/captcha-secret.js';
import { createCaptchaVerifier, type VerifyCaptcha } from '../shared/spam/captcha-verifier.js';
import { type AccountLimits, createAccountLimits } from '../shared/table/account-limits.js';
import { createAccountMailQueue, type QueueAccountMail } from '../shared/table/account-mail-event.js';
import { type ClaimCaptchaToken, createCaptchaTokenClaimer } from '../shared/table/captcha-tokens.js';
import { type ClaimSsoAssertion, createSsoAssertionClaimer } from '../shared/table/sso-assertions.js';
import {
  createRefusedPostMarker,
  createSubmitMarksReader,
  type MarkRefusedPost,
  type ReadSubmitMarks,
} from '../shared/table/submit-marks.js';

import { createOAuthFlows, type OAuthFlows } from '../shared/table/oauth-flows.js';
import type { SignInProvider } from './sign-in-provider.js';
import { createSignInProviders } from './sign-in-providers.js';

/** Everything the comment function's routes use, built once per cold start (comment-handler.ts hands each route its part). */
export interface CommentDependencies {
  readonly config: Config;
  /** Comments: pages, recent, insert, votes (reads cached per instance: caches/cached-reads.ts). */
  readonly comments: CommentRepository;
  /** Comment counts per page and for the site (cached per instance: caches/cached-counters.ts). */
  readonly counters: Pick<CounterRepository, 'siteCommentCount' | 'commentCounts'>;
  readonly moderation: ModerationRepository;
  /** Accounts, administrators' and visitors' (issue 27). */
  readonly accounts: AccountRepository;
  /** The sign-in attempts of each IP and address, which limit `POST /api/token`. */
  readonly signInRecords: SignInRecords;
  /**
   * The account authors' current profiles, overlaid on their comments by every answer that presents comments:
   * one BatchGetItem of a page's distinct authors, cached per instance like the counters (LIST_CACHE_MS).
   */
  readonly authorProfiles: CachedAuthorProfiles;
  /** The second factor's conditional writes on account items (TOTP: two-factor.ts, second-factor.ts). */
  readonly accountTotp: AccountTotpStore;
  /** Accounts' passkeys and the WebAuthn challenges handed out (passkeys.ts). */
  readonly passkeys: PasskeyStore;
  /** The notification log for `/ui` (re-drive, test mail) and the suppressions the unsubscribe links record. */
  readonly outbox: OutboxRepository;
  /** Readers' confirmations of reply mail, which the confirmation links record (REPLY_MAIL=confirmed). */
  readonly confirmations: Pick<ReplyConfirmations, 'confirm' | 'releasePending'>;
  /** Registrations and reset requests per IP, account mails per address, account links used once. */
  readonly accountLimits: AccountLimits;
  /** Queues an account mail (confirm, reset, changed, already-registered) in the outbox. */
  readonly queueAccountMail: QueueAccountMail;
  /**
   * The key that signs sign-in tokens; undefined when sign-in is not configured. `{ refresh: true }`
   * asks for the key again after a token failed verification with it (it may have been rotated).
   */
  readonly tokenSecret: SecretSource;
  /**
   * The key that signs the links in mails (unsubscribe, moderate); undefined when not configured (every
   * link is then refused). Never the sign-in key.
   */
  readonly linkSecret: SecretSource;
  /** Akismet, when AKISMET_KEY is set (on AWS, AKISMET_KEY_PARAMETER: handler.ts). */
  readonly spamCheck: SpamCheck | undefined;
  /**
   * The captcha in force (Turnstile's or reCAPTCHA v3's secret); undefined when none is configured
   * (TURNSTILE_SECRET, RECAPTCHA_V3_SECRET; on AWS their SSM parameters: handler.ts).
   */
  readonly captchaSecret: CaptchaSecretSource | undefined;
  /** Asks the captcha provider about a token (TURNSTILE_VERIFY_URL, RECAPTCHA_VERIFY_URL). */
  readonly verifyCaptcha: VerifyCaptcha;
  /** Records a captcha token as used; false when it was used before. */
  readonly claimCaptchaToken: ClaimCaptchaToken;
  /** A submission's rate mark, duplicate mark and administrator mail, read before it costs anything. */
  readonly readSubmitMarks: ReadSubmitMarks;
  /** Counts a submission refused for what it revealed against its IP's rate. */
  readonly markRefusedPost: MarkRefusedPost;
  /**
   * Markdown to sanitised HTML. By default the renderer is loaded on first use (write-only-modules.ts), so
   * reads never load markdown-it and sanitize-html; tests inject one that counts renders.
   */
  readonly renderMarkdown: (text: string) => Promise<string>;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now: () => number;
  /** The keyed hash an address's trust mark is kept under (shared/notify/address-hash.ts). */
  readonly hashAddress: HashAddress;
  /** A new comment id (a ULID) for a comment inserted at `time`. */
  readonly newId: (time: number) => string;
  /** How comments are shown, but for the route-dependent `legacy` flag. */
  readonly presentation: Presentation;
  /** The level counters and the user wall (reads cached per instance: caches/cached-author-counts.ts). */
  readonly authorCounts: AuthorCounts;
  /** The level counter a comment counts for, with what the wall shows of an anonymous author. */
  readonly authorOf: AuthorTallyOf;
  /** The level counter a comment counts for (its key alone, for the levels of a page). */
  readonly authorKeyOf: AuthorKeyOf;
  /** Accounts' comments, for their feeds (`/api/comment/rss?user_id=`). */
  readonly authorFeed: AuthorFeed;
  /** A commenter's download and erase (`/api/my-data`): their feed entries, mail state, erase progress and the log. */
  readonly myData: MyDataStore;
  /** The region of a poster's IP (region/region-lookup.ts, loaded on the first submit); undefined: DISABLE_REGION. */
  readonly regionOf: ((ip: string) => Promise<string | undefined>) | undefined;
  /**
   * The key the site's backend signs single sign-on assertions with (SSO_SECRET; on AWS its SSM parameter,
   * wired by handler.ts); it gives undefined when not configured.
   */
  readonly ssoSecret: SecretSource;
  /** Records a single sign-on assertion's `jti` as used; false when it was used before. */
  readonly claimSsoAssertion: ClaimSsoAssertion;
  /**
   * The OpenID Connect issuers and GitHub readers may sign in with (issue 28), in the order of their buttons; their
   * secrets' SSM parameters are wired by handler.ts, on AWS.
   */
  readonly signInProviders: readonly SignInProvider[];
  /** Their sign-ins under way, each taken once by its callback. */
  readonly oauthFlows: OAuthFlows;
}

/** Builds the comment function's dependencies for `config`; `overrides` lets tests and local mode swap any part. */
export function createCommentDependencies(
  config: Config,
  overrides: Partial<CommentDependencies> = {},
): CommentDependencies {
  const client = createFunctionClient(config);
  const hashAddress = overrides.hashAddress ?? createAddressHasher(config.IP_HASH_SALT);
  const avatarFor = createAvatarResolver({
    proxy: config.AVATAR_PROXY,
    template: config.GRAVATAR_STR,
    qq: config.AVATAR_QQ,
  });
  // The level counters are keyed by account, or by the keyed hash the notifier also keeps addresses under.
  const authorOf = overrides.authorOf ?? createAuthorTally({ hashAddress, avatarFor });
  // Reads that depend on the item layout first check, once per instance, that the table has it.
  const ensureLayout = createLayoutCheck(client, config.TABLE_NAME);
  // Counts are cached as lists are; a comment write forgets its article's counts and the site's.
  const { counters, forgetArticle } = cacheCounterReads(createCounterRepository(client, config.TABLE_NAME), {
    ttlMs: config.LIST_CACHE_MS,
  });
  const { comments, moderation } = cacheListReads(
    {
      comments: createCommentRepository(client, config.TABLE_NAME, ensureLayout),
      // An approval trusts the comment's address under the keyed hash the notifier also keeps addresses under.
      moderation: createModerationRepository(
        client,
        config.TABLE_NAME,
        ensureLayout,
        Date.now,
        hashAddress,
        authorOf,
      ),
    },
    { ttlMs: config.LIST_CACHE_MS, onWrite: forgetArticle },
  );
  return {
    config,
    comments,
    counters,
    moderation,
    accounts: createAccountRepository(client, config.TABLE_NAME),
    signInRecords: createSignInRecords(client, config.TABLE_NAME),
    authorProfiles: cacheAuthorProfiles(createAuthorProfileReader(client, config.TABLE_NAME), {
      ttlMs: config.LIST_CACHE_MS,
    }),
    accountTotp: createAccountTotpStore(client, config.TABLE_NAME),
    passkeys: createPasskeyStore(client, config.TABLE_NAME),
    outbox: createOutboxRepository(client, config.TABLE_NAME),
    confirmations: createReplyConfirmations(client, config.TABLE_NAME),
    accountLimits: createAccountLimits(client, config.TABLE_NAME),
    queueAccountMail: createAccountMailQueue(client, config.TABLE_NAME),
    // JWT_TOKEN and LINK_SECRET only: the keys read through the Parameters and Secrets extension
    // (secrets/token-secret.ts, link-secret.ts) are wired by handler.ts, on AWS, where the function has the layer.
    tokenSecret: async () => config.JWT_TOKEN,
    linkSecret: async () => config.LINK_SECRET,
    spamCheck: config.AKISMET_KEY
      ? createAkismetCheck({ key: config.AKISMET_KEY, siteUrl: config.SITE_URL ?? 'http://localhost' })
      : undefined,
    // The plain secrets only, as for Akismet: their SSM parameters are wired by handler.ts, on AWS.
    captchaSecret: createCaptchaSecret(config, undefined),
    verifyCaptcha: createCaptchaVerifier({
      turnstileUrl: config.TURNSTILE_VERIFY_URL,
      recaptchaUrl: config.RECAPTCHA_VERIFY_URL,
    }),
    claimCaptchaToken: createCaptchaTokenClaimer(client, config.TABLE_NAME),
    readSubmitMarks: createSubmitMarksReader(client, config.TABLE_NAME),
    markRefusedPost: createRefusedPostMarker(client, config.TABLE_NAME),
    renderMarkdown: loadMarkdownRenderer(config.markdown),
    now: Date.now,
    hashAddress,
    newId: newUlid,
    presentation: { avatarFor, showUserAgent: !config.DISABLE_USERAGENT },
    authorCounts: cacheAuthorCounts(createAuthorCounts(client, config.TABLE_NAME), {
      ttlMs: config.LIST_CACHE_MS,
    }),
    authorOf,
    authorKeyOf: createAuthorKeyOf(hashAddress),
    authorFeed: createAuthorFeed(client, config.TABLE_NAME),
    myData: createMyDataStore(client, config.TABLE_NAME),
    regionOf: config.DISABLE_REGION ? undefined : async (ip) => (await loadRegionOf())(ip),
    // SSO_SECRET only, as JWT_TOKEN: the SSM parameter is wired by handler.ts, on AWS.
    ssoSecret: async () => config.SSO_SECRET,
    claimSsoAssertion: createSsoAssertionClaimer(client, config.TABLE_NAME),
    signInProviders: createSignInProviders(config, undefined, Date.now),
    oauthFlows: createOAuthFlows(client, config.TABLE_NAME),
    ...overrides,
  };
}
