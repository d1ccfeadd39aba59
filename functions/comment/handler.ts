import { loadConfig } from '../shared/config.js';
import { createServices } from '../shared/services.js';
import { createTokenSecret } from '../shared/storage/token-secret.js';
import { createCommentHandler } from './comment-handler.js';

const config = loadConfig();

/** Lambda entry point: configuration and clients are built once per cold start. */
export const handler = createCommentHandler(
  createServices(config, {
    tokenSecret: createTokenSecret(config, {
      port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
      sessionToken: process.env.AWS_SESSION_TOKEN,
    }),
  }),
);
