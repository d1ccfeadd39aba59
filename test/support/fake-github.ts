import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A GitHub user as the fake answers `GET /user` and `GET /user/emails`. */
export interface FakeGithubUser {
  readonly id: number;
  readonly login: string;
  readonly name?: string;
  readonly emails: readonly {
    readonly email: string;
    readonly primary: boolean;
    readonly verified: boolean;
  }[];
}

/** GitHub's OAuth web flow and the two API reads sign-in makes, on loopback (tests only). */
export interface FakeGithub {
  /** `http://127.0.0.1:<port>`: both GITHUB_URL and GITHUB_API_URL. */
  readonly url: string;
  /** Who signs in at the next authorization; `'deny'` answers `error=access_denied` as a refused consent does. */
  signInAs(user: FakeGithubUser | 'deny'): void;
  /** The token requests it took (form fields), to check the client secret, code and PKCE verifier were sent. */
  readonly tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

/** Starts the fake with the client `clientId`/`clientSecret`; stop it with close(). */
export async function startFakeGithub(clientId: string, clientSecret: string): Promise<FakeGithub> {
  let next: FakeGithubUser | 'deny' = 'deny';
  const codes = new Map<string, FakeGithubUser>();
  const tokens = new Map<string, FakeGithubUser>();
  const tokenRequests: URLSearchParams[] = [];
  let counter = 0;

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (next === 'deny' || url.searchParams.get('client_id') !== clientId) {
        back.searchParams.set('error', 'access_denied');
      } else {
        counter += 1;
        const code = `code-${counter}`;
        codes.set(code, next);
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.toString() });
      response.end();
      return;
    }
    if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(request));
      tokenRequests.push(form);
      const user = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      // GitHub answers a refused exchange with 200 and an error member.
      if (!user || form.get('client_secret') !== clientSecret || !form.get('code_verifier')) {
        json(200, { error: 'bad_verification_code' });
        return;
      }
      const token = `gho_${counter}`;
      tokens.set(token, user);
      json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      return;
    }
    const user = tokens.get(request.headers.authorization?.replace(/^Bearer /, '') ?? '');
    if (!user) {
      json(401, { message: 'Bad credentials' });
      return;
    }
    if (url.pathname === '/user') {
      json(200, {
        id: user.id,
        login: user.login,
        name: user.name ?? null,
        avatar_url: `https://avatars.example.test/u/${user.id}`,
        html_url: `https://github.example.test/${user.login}`,
        blog: '',
      });
    } else if (url.pathname === '/user/emails') {
      json(200, user.emails);
    } else {
      json(404, { message: 'Not Found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signInAs: (user) => {
      next = user;
    },
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
