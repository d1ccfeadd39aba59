import { beforeAll, describe, expect, it } from 'vitest';
import { createTwoFactorRoutes, pendingEnrolmentMs } from '../../../../functions/comment/two-factor.js';
import { hashPassword } from '../../../../functions/shared/auth/password.js';
import { secondFactorKeys } from '../../../../functions/shared/auth/second-factor.js';
import { openSecret, sealSecret } from '../../../../functions/shared/auth/secret-box.js';
import { hashRecoveryCode, totpCodeAt, totpStep } from '../../../../functions/shared/auth/totp.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';
import type { ApiRequest } from '../../../../functions/shared/http/request.js';
import { createFakeAccountTotpStore } from '../../../support/fake-account-totp.js';
import { routeAnswer } from '../../../support/route-answer.js';

const tokenKey = 'k'.repeat(32);
const keys = secondFactorKeys(tokenKey);
const ann = { id: 'A1', email: 'ann@example.com', passwordHash: '' };
const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
let passwordHash: string;

beforeAll(async () => {
  passwordHash = await hashPassword('right password');
});

interface Answer {
  errno: number;
  errmsg?: string;
  details?: Record<string, string>;
  data: Record<string, unknown>;
}

/** The routes over a fake store with Ann (no TOTP) in it, a clock tests move, and recorded attempts. */
function twoFactor() {
  const store = createFakeAccountTotpStore();
  store.accounts.set(ann.id, { lastStep: -1, recoveryHashes: [], sessionVersion: 1 });
  const clock = { now: Date.UTC(2026, 10, 29, 12, 0, 0) };
  const attempts: string[] = [];
  const state = { locked: false };
  const routes = createTwoFactorRoutes({
    signedIn: async (request: ApiRequest) =>
      request.authorization === 'Bearer ann'
        ? { ...ann, passwordHash }
        : request.authorization === 'Bearer external'
          ? { id: 'X1', email: '', passwordHash: '' }
          : undefined,
    attempts: {
      admit: async (email) => {
        attempts.push(`admit ${email}`);
        if (state.locked) throw new AppError('rate_limited', 'Too many sign-in attempts');
      },
      succeeded: async (email) => {
        attempts.push(`succeeded ${email}`);
      },
    },
    tokenAfter: async (account, version) => `token-${account.id}-v${version}`,
    totp: store,
    tokenSecret: async () => tokenKey,
    issuer: 'My Blog',
    now: () => clock.now,
  });
  const call = async (method: string, options: { body?: unknown; query?: string; as?: string } = {}) => {
    const answer = await routeAnswer(
      method === 'GET' ? routes.show : method === 'POST' ? routes.confirm : routes.disable,
      {
        method,
        path: '/api/token/2fa',
        ...(options.query ? { query: options.query } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        headers: options.as === undefined ? { authorization: 'Bearer ann' } : { authorization: options.as },
      },
    );
    return { status: answer.statusCode, body: answer.body as Answer };
  };
  /** Turns TOTP on for Ann with `secret` and the recovery codes given, as a confirmation leaves it. */
  const enabled = (recoveryCodes: string[] = ['abcd-efgh-jkmn']) => {
    store.accounts.set(ann.id, {
      secret: sealSecret(keys.secret, ann.id, secret),
      lastStep: totpStep(clock.now) - 1,
      recoveryHashes: recoveryCodes.map((code) => hashRecoveryCode(keys.recovery, ann.id, code)),
      sessionVersion: 2,
    });
  };
  return { routes, store, clock, attempts, state, call, enabled };
}

describe('GET /api/token/2fa', () => {
  it('answers a fresh secret once, with its otpauth URL and QR, and keeps it only sealed and pending', async () => {
    const { call, store, clock } = twoFactor();

    const { status, body } = await call('GET');

    expect(status).toBe(200);
    const data = body.data as { enable: boolean; secret: string; otpauth_url: string; qr: string };
    expect(data.enable).toBe(false);
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(data.otpauth_url).searchParams.get('secret')).toBe(data.secret);
    expect(new URL(data.otpauth_url).searchParams.get('issuer')).toBe('My Blog');
    expect(decodeURIComponent(data.otpauth_url)).toContain('My Blog:ann@example.com');
    expect(data.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const stored = store.accounts.get(ann.id)!;
    expect(stored.secret).toBeUndefined();
    expect(stored.pending?.until).toBe(clock.now + pendingEnrolmentMs);
    expect(stored.pending?.secret).not.toContain(data.secret);
    expect(openSecret(keys.secret, ann.id, stored.pending!.secret)).toBe(data.secret);
  });

  it('never answers the secret again once TOTP is on', async () => {
    const { call, enabled } = twoFactor();
    enabled();

    const { body } = await call('GET');

    expect(body.data).toEqual({ enable: true });
    expect(JSON.stringify(body)).not.toContain(secret);
  });

  it('answers the same to an anonymous ?email= whatever the address, and 401 with neither', async () => {
    const { call, enabled } = twoFactor();
    enabled();

    expect((await call('GET', { query: 'email=ann@example.com', as: '' })).body.data).toEqual({
      enable: false,
    });
    expect((await call('GET', { query: 'email=nobody@example.com', as: '' })).body.data).toEqual({
      enable: false,
    });
    expect((await call('GET', { query: 'email=not-an-address', as: '' })).status).toBe(400);
    expect((await call('GET', { as: 'Bearer undefined' })).status).toBe(401);
  });
});

describe('POST /api/token/2fa', () => {
  it('turns TOTP on with a code of the stored pending secret, answering ten recovery codes once', async () => {
    const { call, store, clock } = twoFactor();
    const shown = (await call('GET')).body.data.secret as string;
    clock.now += 40_000;

    const { status, body } = await call('POST', {
      body: { code: totpCodeAt(shown, totpStep(clock.now)), password: 'right password' },
    });

    expect(status).toBe(200);
    const data = body.data as { enable: boolean; recovery_codes: string[]; token: string };
    expect(data.enable).toBe(true);
    expect(data.recovery_codes).toHaveLength(10);
    expect(data.token).toBe('token-A1-v2');
    const stored = store.accounts.get(ann.id)!;
    expect(openSecret(keys.secret, ann.id, stored.secret!)).toBe(shown);
    expect(stored.lastStep).toBe(totpStep(clock.now));
    expect(stored.pending).toBeUndefined();
    expect(stored.recoveryHashes).toEqual(
      data.recovery_codes.map((code) => hashRecoveryCode(keys.recovery, ann.id, code)),
    );
    expect(JSON.stringify(stored)).not.toContain(data.recovery_codes[0]);
  });

  it('checks the code against the stored secret only, never a secret the client sends', async () => {
    const { call, store } = twoFactor();
    await call('GET');

    const { status, body } = await call('POST', {
      body: {
        code: totpCodeAt(secret, totpStep(Date.UTC(2026, 10, 29, 12))),
        secret,
        password: 'right password',
      },
    });

    expect(status).toBe(400);
    expect(body.details).toHaveProperty('code');
    expect(store.accounts.get(ann.id)?.secret).toBeUndefined();
  });

  it('refuses a confirmation once the pending secret expired, or when none is pending', async () => {
    const { call, clock } = twoFactor();
    expect(
      (await call('POST', { body: { code: '123456', password: 'right password' } })).body.details?.code,
    ).toMatch(/no enrolment/);
    const shown = (await call('GET')).body.data.secret as string;
    clock.now += pendingEnrolmentMs;

    const { status, body } = await call('POST', {
      body: { code: totpCodeAt(shown, totpStep(clock.now)), password: 'right password' },
    });

    expect(status).toBe(400);
    expect(body.details?.code).toMatch(/no enrolment/);
  });

  it('refuses a code that is not six digits, an account with TOTP on, and anonymous callers', async () => {
    const { call, enabled } = twoFactor();
    expect((await call('POST', { body: { code: '12345', password: 'right password' } })).status).toBe(400);
    expect(
      (await call('POST', { body: { code: '123456', password: 'right password' }, as: '' })).status,
    ).toBe(401);
    enabled();

    expect((await call('POST', { body: { code: '123456', password: 'right password' } })).status).toBe(409);
  });
  it('asks the password, counted on the sign-in lock before it is hashed, and binds nothing without it', async () => {
    const { call, store, clock, attempts, state } = twoFactor();
    const shown = (await call('GET')).body.data.secret as string;
    const code = totpCodeAt(shown, totpStep(clock.now));

    const missing = await call('POST', { body: { code } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toHaveProperty('password');
    const wrong = await call('POST', { body: { code, password: 'a stolen token, no password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details).toHaveProperty('password');
    state.locked = true;
    expect((await call('POST', { body: { code, password: 'right password' } })).status).toBe(429);
    expect(attempts).toEqual(['admit ann@example.com', 'admit ann@example.com']);
    expect(store.accounts.get(ann.id)?.secret).toBeUndefined();

    state.locked = false;
    expect((await call('POST', { body: { code, password: 'right password' } })).status).toBe(200);
    expect(attempts.at(-1)).toBe('succeeded ann@example.com');
  });

  it('refuses an account without a password (made from an external identity): its provider signs it in', async () => {
    const { routes, store } = twoFactor();
    store.accounts.set('X1', { lastStep: -1, recoveryHashes: [], sessionVersion: 0 });
    const answer = await routeAnswer(routes.confirm, {
      method: 'POST',
      path: '/api/token/2fa',
      body: { code: '123456', password: 'anything' },
      headers: { authorization: 'Bearer external' },
    });
    expect(answer.statusCode).toBe(403);
    expect((answer.body as Answer).errmsg).toMatch(/provider/);
    expect(store.accounts.get('X1')?.secret).toBeUndefined();
  });
});

describe('DELETE /api/token/2fa', () => {
  it('turns TOTP off with the password and a fresh code, counting the attempt and then clearing it', async () => {
    const { call, store, clock, attempts, enabled } = twoFactor();
    enabled();

    const { status, body } = await call('DELETE', {
      body: { password: 'right password', code: totpCodeAt(secret, totpStep(clock.now)) },
    });

    expect(status).toBe(200);
    expect(body.data).toEqual({ enable: false });
    expect(store.accounts.get(ann.id)?.secret).toBeUndefined();
    expect(attempts).toEqual(['admit ann@example.com', 'succeeded ann@example.com']);
  });

  it('turns TOTP off with a recovery code instead', async () => {
    const { call, store, enabled } = twoFactor();
    enabled(['abcd-efgh-jkmn']);

    expect(
      (await call('DELETE', { body: { password: 'right password', code: 'ABCD EFGH JKMN' } })).status,
    ).toBe(200);
    expect(store.accounts.get(ann.id)?.secret).toBeUndefined();
  });

  it('keeps TOTP on for a wrong password, a used or wrong code, and leaves the failure counted', async () => {
    const { call, store, clock, attempts, enabled } = twoFactor();
    enabled();
    const used = totpCodeAt(secret, totpStep(clock.now) - 1);

    expect((await call('DELETE', { body: { password: 'wrong', code: '000000' } })).status).toBe(401);
    const reused = await call('DELETE', { body: { password: 'right password', code: used } });
    expect(reused.status).toBe(401);
    expect(reused.body.details).toEqual({ code: 'wrong' });
    expect(
      (await call('DELETE', { body: { password: 'right password', code: 'zzzz-zzzz-zzzz' } })).status,
    ).toBe(401);

    expect(store.accounts.get(ann.id)?.secret).toBeDefined();
    expect(attempts).toEqual(['admit ann@example.com', 'admit ann@example.com', 'admit ann@example.com']);
  });

  it('refuses while the account is locked, even the right password and code', async () => {
    const { call, clock, state, store, enabled } = twoFactor();
    enabled();
    state.locked = true;

    const { status } = await call('DELETE', {
      body: { password: 'right password', code: totpCodeAt(secret, totpStep(clock.now)) },
    });

    expect(status).toBe(429);
    expect(store.accounts.get(ann.id)?.secret).toBeDefined();
  });
});
