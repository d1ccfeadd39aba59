import { createHmac } from 'node:crypto';
import { base64url, type JWTPayload, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSsoAssertionVerifier } from '../../../../../functions/shared/auth/sso-assertion.js';
import { createIssuerKeys } from '../../../../../functions/shared/auth/sso-issuer-keys.js';
import { AppError } from '../../../../../functions/shared/domain/errors.js';
import { type LoopbackIssuer, startLoopbackIssuer } from '../../../../support/loopback-issuer.js';

const audience = 'https://comments.example.com';
const secret = 'the site backend and marginalia share this key';
const nowSeconds = 1_800_000_000;
const nowMs = nowSeconds * 1000;

/** What a site's backend puts in an assertion for its member Ada. */
const claims = (overrides: JWTPayload = {}): JWTPayload => ({
  aud: audience,
  sub: 'member-42',
  name: 'Ada Lovelace',
  picture: 'https://site.example/avatars/42.png',
  website: 'https://ada.example',
  email: 'ada@site.example',
  email_verified: true,
  iat: nowSeconds,
  exp: nowSeconds + 120,
  jti: 'a8f3-1',
  ...overrides,
});

const hs256 = (payload: JWTPayload, key = secret) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));

/** A token with any header, signed (or not) by hand: what no library would make for us. */
function handMade(header: Record<string, unknown>, payload: JWTPayload, key?: string): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = key ? createHmac('sha256', key).update(input).digest('base64url') : '';
  return `${input}.${signature}`;
}

const withSecret = createSsoAssertionVerifier({ audience, secret: async () => secret });

/** The refusal `assertion` gets: its status and message. */
async function refusalOf(verify: ReturnType<typeof createSsoAssertionVerifier>, assertion: string) {
  const error = await verify(assertion, nowMs).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return { status: (error as AppError).status, message: (error as AppError).message };
}

