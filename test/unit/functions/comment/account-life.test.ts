import { hashPassword } from '../../../../functions/shared/auth/password.js';
import { describe, expect, it } from 'vitest';
import { createFakeAccountLimits } from '../../../support/fake-account-limits.js';
import { createAccountLifeRoutes } from '../../../../functions/comment/account-life-routes.js';
import type { CaptchaGuard } from '../../../../functions/comment/captcha-guard.js';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import { verifyPassword } from '../../../../functions/shared/auth/password.js';
import { toApiRequest } from '../../../../functions/shared/http/request.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { type LinkClaims, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { openAddress, sealAddress } from '../../../../functions/shared/notify/sealed-address.js';
import type { AccountMailSubject } from '../../../../functions/shared/table/account-mail-event.js';
import { createFakeAccountRepository } from '../../../support/fake-account-repository.js';
import { buildEvent } from '../../../support/http-event.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testConfig } from '../../../support/test-config.js';

const linkSecret = 'l'.repeat(40);
const start = 1_800_000_000_000;
const hour = 3_600_000;
const password = 'correct horse battery';

const fakeLimits = createFakeAccountLimits;

const noCaptcha: CaptchaGuard = {
  demand: async () => ({ kind: 'none' }),
  verify: async () => ({ passed: true }),
};

function account(overrides: Partial<Account> = {}): Account {
  return {
    id: '01ACCOUNT0000000000000000A',
    email: 'ann@example.com',
    displayName: 'Ann',
    type: 'guest',
    state: 'active',
    passwordHash: 'scrypt$unused',
    sessionVersion: 3,
    createdAt: start - 86_400_000,
    ...overrides,
  };
}

