import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** What is wrong with the ID token the issuer signs next. */
export type IdTokenFault = 'wrong-nonce' | 'wrong-audience' | 'expired' | 'none';

/**
 * A hand-made OpenID Connect issuer on loopback (tests only) whose token endpoint answers an ID token with one
 * fault: another nonce, another audience, or an expiry an hour ago. Its authorization endpoint signs in at once.
 */
export interface BadIdTokenIssuer {
  /** `http://127.0.0.1:<port>` */
  readonly issuer: string;
  /** The fault of the ID tokens it signs from now on. */
  setFault(fault: IdTokenFault): void;
  /** How many codes it exchanged. */
  readonly exchanges: () => number;
  close(): Promise<void>;
}

/** The `sub` of the ID tokens signed with `fault`: one per fault, so a test can tell their accounts apart. */
export const subjectOf = (fault: IdTokenFault): string => (fault === 'none' ? 'mallory' : `mallory-${fault}`);

/** Starts the issuer for client `clientId`; stop it with close(). */
export async function startBadIdTokenIssuer(clientId: string): Promise<BadIdTokenIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  let fault: IdTokenFault = 'none';
  let exchanges = 0;
  const nonces = new Map<string, string>();
  let issuer = '';

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    } else if (url.pathname === '/jwks') {
      json({ keys: [jwk] });
    } else if (url.pathname === '/authorize') {
      const code = `code-${nonces.size + 1}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      response.end();
    } else if (url.pathname === '/token' && request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        exchanges += 1;
        const code = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('code') ?? '';
        const now = Math.floor(Date.now() / 1000);
        const issuedAt = fault === 'expired' ? now - 7200 : now;
        const idToken = await new SignJWT({
          nonce: fault === 'wrong-nonce' ? 'another-nonce' : nonces.get(code),
          name: 'Mallory',
          email: 'mallory@example.test',
          email_verified: true,
        })
          .setProtectedHeader({ alg: 'RS256', kid: 'test' })
          .setIssuer(issuer)
          .setSubject(subjectOf(fault))
          .setAudience(fault === 'wrong-audience' ? 'another-client' : clientId)
          .setIssuedAt(issuedAt)
          .setExpirationTime(issuedAt + (fault === 'expired' ? 3600 : 300))
          .sign(privateKey);
        json({ access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken });
      });
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    setFault: (next) => {
      fault = next;
    },
    exchanges: () => exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