describe('an HS256 assertion of the site backend', () => {
  it('gives the identity of (sso:site, sub), its profile and a verified address when every rule holds', async () => {
    const checked = await withSecret(await hs256(claims()), nowMs);

    expect(checked).toEqual({
      identity: {
        provider: 'sso:site',
        subject: 'member-42',
        profile: {
          displayName: 'Ada Lovelace',
          link: 'https://ada.example',
          avatar: 'https://site.example/avatars/42.png',
        },
        email: { address: 'ada@site.example', verified: true },
      },
      jti: 'a8f3-1',
      usableUntil: nowSeconds + 120 + 60,
    });
  });

  it('keeps an address that is not marked verified, as unverified, and takes preferred_username for a name', async () => {
    const { identity } = await withSecret(
      await hs256(claims({ name: undefined, preferred_username: 'ada', email_verified: 'true' })),
      nowMs,
    );

    expect(identity.profile.displayName).toBe('ada');
    expect(identity.email).toEqual({ address: 'ada@site.example', verified: false });
  });

  it('takes an aud list holding the API, and the API with a trailing slash', async () => {
    await expect(
      withSecret(await hs256(claims({ aud: ['other', `${audience}/`] })), nowMs),
    ).resolves.toBeDefined();
  });

  it('asks for the secret again after a signature fails, and takes the rotated one', async () => {
    let current = 'the key before the rotation, long enough';
    const asked: boolean[] = [];
    const verify = createSsoAssertionVerifier({
      audience,
      secret: async (options) => {
        asked.push(options?.refresh ?? false);
        if (options?.refresh) current = secret;
        return current;
      },
    });

    await expect(verify(await hs256(claims()), nowMs)).resolves.toBeDefined();
    expect(asked).toEqual([false, true]);
  });

  it.each([
    [
      'signed with another key',
      () => hs256(claims(), 'not the site backend key, but as long'),
      'assertion: signature does not verify',
    ],
    [
      'unsigned (alg none)',
      async () => handMade({ alg: 'none' }, claims()),
      'assertion: alg none is refused: an assertion must be signed',
    ],
    [
      'with no alg',
      async () => handMade({ typ: 'JWT' }, claims()),
      'assertion: alg none is refused: an assertion must be signed',
    ],
    [
      'HS512 with the right key',
      async () => handMade({ alg: 'HS512' }, claims(), secret),
      'assertion: alg HS512 is not accepted',
    ],
    [
      'for another API',
      () => hs256(claims({ aud: 'https://elsewhere.example' })),
      `assertion: aud must be ${audience}`,
    ],
    ['without aud', () => hs256(claims({ aud: undefined })), `assertion: aud must be ${audience}`],
    [
      'living longer than 5 minutes',
      () => hs256(claims({ exp: nowSeconds + 301 })),
      'assertion: exp must be at most 300 seconds after iat',
    ],
    ['expired', () => hs256(claims({ iat: nowSeconds - 200, exp: nowSeconds - 61 })), 'assertion: expired'],
    [
      'issued in the future',
      () => hs256(claims({ iat: nowSeconds + 61, exp: nowSeconds + 120 })),
      'assertion: iat is in the future',
    ],
    ['without iat', () => hs256(claims({ iat: undefined })), 'assertion: iat is required'],
    ['without exp', () => hs256(claims({ exp: undefined })), 'assertion: exp is required'],
    ['not yet valid', () => hs256(claims({ nbf: nowSeconds + 61 })), 'assertion: nbf'],
    ['without sub', () => hs256(claims({ sub: undefined })), 'assertion: sub is required'],
    [
      'with a sub of 256 characters',
      () => hs256(claims({ sub: 's'.repeat(256) })),
      'assertion: sub is required',
    ],
    ['without jti', () => hs256(claims({ jti: undefined })), 'assertion: jti is required'],
    ['without a name', () => hs256(claims({ name: undefined })), 'assertion: name is required'],
    [
      'with a javascript: picture',
      () => hs256(claims({ picture: 'javascript:alert(1)' })),
      'assertion: picture must be an http(s) address',
    ],
    [
      'with a website that is no address',
      () => hs256(claims({ website: 'ada.example' })),
      'assertion: website must be an http(s) address',
    ],
    [
      'with two addresses',
      () => hs256(claims({ email: 'a@site.example, b@site.example' })),
      'assertion: email must be one plain address',
    ],
    ['that is no JWT', async () => 'not.a-jwt', 'assertion: not a JWT'],
    [
      'longer than 8192 characters',
      () => hs256(claims({ padding: 'x'.repeat(8192) })),
      'assertion: longer than 8192 characters',
    ],
  ])('is refused (401, naming the rule) when %s', async (_, assertion, rule) => {
    const refusal = await refusalOf(withSecret, await assertion());

    expect(refusal.status).toBe(401);
    expect(refusal.message).toContain(rule);
  });

  it('is refused when only SSO_ISSUER is set: HS256 is never checked with anything but SSO_SECRET', async () => {
    const issuerOnly = createSsoAssertionVerifier({
      audience,
      secret: async () => undefined,
      issuer: { url: 'https://id.site.example', keys: async () => new TextEncoder().encode(secret) },
    });

    expect(await refusalOf(issuerOnly, await hs256(claims()))).toEqual({
      status: 401,
      message: 'assertion: alg HS256 is accepted only with SSO_SECRET, which is not set here',
    });
  });
});

