import { createRemoteJWKSet, customFetch, errors, type JWTVerifyGetKey } from 'jose';

/**
 * The signing keys of the site's own OpenID Connect issuer (SSO_ISSUER), for single sign-on with its ID tokens
 * (auth/sso-assertion.ts): its JWKS, found through its discovery document, fetched with a deadline and a size
 * bound, and cached per instance (jose's remote key set: a new fetch when the cache is old, or when a token names
 * a key the set lacks, at most every 30 s).
 */

/** The issuer could not be asked for its keys (down, slow, or answering nonsense): a 503, not the token's fault. */
export class IssuerUnavailableError extends Error {
  override readonly name = 'IssuerUnavailableError';
}

/** What {@link createIssuerKeys} takes. */
export interface IssuerKeysOptions {
  /** SSO_ISSUER, exactly as the ID tokens' `iss` and the discovery document's `issuer` spell it. */
  readonly issuer: string;
  /** How long one fetch (discovery or JWKS) may take, answer included; 3 s by default. */
  readonly timeoutMs?: number;
  /** The largest answer read; 64 KiB by default (a discovery document or a JWKS is a few KiB). */
  readonly maxBytes?: number;
  /** How long discovery is not tried again after it failed; 30 s by default. */
  readonly retryAfterMs?: number;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now?: () => number;
}

const defaults = { timeoutMs: 3000, maxBytes: 64 * 1024, retryAfterMs: 30_000 } as const;
/** How long the keys read are used before they are fetched again (jose's default is 10 minutes too). */
const keysMaxAgeMs = 10 * 60 * 1000;

/**
 * Builds the key lookup of `issuer` for jose's `jwtVerify`. Discovery runs on the first token and is kept for
 * the instance's life; a failed discovery or key-set read is tried again only after `retryAfterMs`, so a down
 * issuer costs one fetch per half minute, not one per request. A token whose key is not in the set is refused by jose
 * (`JWKSNoMatchingKey`); every failure to reach the issuer throws {@link IssuerUnavailableError}.
 */
export function createIssuerKeys(options: IssuerKeysOptions): JWTVerifyGetKey {
  const { issuer } = options;
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  const retryAfterMs = options.retryAfterMs ?? defaults.retryAfterMs;
  const now = options.now ?? Date.now;
  const fetchBounded = createBoundedFetch(options.maxBytes ?? defaults.maxBytes);
  let keySet: JWTVerifyGetKey | undefined;
  let pending: Promise<JWTVerifyGetKey> | undefined;
  let failed: { readonly at: number; readonly reason: string } | undefined;

  const discover = async (): Promise<JWTVerifyGetKey> => {
    // RFC 8414 / OpenID Connect Discovery 1.0 §4: the document under the issuer's own path.
    const address = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetchBounded(address, {
      method: 'GET',
      headers: new Headers({ accept: 'application/json' }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) throw new Error(`its discovery document answered ${response.status}`);
    const document = JSON.parse(await response.text()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== issuer) {
      throw new Error(`its discovery document names the issuer ${String(document.issuer)}, not ${issuer}`);
    }
    const jwksUri = typeof document.jwks_uri === 'string' ? document.jwks_uri : '';
    if (!isKeySetAddress(jwksUri)) throw new Error(`its jwks_uri is not an https address: ${jwksUri}`);
    return createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: timeoutMs,
      cacheMaxAge: keysMaxAgeMs,
      [customFetch]: fetchBounded,
    });
  };

  const keysOf = async (): Promise<JWTVerifyGetKey> => {
    if (keySet) return keySet;
    if (failed && now() < failed.at + retryAfterMs) {
      throw new IssuerUnavailableError(`SSO_ISSUER could not be reached lately (${failed.reason})`);
    }
    pending ??= discover()
      .then(
        (found) => {
          keySet = found;
          failed = undefined;
          return found;
        },
        (error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          failed = { at: now(), reason };
          throw new IssuerUnavailableError(`SSO_ISSUER could not be reached (${reason})`, { cause: error });
        },
      )
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  // A key set that could not be read: refused fast until `retryAfterMs` passed, as a failed discovery is (jose's
  // set fetches again on every call while it holds no keys, which would make each request wait on a down issuer).
  let keysFailed: { readonly at: number; readonly reason: string } | undefined;

  return async (protectedHeader, token) => {
    const keys = await keysOf();
    if (keysFailed && now() < keysFailed.at + retryAfterMs) {
      throw new IssuerUnavailableError(
        `the keys of SSO_ISSUER could not be read lately (${keysFailed.reason})`,
      );
    }
    try {
      const key = await keys(protectedHeader, token);
      keysFailed = undefined;
      return key;
    } catch (error) {
      // The token's fault: no key of the set has its `kid` and algorithm, or several do.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
        throw error;
      }
      const reason = error instanceof Error ? error.message : String(error);
      keysFailed = { at: now(), reason };
      throw new IssuerUnavailableError(`the keys of SSO_ISSUER could not be read (${reason})`, {
        cause: error,
      });
    }
  };
}

/** A key set's address: https, or http on a loopback host (a local issuer, as SSO_ISSUER allows). */
function isKeySetAddress(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * `fetch` that reads at most `maxBytes` of the answer (declared or not) and follows no redirect, for jose's
 * `customFetch` and discovery alike. The caller's `signal` bounds the whole exchange, body included.
 */
function createBoundedFetch(
  maxBytes: number,
): (url: string, init: RequestInit & { readonly signal: AbortSignal }) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    const tooLarge = () => new Error(`${url} answered more than ${maxBytes} bytes`);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        await reader?.cancel();
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
    // Only 200 carries a body the callers read; other statuses are refused by them whatever they hold.
    return response.status === 200
      ? new Response(Buffer.concat(chunks), {
          status: 200,
          headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
        })
      : new Response(null, { status: response.status });
  };
}
