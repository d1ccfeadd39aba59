/**
 * Both functions for one configuration, as local mode, the bench and the tests run them: each built by its
 * own dependencies, as on AWS (functions/comment/handler.ts, functions/article/handler.ts); and the
 * notifier, which local mode's stream poller wakes (local-stream/local-notifier.ts).
 */
import { allRouteKeys, type FunctionName } from '../functions/api-routes.js';
import { createArticleHandler } from '../functions/article/article-handler.js';
import { type ArticleDependencies, createArticleDependencies } from '../functions/article/dependencies.js';
import { createCommentHandler } from '../functions/comment/comment-handler.js';
import { type CommentDependencies, createCommentDependencies } from '../functions/comment/dependencies.js';
import { createNotifyDependencies, type NotifyDependencies } from '../functions/notify/dependencies.js';
import { createNotifyFunction, type NotifyFunction } from '../functions/notify/notify-function.js';
import type { NotifyConfig } from '../functions/notify/notify-config.js';
import type { Config } from '../functions/shared/config.js';
import type { HttpHandler } from '../functions/shared/http/http-types.js';

/** The two functions' handlers and what each was built with. */
export interface LocalFunctions {
  readonly handlers: Record<FunctionName, HttpHandler>;
  readonly comment: CommentDependencies;
  readonly article: ArticleDependencies;
}

/** What a caller swaps in either function (tests: a clock, a spam check, fakes). */
export interface LocalOverrides {
  readonly comment?: Partial<CommentDependencies>;
  readonly article?: Partial<ArticleDependencies>;
}

/** Builds both functions for `config`. */
export function createLocalFunctions(config: Config, overrides: LocalOverrides = {}): LocalFunctions {
  const comment = createCommentDependencies(config, overrides.comment);
  const article = createArticleDependencies(config, overrides.article);
  return {
    handlers: {
      comment: createCommentHandler(comment, allRouteKeys),
      article: createArticleHandler(article),
    },
    comment,
    article,
  };
}

/** The notifier and what it was built with. */
export interface LocalNotifier {
  readonly handler: NotifyFunction;
  readonly dependencies: NotifyDependencies;
}

/**
 * Builds the notifier for `config` and `notify` as functions/notify/handler.ts does on AWS, with the
 * secrets as plain variables (SMTP_PASS, TG_BOT_TOKEN, WEBHOOK_SECRET, LINK_SECRET); `overrides` swaps parts
 * (tests: a clock, channels).
 */
export function createLocalNotifier(
  config: Config,
  notify: NotifyConfig,
  overrides: Partial<NotifyDependencies> = {},
): LocalNotifier {
  const dependencies = createNotifyDependencies(config, notify, overrides);
  return { handler: createNotifyFunction(dependencies), dependencies };
}
