import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import type { Config } from '../config.js';

/**
 * The key that signs sign-in tokens: `JWT_TOKEN` locally, or the SSM SecureString named by
 * `JWT_SECRET_PARAMETER`, fetched once per cold start and only when a route needs it. Undefined
 * when neither is set: sign-in is then off and every visitor is anonymous.
 */
export function createTokenSecret(config: Config): () => Promise<string | undefined> {
  if (config.JWT_TOKEN) {
    const secret = config.JWT_TOKEN;
    return async () => secret;
  }
  const name = config.JWT_SECRET_PARAMETER;
  if (!name) return async () => undefined;
  let pending: Promise<string | undefined> | undefined;
  return () => {
    pending ??= new SSMClient({})
      .send(new GetParameterCommand({ Name: name, WithDecryption: true }))
      .then((output) => {
        const value = output.Parameter?.Value;
        if (value !== undefined && value.length < 32) {
          console.error(
            JSON.stringify({
              level: 'error',
              message: `${name} is shorter than 32 characters: sign-in is off`,
            }),
          );
          return undefined;
        }
        return value;
      })
      .catch((error: unknown) => {
        // No parameter yet: sign-in stays off (and is not asked for again) until it is created and
        // the function restarts. Any other failure is retried on the next request.
        if (error instanceof ParameterNotFound) {
          console.error(
            JSON.stringify({ level: 'error', message: `${name} does not exist: sign-in is off` }),
          );
          return undefined;
        }
        pending = undefined;
        throw error;
      });
    return pending;
  };
}
