import { loadConfig } from '../shared/config.js';
import { createAkismetCheckWithKeySource } from '../shared/spam/akismet-with-key-source.js';
import { createAkismetKey } from '../shared/secrets/akismet-key.js';
import { createCaptchaSecret } from '../shared/secrets/captcha-secret.js';
import { createLinkSecret } from '../shared/secrets/link-secret.js';
import { createSsoSecret } from '../shared/secrets/sso-secret.js';
import { createTokenSecret } from '../shared/secrets/token-secret.js';
import { allRouteKeys } from '../api-routes.js';
import { createCommentHandler } from './comment-handler.js';
import { createCommentDependencies } from './dependencies.js';
import { createSignInProviders } from './sign-in-providers.js';

const config = loadConfig();
// The Parameters and Secrets extension (a layer of this function only) reads the SSM secrets.
const extension = {
  port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
  sessionToken: process.env.AWS_SESSION_TOKEN,
};
const akismetKey = createAkismetKey(config, extension);

/** Lambda entry point: configuration and clients are built once per cold start. */
export const handler = createCommentHandler(
  createCommentDependencies(config, {
    tokenSecret: createTokenSecret(config, extension),
    linkSecret: createLinkSecret(config, extension),
    captchaSecret: createCaptchaSecret(config, extension),
    ssoSecret: createSsoSecret(config, extension),
    signInProviders: createSignInProviders(config, extension, Date.now),
    ...(akismetKey
      ? {
          spamCheck: createAkismetCheckWithKeySource(akismetKey, {
            siteUrl: config.SITE_URL ?? 'http://localhost',
          }),
        }
      : {}),
  }),
  allRouteKeys,
);