function setUp({ registration = 'open', accounts = [] as Account[], withLinkKey = true } = {}) {
  const key = withLinkKey ? linkSecret : undefined;
  let time = start;
  let ids = 0;
  const repository = createFakeAccountRepository(accounts);
  const limits = fakeLimits();
  const mails: AccountMailSubject[] = [];
  const config = testConfig({
    REGISTRATION: registration,
    SMTP_HOST: 'smtp.example.com',
    ...(key ? { LINK_SECRET: key } : {}),
  });
  const routes = createAccountLifeRoutes({
    config,
    accounts: repository,
    accountLimits: limits,
    queueAccountMail: async (_id, _at, subject) => {
      mails.push(subject);
    },
    captcha: noCaptcha,
    readLink: createLinkReader({ linkSecret: async () => key, now: () => time }),
    linkSecret: async () => key,
    hashAddress: createAddressHasher(config.IP_HASH_SALT),
    now: () => time,
    newId: () => `01NEW${String(++ids).padStart(21, '0')}`,
  });
  return {
    routes,
    repository,
    limits,
    mails,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const register = (body: Record<string, unknown>, sourceIp = '198.51.100.7') => ({
  method: 'POST',
  path: '/api/user',
  body: { display_name: 'Ann', email: 'ann@example.com', password, url: '', ...body },
  sourceIp,
});

const token = (claims: LinkClaims, expiresAt = start + hour) => signLinkToken(linkSecret, claims, expiresAt);

describe('POST /api/user (registration)', () => {
  it('is refused with 403 and a message when REGISTRATION is closed, and writes nothing', async () => {
    const { routes, repository, mails } = setUp({ registration: 'closed' });

    const answer = await routeAnswer(routes['POST /api/user'], register({}));

    expect(answer.statusCode).toBe(403);
    expect(answer.body).toMatchObject({ errmsg: expect.stringContaining('Registration is closed') });
    expect(repository.byId.size).toBe(0);
    expect(mails).toEqual([]);
  });

  it('names the field and the rule of a bad body', async () => {
    const { routes } = setUp();

    const short = await routeAnswer(routes['POST /api/user'], register({ password: 'short' }));
    const noName = await routeAnswer(routes['POST /api/user'], register({ display_name: undefined }));
    const badUrl = await routeAnswer(routes['POST /api/user'], register({ url: 'javascript:alert(1)' }));

    expect(short.statusCode).toBe(400);
    expect(short.body).toMatchObject({
      errmsg: expect.stringContaining('password: must be at least 12 characters'),
    });
    expect(noName.body).toMatchObject({ errmsg: expect.stringContaining('display_name') });
    expect(badUrl.body).toMatchObject({ errmsg: expect.stringContaining('url: must be an http(s) address') });
  });

  it('creates an unconfirmed guest (never an administrator, whatever the body says) and queues its confirmation', async () => {
    const { routes, repository, mails } = setUp();

    const answer = await routeAnswer(
      routes['POST /api/user'],
      register({ type: 'administrator', label: 'Owner', url: 'https://ann.example' }),
    );

    expect(answer).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: { verify: true } } });
    const [created] = repository.byId.values();
    expect(created).toMatchObject({
      email: 'ann@example.com',
      displayName: 'Ann',
      link: 'https://ann.example',
      type: 'guest',
      state: 'unconfirmed',
      sessionVersion: 0,
    });
    expect(created?.label).toBeUndefined();
    expect(await verifyPassword(password, created?.passwordHash ?? '')).toBe(true);
    expect(mails).toEqual([{ accountId: created?.id, mail: 'confirm', lang: 'en' }]);
  });

  it('answers a known address exactly as a new one, and only mails its owner (once a day)', async () => {
    const known = account();
    const { routes, repository, mails, advance } = setUp({ accounts: [known] });

    const first = await routeAnswer(routes['POST /api/user'], register({ email: 'Ann@Example.com' }));
    const second = await routeAnswer(routes['POST /api/user'], register({}));
    const fresh = await routeAnswer(routes['POST /api/user'], register({ email: 'bob@example.com' }));
    advance(24 * hour);
    await routeAnswer(routes['POST /api/user'], register({}));

    expect(first).toEqual(fresh);
    expect(second).toEqual(fresh);
    expect(repository.byId.get(known.id)).toEqual(known);
    expect(mails.filter((mail) => mail.accountId === known.id)).toEqual([
      { accountId: known.id, mail: 'already-registered', lang: 'en' },
      { accountId: known.id, mail: 'already-registered', lang: 'en' },
    ]);
  });

  it('mails and writes nothing for a banned address, and keeps the ban', async () => {
    const banned = account({ type: 'banned' });
    const { routes, repository, mails } = setUp({ accounts: [banned] });

    const answer = await routeAnswer(routes['POST /api/user'], register({}));

    expect(answer.body).toEqual({ errno: 0, errmsg: '', data: { verify: true } });
    expect(repository.byId.get(banned.id)).toEqual(banned);
    expect(mails).toEqual([]);
  });

  it("sends an unconfirmed account its link again, at most 3 times a day, with the latest registration's password", async () => {
    const pending = account({ state: 'unconfirmed', sessionVersion: 0 });
    const { routes, repository, mails } = setUp({ accounts: [pending] });

    for (let attempt = 0; attempt < 5; attempt++) {
      await routeAnswer(routes['POST /api/user'], register({ password: `another password ${attempt}` }));
    }

    expect(mails).toHaveLength(3);
    expect(mails.every((mail) => mail.mail === 'confirm')).toBe(true);
    // Whoever registered first holds nothing: the confirmation asks for the latest password.
    const stored = repository.byId.get(pending.id);
    expect(await verifyPassword('another password 4', stored?.passwordHash ?? '')).toBe(true);
    expect(stored?.state).toBe('unconfirmed');
  });

  it('keeps an active or banned account as it is when its address registers again', async () => {
    const active = account({ email: 'ann@example.com' });
    const banned = account({ id: '01ACCOUNT0000000000000000B', email: 'bob@example.com', type: 'banned' });
    const { routes, repository } = setUp({ accounts: [active, banned] });

    await routeAnswer(routes['POST /api/user'], register({ email: 'ann@example.com' }));
    await routeAnswer(routes['POST /api/user'], register({ email: 'bob@example.com' }));

    expect(repository.byId.get(active.id)).toEqual(active);
    expect(repository.byId.get(banned.id)).toEqual(banned);
  });

  it('limits registrations per network and hour before hashing anything', async () => {
    const { routes, repository } = setUp();
    const answers = [];
    for (let n = 0; n < 6; n++) {
      answers.push(
        await routeAnswer(
          routes['POST /api/user'],
          register({ email: `reader${n}@example.com` }, '2001:db8::1'),
        ),
      );
    }
    const otherHost = await routeAnswer(
      routes['POST /api/user'],
      register({ email: 'other@example.com' }, '2001:db8::ffff'),
    );

    expect(answers.slice(0, 5).every((answer) => answer.statusCode === 200)).toBe(true);
    expect(answers[5]?.statusCode).toBe(429);
    expect(otherHost.statusCode).toBe(429);
    expect(repository.byId.size).toBe(5);
  });
});

