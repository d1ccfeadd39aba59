/**
 * Both functions for one configuration, as local mode, the bench and the tests run them: each built by its
 * own dependencies, as on AWS (functions/comment/handler.ts, functions/article/handler.ts).
 */
import type { FunctionName } from '../functions/api-routes.js';
import { createArticleHandler } from '../functions/article/article-handler.js';
import { type ArticleDependencies, createArticleDependencies } from '../functions/article/dependencies.js';
import { createCommentHandler } from '../functions/comment/comment-handler.js';
import { type CommentDependencies, createCommentDependencies } from '../functions/comment/dependencies.js';
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
    handlers: { comment: createCommentHandler(comment), article: createArticleHandler(article) },
    comment,
    article,
  };
}
