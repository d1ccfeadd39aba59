import { request } from 'node:http';
import type { Config } from '../config.js';
import { logError } from '../log.js';

/** How the comment function reaches the AWS Parameters and Secrets Lambda Extension. */
export interface SecretsExtension {
  /** The extension's port on localhost (`PARAMETERS_SECRETS_EXTENSION_HTTP_PORT`, 2773 by default). */
  readonly port: number;
  /** The function's `AWS_SESSION_TOKEN`: the extension answers only callers that present it. */
  readonly sessionToken: string | undefined;
  /** The extension's host; tests point it at a stand-in on 127.0.0.1. */
  readonly host?: string;
  /** How long the whole exchange may take; 3 s by default. */
  readonly timeoutMs?: number;
}

/** A slow extension must not hold a sign-in for the function's whole timeout. */
const extensionTimeoutMs = 3000;
/** A GetParameter answer is a few hundred bytes; anything far larger is not one. */
const maxAnswerBytes = 64 * 1024;

/**
 * The key that signs sign-in tokens: `JWT_TOKEN` locally, or the SSM SecureString named by
 * `JWT_SECRET_PARAMETER`, fetched through the Parameters and Secrets extension once per cold start and
 * only when a route needs it. Undefined when neither is set: sign-in is then off and every visitor is
 * anonymous. The extension (a Lambda layer the stack adds) keeps the SSM client out of the bundle.
 */
export function createTokenSecret(
  config: Config,
  extension: SecretsExtension,
): () => Promise<string | undefined> {
  if (config.JWT_TOKEN) {
    const secret = config.JWT_TOKEN;
    return async () => secret;
  }
  const name = config.JWT_SECRET_PARAMETER;
  if (!name) return async () => undefined;
  let pending: Promise<string | undefined> | undefined;
  return () => {
    pending ??= getParameter(extension, name).then(
      (answer) => {
        if (answer.status === 'missing') {
          // No parameter yet: sign-in stays off (and is not asked for again) until it is created and
          // the function restarts.
          logError(`${name} does not exist: sign-in is off`);
          return undefined;
        }
        if (answer.value.length < 32) {
          logError(`${name} is shorter than 32 characters: sign-in is off`);
          return undefined;
        }
        return answer.value;
      },
      (error: unknown) => {
        // Any other failure is retried on the next request that needs the key.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}

type ParameterAnswer = { readonly status: 'found'; readonly value: string } | { readonly status: 'missing' };

/** GET /systemsmanager/parameters/get on the extension: the GetParameter output as JSON. */
function getParameter(extension: SecretsExtension, name: string): Promise<ParameterAnswer> {
  const query = new URLSearchParams({ name, withDecryption: 'true' });
  return new Promise((resolveAnswer, reject) => {
    const call = request(
      {
        host: extension.host ?? 'localhost',
        port: extension.port,
        path: `/systemsmanager/parameters/get?${query}`,
        headers: { 'X-Aws-Parameters-Secrets-Token': extension.sessionToken ?? '' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxAnswerBytes) {
            response.destroy(new Error(`the secrets extension answered more than ${maxAnswerBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('close', () => {
          if (!response.complete) reject(new Error('the secrets extension hung up mid-answer'));
        });
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status === 200) {
            const value = parameterValue(body);
            if (value === undefined) reject(new Error('the secrets extension answered without a value'));
            else resolveAnswer({ status: 'found', value });
          } else if (body.includes('ParameterNotFound')) {
            // The extension passes SSM's error on; its exact shape is not documented, its name is.
            resolveAnswer({ status: 'missing' });
          } else {
            reject(new Error(`the secrets extension answered ${status}: ${body.slice(0, 200)}`));
          }
        });
      },
    );
    // A deadline for the whole exchange: the socket's own timeout only measures silence.
    const deadline = setTimeout(
      () => call.destroy(new Error('the secrets extension did not answer in time')),
      extension.timeoutMs ?? extensionTimeoutMs,
    );
    call.on('close', () => clearTimeout(deadline));
    call.on('error', reject);
    call.end();
  });
}

function parameterValue(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { Parameter?: { Value?: unknown } };
    const value = parsed.Parameter?.Value;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