/** The confirmation form's POST, with the password typed into it (urlencoded, as a browser sends it). */
const confirmation = (link: string, typed: string | null = password) =>
  toApiRequest(
    buildEvent({
      method: 'POST',
      path: '/api/verification',
      query: `token=${link}`,
      ...(typed === null
        ? {}
        : {
            body: new URLSearchParams({ password: typed }).toString(),
            contentType: 'application/x-www-form-urlencoded',
          }),
    }),
  );

let hashOfPassword: Promise<string> | undefined;
/** The hash of the password the pending accounts registered with (scrypt: computed once). */
const registeredHash = () => (hashOfPassword ??= hashPassword(password));

describe('GET and POST /api/verification (confirmation)', () => {
  it('shows a page with one button on GET and changes nothing', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository } = setUp({ accounts: [pending] });
    const link = await token({ purpose: 'account-confirm', accountId: pending.id });

    const page = await routes['GET /api/verification'](
      toApiRequest(buildEvent({ path: '/api/verification', query: `token=${link}` })),
    );

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect(page.body).toContain('name="password"');
    expect(repository.byId.get(pending.id)?.state).toBe('unconfirmed');
  });

  it('activates the account on POST, once: the same link again changes nothing', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository } = setUp({ accounts: [pending] });
    const link = await token({ purpose: 'account-confirm', accountId: pending.id });
    const post = () => routes['POST /api/verification'](confirmation(link));

    const first = await post();
    await repository.update(pending.id, { state: 'unconfirmed' });
    const second = await post();

    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Your account is confirmed');
    expect(second.statusCode).toBe(400);
    expect(repository.byId.get(pending.id)?.state).toBe('unconfirmed');
  });

  it('leaves the account awaiting approval under REGISTRATION=approval', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository } = setUp({ registration: 'approval', accounts: [pending] });
    const link = await token({ purpose: 'account-confirm', accountId: pending.id });

    const page = await routes['POST /api/verification'](confirmation(link));

    expect(page.body).toContain('An administrator');
    expect(repository.byId.get(pending.id)?.state).toBe('awaiting-approval');
  });

  it('refuses an expired link, a reset link and a forged one', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository, advance } = setUp({ accounts: [pending] });
    const expiring = await token({ purpose: 'account-confirm', accountId: pending.id }, start + 24 * hour);
    const reset = await token({ purpose: 'account-reset', accountId: pending.id, version: 0 });
    const forged = await signLinkToken(
      'f'.repeat(40),
      { purpose: 'account-confirm', accountId: pending.id },
      start + hour,
    );
    const post = (link: string) => routes['POST /api/verification'](confirmation(link));

    expect((await post(reset)).statusCode).toBe(400);
    expect((await post(forged)).statusCode).toBe(400);
    advance(24 * hour);
    expect((await post(expiring)).statusCode).toBe(400);
    expect(repository.byId.get(pending.id)?.state).toBe('unconfirmed');
  });

  it('asks for the registration password: without it or with another, nothing changes and the link still works', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository } = setUp({ accounts: [pending] });
    const link = await token({ purpose: 'account-confirm', accountId: pending.id });
    const post = (typed: string | null) => routes['POST /api/verification'](confirmation(link, typed));

    const missing = await post(null);
    const wrong = await post('the owner never chose this');

    expect(missing.statusCode).toBe(403);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('not the password this account was registered with');
    expect(repository.byId.get(pending.id)?.state).toBe('unconfirmed');
    expect((await post(password)).statusCode).toBe(200);
    expect(repository.byId.get(pending.id)?.state).toBe('active');
  });

  it('stops checking passwords after five tries in a window, before any hash, even the right one', async () => {
    const pending = account({
      state: 'unconfirmed',
      sessionVersion: 0,
      passwordHash: await registeredHash(),
    });
    const { routes, repository } = setUp({ accounts: [pending] });
    const link = await token({ purpose: 'account-confirm', accountId: pending.id });
    const post = (typed: string) => routes['POST /api/verification'](confirmation(link, typed));

    for (let i = 0; i < 5; i++) expect((await post(`guess ${i}`)).statusCode).toBe(403);
    expect((await post(password)).statusCode).toBe(403);
    expect(repository.byId.get(pending.id)?.state).toBe('unconfirmed');
  });
});

