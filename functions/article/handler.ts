import { loadConfig } from '../shared/config.js';
import { createArticleHandler } from './article-handler.js';
import { createArticleDependencies } from './dependencies.js';

/** Lambda entry point: configuration and clients are built once per cold start. */
export const handler = createArticleHandler(createArticleDependencies(loadConfig()));
