import { loadConfig } from '../shared/config.js';
import { createNotifyDependencies, extensionNotifySecrets } from './dependencies.js';
import { loadNotifyConfig } from './notify-config.js';
import { createNotifyFunction } from './notify-function.js';

const config = loadConfig();
const notify = loadNotifyConfig();
// The Parameters and Secrets extension (a layer of this function) reads the SSM secrets; plain variables win.
const extension = {
  port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
  sessionToken: process.env.AWS_SESSION_TOKEN,
};

/** Lambda entry point: the stream, the sweep's schedule and SES feedback; built once per cold start. */
export const handler = createNotifyFunction(
  createNotifyDependencies(config, notify, { secrets: extensionNotifySecrets(config, notify, extension) }),
);