describe('PUT and POST /api/user/password (reset)', () => {
  const ask = (email: string, sourceIp = '198.51.100.7') => ({
    method: 'PUT',
    path: '/api/user/password',
    body: { email },
    sourceIp,
  });

  it('does the same for a known and an unknown address: one answer, one slot, one sealed event, no account read', async () => {
    const active = account();
    const pending = account({
      id: '01ACCOUNT0000000000000000B',
      email: 'pat@example.com',
      state: 'unconfirmed',
    });
    const banned = account({ id: '01ACCOUNT0000000000000000C', email: 'ban@example.com', type: 'banned' });
    const { routes, repository, limits, mails } = setUp({ accounts: [active, pending, banned] });
    const reads: string[] = [];
    for (const name of ['findByEmail', 'findById'] as const) {
      const read = repository[name].bind(repository);
      repository[name] = async (value: string) => {
        reads.push(name);
        return read(value);
      };
    }
    const addresses = ['ann@example.com', 'nobody@example.com', 'pat@example.com', 'ban@example.com'];

    const answers = await Promise.all(
      addresses.map((email) => routeAnswer(routes['PUT /api/user/password'], ask(email))),
    );

    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: '' } });
    expect(reads).toEqual([]);
    expect([...limits.slots.values()]).toEqual([1, 1, 1, 1]);
    expect(
      mails.map(({ sealedTo, ...subject }) => ({ ...subject, to: openAddress(linkSecret, sealedTo ?? '') })),
    ).toEqual(addresses.map((to) => ({ accountId: '', mail: 'reset', lang: 'en', to })));
  });

  it('is a 503 that says so, with nothing written for the address, when the site has no link key', async () => {
    const { routes, limits, mails } = setUp({ accounts: [account()], withLinkKey: false });

    const asked = routes['PUT /api/user/password'](toApiRequest(buildEvent(ask('ann@example.com'))));

    await expect(asked).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining('LINK_SECRET'),
    });
    expect(limits.slots.size).toBe(0);
    expect(mails).toEqual([]);
  });

  it('mails one address at most 5 reset links a day, and one network asks at most 10 times an hour', async () => {
    const { routes, mails } = setUp({ accounts: [account()] });
    const answers = [];
    for (let n = 0; n < 11; n++)
      answers.push(await routeAnswer(routes['PUT /api/user/password'], ask('ann@example.com')));

    expect(mails).toHaveLength(5);
    expect(answers.slice(0, 10).every((answer) => answer.statusCode === 200)).toBe(true);
    expect(answers[10]?.statusCode).toBe(429);
  });

  it('sets the new password once and revokes every token; the link again, or an older one, is refused', async () => {
    const active = account();
    const { routes, repository } = setUp({ accounts: [active] });
    const link = await token({ purpose: 'account-reset', accountId: active.id, version: 3 });
    const older = await token(
      { purpose: 'account-reset', accountId: active.id, version: 3 },
      start + hour - 1000,
    );
    const reset = (tokenText: string, newPassword = 'a brand new password') => ({
      method: 'POST',
      path: '/api/user/password',
      body: { token: tokenText, password: newPassword },
    });

    const done = await routeAnswer(routes['POST /api/user/password'], reset(link));
    const again = await routeAnswer(routes['POST /api/user/password'], reset(link, 'attacker password 1'));
    const stale = await routeAnswer(routes['POST /api/user/password'], reset(older, 'attacker password 2'));

    expect(done).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: '' } });
    const stored = repository.byId.get(active.id);
    expect(stored?.sessionVersion).toBe(4);
    expect(await verifyPassword('a brand new password', stored?.passwordHash ?? '')).toBe(true);
    expect(again.statusCode).toBe(400);
    expect(again.body).toMatchObject({ errmsg: expect.stringContaining('token:') });
    expect(stale.statusCode).toBe(400);
  });

  it('refuses an expired link, a confirmation link, and a too-short password naming the field', async () => {
    const active = account();
    const { routes, repository, advance } = setUp({ accounts: [active] });
    const confirm = await token({ purpose: 'account-confirm', accountId: active.id });
    const link = await token({ purpose: 'account-reset', accountId: active.id, version: 3 });
    const reset = (tokenText: string, newPassword = 'a brand new password') => ({
      method: 'POST',
      path: '/api/user/password',
      body: { token: tokenText, password: newPassword },
    });

    const short = await routeAnswer(routes['POST /api/user/password'], reset(link, 'short'));
    const wrongPurpose = await routeAnswer(routes['POST /api/user/password'], reset(confirm));
    advance(hour);
    const expired = await routeAnswer(routes['POST /api/user/password'], reset(link));

    expect(short.body).toMatchObject({
      errmsg: expect.stringContaining('password: must be at least 12 characters'),
    });
    expect(wrongPurpose.statusCode).toBe(400);
    expect(expired.statusCode).toBe(400);
    expect(repository.byId.get(active.id)).toEqual(active);
  });
});

