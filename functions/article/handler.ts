import { loadConfig } from '../shared/config.js';
import { createServices } from '../shared/services.js';
import { createArticleHandler } from './article-handler.js';

/** Lambda entry point: configuration and clients are built once per cold start. */
export const handler = createArticleHandler(createServices(loadConfig()));
