import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** A tiny OpenID Connect issuer on 127.0.0.1: discovery, a JWKS, and ID tokens signed with its key. */
export interface LoopbackIssuer {
  /** `http://127.0.0.1:<port>`: the issuer identifier, as `iss` and the discovery document name it. */
  readonly issuer: string;
  /** Paths requested so far, in order (`/.well-known/openid-configuration`, `/jwks`). */
  readonly requests: string[];
  /** An ID token with `claims` (`iss` is the issuer's unless given), signed with the issuer's key. */
  sign(claims: JWTPayload, options?: { readonly kid?: string }): Promise<string>;
  /**
   * Answers every request (or those of `answer.path`) with `answer` from now on: a down or misbehaving issuer;
   * `undefined` makes it well again.
   */
  misbehave(
    answer: { readonly status: number; readonly body: string; readonly path?: string } | undefined,
  ): void;
  close(): Promise<void>;
}

/** Starts an issuer whose tokens are ES256 with the key `kid` `key-1`, published at `/jwks`. */
export async function startLoopbackIssuer(): Promise<LoopbackIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' };
  const requests: string[] = [];
  let override: { status: number; body: string; path?: string } | undefined;
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const json = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (override && (override.path === undefined || override.path === request.url)) {
      return json(override.status, override.body);
    }
    if (request.url === '/.well-known/openid-configuration') {
      return json(
        200,
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/jwks`,
          id_token_signing_alg_values_supported: ['ES256'],
        }),
      );
    }
    if (request.url === '/jwks') return json(200, JSON.stringify({ keys: [jwk] }));
    return json(404, '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    requests,
    sign: (claims, options = {}) =>
      new SignJWT({ iss: issuer, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'key-1' })
        .sign(privateKey),
    misbehave(answer) {
      override = answer;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