describe("an ID token of the site's own issuer", () => {
  const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  /** What was logged: the reasons a 503 keeps from the caller. */
  const logged = () => log.mock.calls.map((call) => String(call[0])).join('\n');
  afterEach(() => log.mockClear());
  let issuer: LoopbackIssuer;
  let verify: ReturnType<typeof createSsoAssertionVerifier>;
  beforeAll(async () => {
    issuer = await startLoopbackIssuer();
    verify = createSsoAssertionVerifier({
      audience,
      secret: async () => secret,
      issuer: { url: issuer.issuer, keys: createIssuerKeys({ issuer: issuer.issuer }) },
    });
  });
  afterAll(async () => {
    await issuer.close();
  });

  it('gives the identity of (oidc:<issuer>, sub), its keys found by discovery and fetched once', async () => {
    // A verifier of its own: its discovery is this test's, whatever the others did first.
    const fresh = createSsoAssertionVerifier({
      audience,
      secret: async () => undefined,
      issuer: { url: issuer.issuer, keys: createIssuerKeys({ issuer: issuer.issuer }) },
    });
    const before = issuer.requests.length;

    const first = await fresh(await issuer.sign(claims()), nowMs);
    await fresh(await issuer.sign(claims({ jti: 'a8f3-2' })), nowMs);

    expect(first.identity).toMatchObject({ provider: `oidc:${issuer.issuer}`, subject: 'member-42' });
    expect(issuer.requests.slice(before)).toEqual(['/.well-known/openid-configuration', '/jwks']);
  });

  it('is refused when its iss is another issuer, before any key is fetched', async () => {
    const before = issuer.requests.length;

    const refusal = await refusalOf(verify, await issuer.sign(claims({ iss: 'https://other.example' })));

    expect(refusal).toEqual({ status: 401, message: `assertion: iss must be ${issuer.issuer}` });
    expect(issuer.requests.length).toBe(before);
  });

  it('is refused when it names a key the issuer does not publish', async () => {
    const refusal = await refusalOf(verify, await issuer.sign(claims(), { kid: 'key-9' }));

    expect(refusal).toEqual({
      status: 401,
      message: 'assertion: no key of SSO_ISSUER matches its kid and alg',
    });
  });

  it('is refused as HS256 signed with the text of the issuer public key (no algorithm switching)', async () => {
    const jwks = JSON.stringify(await (await fetch(`${issuer.issuer}/jwks`)).json());
    const forged = handMade({ alg: 'HS256' }, claims({ iss: issuer.issuer }), jwks);

    expect(await refusalOf(verify, forged)).toEqual({
      status: 401,
      message: 'assertion: signature does not verify',
    });
  });

  it('is refused when the issuer is not configured', async () => {
    expect(await refusalOf(withSecret, await issuer.sign(claims()))).toEqual({
      status: 401,
      message: 'assertion: alg ES256 is accepted only from SSO_ISSUER, which is not set here',
    });
  });

  it('gets a 503 that says so when the issuer cannot be reached, and asks it again only after a pause', async () => {
    const down = await startLoopbackIssuer();
    down.misbehave({ status: 500, body: 'down' });
    let clock = 0;
    const keys = createIssuerKeys({ issuer: down.issuer, now: () => clock, retryAfterMs: 30_000 });
    const verifyDown = createSsoAssertionVerifier({
      audience,
      secret: async () => undefined,
      issuer: { url: down.issuer, keys },
    });
    const token = await down.sign(claims());

    const first = await refusalOf(verifyDown, token);
    const second = await refusalOf(verifyDown, token);
    clock = 30_000;
    await refusalOf(verifyDown, token);
    await down.close();

    expect(first).toEqual({
      status: 503,
      message:
        'assertion: cannot be verified now: the keys of SSO_ISSUER could not be fetched; try again later',
    });
    expect(logged()).toContain(
      'single sign-on: SSO_ISSUER could not be reached (its discovery document answered 500)',
    );
    expect(second.status).toBe(503);
    expect(down.requests).toEqual(['/.well-known/openid-configuration', '/.well-known/openid-configuration']);
  });

  it('asks a key set that failed again only after a pause too, once discovery has succeeded', async () => {
    const flaky = await startLoopbackIssuer();
    flaky.misbehave({ path: '/jwks', status: 500, body: 'down' });
    let clock = 0;
    const keys = createIssuerKeys({ issuer: flaky.issuer, now: () => clock, retryAfterMs: 30_000 });
    const verifyFlaky = createSsoAssertionVerifier({
      audience,
      secret: async () => undefined,
      issuer: { url: flaky.issuer, keys },
    });
    const token = await flaky.sign(claims());

    const answers = [await refusalOf(verifyFlaky, token), await refusalOf(verifyFlaky, token)];
    const keyReads = flaky.requests.filter((path) => path === '/jwks').length;
    clock = 30_000;
    flaky.misbehave(undefined);
    const recovered = await verifyFlaky(token, nowMs);
    await flaky.close();

    expect(answers.map((answer) => answer.status)).toEqual([503, 503]);
    // One read of the failing set for both requests, then one more after the pause, which now verifies.
    expect(keyReads).toBe(1);
    expect(flaky.requests.filter((path) => path === '/jwks')).toHaveLength(2);
    expect(recovered.identity).toMatchObject({ provider: `oidc:${flaky.issuer}` });
  });

  it('reads no more than 64 KiB of what the issuer answers', async () => {
    const big = await startLoopbackIssuer();
    big.misbehave({
      path: '/jwks',
      status: 200,
      body: JSON.stringify({ keys: [], padding: 'x'.repeat(65 * 1024) }),
    });
    const keys = createIssuerKeys({ issuer: big.issuer });
    const verifyBig = createSsoAssertionVerifier({
      audience,
      secret: async () => undefined,
      issuer: { url: big.issuer, keys },
    });

    const refusal = await refusalOf(verifyBig, await big.sign(claims()));
    await big.close();

    expect(refusal.status).toBe(503);
    expect(logged()).toContain('/jwks answered more than 65536 bytes');
  });
});
