import { ulid } from 'ulid';
import type { Config } from './config.js';
import { createAvatarResolver } from './domain/avatar.js';
import type { PresentOptions } from './domain/present-comment.js';
import { createAkismetCheck, type SpamCheck } from './spam/akismet.js';
import { type AdminRepository, createAdminRepository } from './storage/admin-repository.js';
import { cacheListReads } from './storage/cached-reads.js';
import { createDocumentClient } from './storage/client.js';
import { type CommentRepository, createCommentRepository } from './storage/comment-repository.js';
import { type CounterRepository, createCounterRepository } from './storage/counter-repository.js';
import { createLayoutCheck } from './storage/layout.js';
import { createModerationRepository, type ModerationRepository } from './storage/moderation-repository.js';
import type { SecretSource } from './storage/parameter-secret.js';
import {
  createRefusedPostMarker,
  createSubmitMarksReader,
  type MarkRefusedPost,
  type ReadSubmitMarks,
} from './storage/submit-marks.js';

/** Everything a route needs, built once per cold start and injected into the route factories. */
export interface Services {
  readonly config: Config;
  readonly comments: CommentRepository;
  readonly counters: CounterRepository;
  readonly moderation: ModerationRepository;
  readonly admins: AdminRepository;
  /**
   * The key that signs sign-in tokens; undefined when sign-in is not configured. `{ refresh: true }`
   * asks for the key again after a token failed verification with it (it may have been rotated).
   */
  readonly tokenSecret: SecretSource;
  /** Akismet, when AKISMET_KEY is set (the comment function on AWS reads AKISMET_KEY_PARAMETER: handler.ts). */
  readonly spamCheck: SpamCheck | undefined;
  /** A submission's rate mark, duplicate mark and administrator mail, read before it costs anything. */
  readonly readSubmitMarks: ReadSubmitMarks;
  /** Counts a submission refused for what it revealed against its IP's rate. */
  readonly markRefusedPost: MarkRefusedPost;
  /**
   * Markdown to sanitised HTML, injected by tests that count renders. Unset, the submit route loads the
   * renderer on first use (write-only-modules.ts): it stays out of the article function's bundle.
   */
  readonly renderMarkdown?: (text: string) => Promise<string>;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now: () => number;
  /** A new comment id (a ULID) for a comment inserted at `time`. */
  readonly newId: (time: number) => string;
  /** How comments are shown, but for the route-dependent `legacy` flag. */
  readonly presentation: Omit<PresentOptions, 'legacy'>;
}

/** Builds the services for `config`; `overrides` lets tests and local mode swap any part. */
export function createServices(config: Config, overrides: Partial<Services> = {}): Services {
  const client = createDocumentClient({
    endpoint: config.DYNAMODB_ENDPOINT,
    timeouts: {
      connectMs: config.DYNAMODB_CONNECT_TIMEOUT_MS,
      requestMs: config.DYNAMODB_REQUEST_TIMEOUT_MS,
    },
  });
  // Reads that depend on the item layout first check, once per instance, that the table has it.
  const ensureLayout = createLayoutCheck(client, config.TABLE_NAME);
  const { comments, moderation } = cacheListReads(
    {
      comments: createCommentRepository(client, config.TABLE_NAME, ensureLayout),
      moderation: createModerationRepository(client, config.TABLE_NAME, ensureLayout),
    },
    { ttlMs: config.LIST_CACHE_MS },
  );
  return {
    config,
    comments,
    counters: createCounterRepository(client, config.TABLE_NAME),
    moderation,
    admins: createAdminRepository(client, config.TABLE_NAME),
    // JWT_TOKEN only: the key read through the Parameters and Secrets extension
    // (storage/token-secret.ts) is wired by the comment function alone, which has the layer.
    tokenSecret: async () => config.JWT_TOKEN,
    spamCheck: config.AKISMET_KEY
      ? createAkismetCheck({ key: config.AKISMET_KEY, siteUrl: config.SITE_URL ?? 'http://localhost' })
      : undefined,
    readSubmitMarks: createSubmitMarksReader(client, config.TABLE_NAME),
    markRefusedPost: createRefusedPostMarker(client, config.TABLE_NAME),
    now: Date.now,
    newId: (time) => ulid(time),
    presentation: {
      avatarFor: createAvatarResolver({
        proxy: config.AVATAR_PROXY,
        template: config.GRAVATAR_STR,
        qq: config.AVATAR_QQ,
      }),
      showUserAgent: !config.DISABLE_USERAGENT,
    },
    ...overrides,
  };
}
