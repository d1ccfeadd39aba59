import { request } from 'node:http';
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

/**
 * Reads a secret: the value read last while it is fresh, else a new read. `refresh` asks for a new read
 * now because the value read last was refused (a token signed with another key): honoured at most once
 * per `refreshFloorMs`, so forged tokens cannot make every request call the extension. Undefined when
 * the secret is not set.
 */
export type SecretSource = (options?: { readonly refresh?: boolean }) => Promise<string | undefined>;

/** What {@link createParameterSecret} reads, and how. */
export interface ParameterSecretOptions {
  /** The SSM parameter (a SecureString) to read. */
  readonly name: string;
  /** What goes off without it, for the log: `sign-in`, `the Akismet check`. */
  readonly feature: string;
  /** Why `value` is unusable (logged; the secret is then off), or undefined when it is fine. */
  readonly problem: (value: string) => string | undefined;
  /** How long a read value (or absence) is reused, in ms. */
  readonly ttlMs: number;
  /** The least time between two reads asked for with `refresh` (or retried after a failure), in ms. */
  readonly refreshFloorMs?: number;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now?: () => number;
}

/** A slow extension must not hold a request for the function's whole timeout. */
const extensionTimeoutMs = 3000;
/** A GetParameter answer is a few hundred bytes; anything far larger is not one. */
const maxAnswerBytes = 64 * 1024;
/** By default a refused value is read again at most twice a minute. */
const defaultRefreshFloorMs = 30_000;

/**
 * A secret kept in an SSM SecureString, read through the Parameters and Secrets extension (a Lambda
 * layer, which keeps the SSM client out of the bundle) only when a route needs it, and again once
 * `ttlMs` has passed, so a rotated value reaches warm instances. (The extension caches too, for its
 * `SSM_PARAMETER_STORE_TTL`, 300 s by default: a new value can take that long more to show.)
 *
 * A missing parameter, or an unusable value, is logged (once, until it changes) and the secret is off
 * (undefined) until a later read finds it. A failed first read throws, and is tried again on the next request; a failed re-read keeps
 * the value read before and is tried again after `refreshFloorMs`.
 */
export function createParameterSecret(
  extension: SecretsExtension,
  options: ParameterSecretOptions,
): SecretSource {
  const { name, feature, ttlMs } = options;
  const refreshFloorMs = options.refreshFloorMs ?? defaultRefreshFloorMs;
  const now = options.now ?? Date.now;
  let held: { value: string | undefined; freshUntil: number; complaint?: string } | undefined;
  let pending: Promise<string | undefined> | undefined;
  // When a refresh may next read again: the floor runs between refreshes, not from ordinary reads.
  let refreshableAt = Number.NEGATIVE_INFINITY;

  const read = () => {
    const startedAt = now();
    pending = getParameter(extension, name)
      .then(
        (answer) => {
          const problem = answer.status === 'missing' ? 'does not exist' : options.problem(answer.value);
          const complaint = problem && `${name} ${problem}: ${feature} is off`;
          // Said once, not at every read: no parameter is how an operator leaves Akismet off.
          if (complaint && complaint !== held?.complaint) logError(complaint);
          const value = answer.status === 'found' && !problem ? answer.value : undefined;
          held = { value, freshUntil: startedAt + ttlMs, ...(complaint ? { complaint } : {}) };
          return value;
        },
        (error: unknown) => {
          if (!held) throw error;
          // Keep what was read before rather than fail the request; read again after the floor.
          logError(`${name} could not be read again; the value read before is kept`, {
            error: error instanceof Error ? error.message : String(error),
          });
          held = { ...held, freshUntil: startedAt + refreshFloorMs };
          return held.value;
        },
      )
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  return async ({ refresh = false } = {}) => {
    if (pending) return pending;
    const time = now();
    const refreshing = refresh && time >= refreshableAt;
    if (held && time < held.freshUntil && !refreshing) return held.value;
    if (refreshing) refreshableAt = time + refreshFloorMs;
    return read();
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

/**
 * A signing key (the sign-in key, the link key): `plain` when set (local mode), else the SSM SecureString
 * `name` (refused, and the feature off, when shorter than 32 characters), else none (undefined).
 */
export function createSigningKeySecret(
  extension: SecretsExtension,
  key: {
    readonly plain: string | undefined;
    readonly name: string | undefined;
    readonly feature: string;
    readonly ttlMs: number;
    readonly now?: () => number;
  },
): SecretSource {
  const { plain, name } = key;
  if (plain) return async () => plain;
  if (!name) return async () => undefined;
  return createParameterSecret(extension, {
    name,
    feature: key.feature,
    problem: (value) => (value.length < 32 ? 'is shorter than 32 characters' : undefined),
    ttlMs: key.ttlMs,
    now: key.now,
  });
}
