import { loadConfig } from '../shared/config.js';
import { createServices } from '../shared/services.js';
import { createCommentHandler } from './comment-handler.js';

/** Lambda entry point: configuration and clients are built once per cold start. */
export const handler = createCommentHandler(createServices(loadConfig()));