describe('the account pages', () => {
  it('serve /ui/register, /ui/forgot and /ui/reset with the pages\u2019 policy and the right calls', async () => {
    const { routes } = setUp();
    const page = (key: 'GET /ui/register' | 'GET /ui/forgot' | 'GET /ui/reset', path: string) =>
      routes[key](toApiRequest(buildEvent({ path })));

    const [register, forgot, reset] = await Promise.all([
      page('GET /ui/register', '/ui/register'),
      page('GET /ui/forgot', '/ui/forgot'),
      page('GET /ui/reset', '/ui/reset'),
    ]);

    for (const response of [register, forgot, reset]) {
      const policy = response.headers?.['content-security-policy'] ?? '';
      expect(policy).toMatch(/script-src 'nonce-[^']+'/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(response.headers?.['referrer-policy']).toBe('no-referrer');
    }
    expect(register.body).toContain("send('POST', 'user', body)");
    expect(forgot.body).toContain("send('PUT', 'user/password'");
    expect(reset.body).toContain("send('POST', 'user/password', { token");
    expect(reset.body).toContain('history.replaceState');
  });
});

describe('GET and POST /api/verification (an address change)', () => {
  const other = account({ id: '01OTHER00000000000000000B', email: 'bob@example.com' });
  const changeLink = (version = 3, address = 'ann@new.example') =>
    token({
      purpose: 'account-address',
      accountId: account().id,
      version,
      sealedAddress: sealAddress(linkSecret, address),
    });
  const post = (link: string) =>
    toApiRequest(buildEvent({ method: 'POST', path: '/api/verification', query: `token=${link}` }));

  it('offers one button on GET, asking no password, and changes nothing', async () => {
    const { routes, repository } = setUp({ accounts: [account()] });

    const page = await routes['GET /api/verification'](
      toApiRequest(buildEvent({ path: '/api/verification', query: `token=${await changeLink()}` })),
    );

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Use this address');
    expect(page.body).not.toContain('name="password"');
    expect(repository.byId.get(account().id)?.email).toBe('ann@example.com');
  });

  it('takes the mailed address on POST, once, and tells the former address, sealed', async () => {
    const { routes, repository, mails } = setUp({ accounts: [account()] });
    const link = await changeLink();

    const first = await routes['POST /api/verification'](post(link));
    await repository.update(account().id, { email: 'ann@example.com' });
    const second = await routes['POST /api/verification'](post(link));

    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Your address is changed');
    expect(second.statusCode).toBe(400);
    expect(repository.byId.get(account().id)?.email).toBe('ann@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ accountId: account().id, mail: 'changed', change: 'email' });
    expect(openAddress(linkSecret, mails[0]?.sealedTo ?? '')).toBe('ann@example.com');
  });

  it('refuses a link made before a password change or a ban, and an address another account took meanwhile', async () => {
    const { routes, repository, mails } = setUp({ accounts: [account(), other] });

    const older = await routes['POST /api/verification'](post(await changeLink(2)));
    const taken = await routes['POST /api/verification'](post(await changeLink(3, 'Bob@Example.com')));
    await repository.update(account().id, { type: 'banned' });
    const banned = await routes['POST /api/verification'](post(await changeLink(3)));

    expect([older.statusCode, taken.statusCode, banned.statusCode]).toEqual([409, 409, 409]);
    expect(taken.body).toContain('has an account already');
    expect(repository.byId.get(account().id)?.email).toBe('ann@example.com');
    expect(mails).toEqual([]);
  });

  it('refuses an address link the link key did not sign with a 400, like any link', async () => {
    const { routes } = setUp({ accounts: [account()] });
    const forged = await signLinkToken(
      'f'.repeat(40),
      {
        purpose: 'account-address',
        accountId: account().id,
        version: 3,
        sealedAddress: sealAddress('f'.repeat(40), 'eve@example.com'),
      },
      start + hour,
    );

    expect((await routes['POST /api/verification'](post(forged))).statusCode).toBe(400);
  });
});
