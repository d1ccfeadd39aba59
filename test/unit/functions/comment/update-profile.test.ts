import { describe, expect, it } from 'vitest';
import { createUpdateProfile } from '../../../../functions/comment/update-profile.js';
import { hashPassword, verifyPassword } from '../../../../functions/shared/auth/password.js';
import { checkToken } from '../../../../functions/shared/auth/token.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import { openAddress } from '../../../../functions/shared/notify/sealed-address.js';
import type { AccountMailSubject } from '../../../../functions/shared/table/account-mail-event.js';
import { createFakeAccountRepository } from '../../../support/fake-account-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';

const signedIn = 'Bearer reader-token';
const secret = 's'.repeat(32);
const linkSecret = 'l'.repeat(40);
const now = 1_800_000_000_000;
const current = 'the current password';

async function setUp(overrides: Partial<Account> = {}, others: Account[] = []) {
  const stored: Account = {
    id: '01READER',
    email: 'ann@example.com',
    displayName: 'Ann',
    type: 'guest',
    state: 'active',
    passwordHash: await hashPassword(current),
    sessionVersion: 2,
    createdAt: 0,
    ...overrides,
  };
  const accounts = createFakeAccountRepository([stored, ...others]);
  const mails: AccountMailSubject[] = [];
  let checks = 0;
  const slots = new Map<string, number>();
  const forgotten: string[] = [];
  const route = createUpdateProfile({
    viewer: async (authorization) => {
      const account = accounts.byId.get(stored.id);
      if (authorization !== signedIn || !account || account.sessionVersion !== stored.sessionVersion)
        return undefined;
      return {
        id: account.id,
        email: account.email,
        type: account.type === 'administrator' ? 'administrator' : 'guest',
        sessionVersion: account.sessionVersion,
        account,
      };
    },
    accounts,
    accountLimits: {
      countAttempt: async () => {
        checks += 1;
        return checks;
      },
      takeMailSlot: async (addressHash, _slot, perDay) => {
        slots.set(addressHash, (slots.get(addressHash) ?? 0) + 1);
        return (slots.get(addressHash) ?? 0) <= perDay;
      },
    },
    hashAddress: (address) => `hash:${address.toLowerCase()}`,
    queueAccountMail: async (_id, _at, subject) => {
      mails.push(subject);
    },
    tokenSecret: async () => secret,
    linkSecret: async () => linkSecret,
    config: { TOKEN_TTL_HOURS: 24, IP_HASH_SALT: 'test-salt-0123456789abcdef' },
    now: () => now,
    newId: (time) => `01NEW${time}`,
    avatarFor: ({ mail }) => `https://avatar.example/${mail}`,
    authorProfiles: { forget: (id) => forgotten.push(id) },
  });
  const put = (body: unknown, authorization = signedIn) =>
    routeAnswer(route, { method: 'PUT', path: '/api/user', body, headers: { authorization } });
  return { accounts, mails, put, stored, forgotten, checks: () => checks };
}

interface Answer {
  errno: number;
  errmsg: string;
  data: Record<string, unknown> & { token?: string };
}

describe('PUT /api/user', () => {
  it('answers 401 and changes nothing without a signed-in account', async () => {
    const { put, accounts, stored } = await setUp();

    const answer = await put({ display_name: 'Eve' }, 'Bearer other');

    expect(answer.statusCode).toBe(401);
    expect(accounts.byId.get(stored.id)).toEqual(stored);
  });

  it('lets a reader change the display name, link and an https avatar, with no password and no mail', async () => {
    const { put, accounts, stored, mails } = await setUp();

    const answer = await put({
      display_name: ' Ann B ',
      url: 'https://ann.example',
      avatar: 'https://img.example/a.png',
    });

    expect(answer.statusCode).toBe(200);
    expect((answer.body as Answer).data).toMatchObject({ display_name: 'Ann B', url: 'https://ann.example' });
    expect((answer.body as Answer).data.token).toBeUndefined();
    expect(accounts.byId.get(stored.id)).toMatchObject({
      avatar: 'https://img.example/a.png',
      sessionVersion: 2,
    });
    expect(mails).toEqual([]);
  });

  it("forgets the account's cached author profile once it changed, and only then", async () => {
    const changed = await setUp();
    await changed.put({ display_name: 'New Name' });
    expect(changed.forgotten).toEqual([changed.stored.id]);

    const anonymous = await setUp();
    await anonymous.put({ display_name: 'New Name' }, 'Bearer nobody');
    expect(anonymous.forgotten).toEqual([]);
  });

  it('refuses an avatar that is not https, naming the field and the rule', async () => {
    const { put } = await setUp();

    const answer = await put({ avatar: 'http://img.example/a.png' });

    expect(answer.statusCode).toBe(400);
    expect((answer.body as Answer).errmsg).toContain('avatar: must be an https address');
  });

  it('refuses label and type: administrators set them', async () => {
    const { put, accounts, stored } = await setUp();

    const label = await put({ display_name: 'Ann', label: 'Owner' });
    const type = await put({ type: 'administrator' });

    expect(label.statusCode).toBe(403);
    expect((label.body as Answer).errmsg).toContain('label: only administrators set it');
    expect(type.statusCode).toBe(403);
    expect(accounts.byId.get(stored.id)).toEqual(stored);
  });

  it('needs the current password to change the password, and refuses a wrong one without writing', async () => {
    const { put, accounts, stored } = await setUp();

    const missing = await put({ password: 'a brand new password' });
    const wrong = await put({ password: 'a brand new password', currentPassword: 'not the password' });

    expect(missing.statusCode).toBe(400);
    expect((missing.body as Answer).errmsg).toContain('currentPassword');
    expect(wrong.statusCode).toBe(403);
    expect(accounts.byId.get(stored.id)).toEqual(stored);
  });

  it('limits the checks of the current password before hashing it', async () => {
    const { put, checks } = await setUp();

    const answers = [];
    for (let n = 0; n < 6; n++)
      answers.push(await put({ password: 'a brand new password', currentPassword: 'wrong guess' }));

    expect(answers.slice(0, 5).map((answer) => answer.statusCode)).toEqual([403, 403, 403, 403, 403]);
    expect(answers[5]?.statusCode).toBe(429);
    expect(checks()).toBe(6);
  });

  it('changes the password with the current one, revokes the tokens, answers a fresh token and mails the owner', async () => {
    const { put, accounts, stored, mails } = await setUp();

    const answer = await put({ password: 'a brand new password', currentPassword: current });

    expect(answer.statusCode).toBe(200);
    const saved = accounts.byId.get(stored.id);
    expect(saved?.sessionVersion).toBe(3);
    expect(await verifyPassword('a brand new password', saved?.passwordHash ?? '')).toBe(true);
    const check = await checkToken(secret, (answer.body as Answer).data.token ?? '', now);
    expect(check.ok && check.claims.sub).toBe(stored.id);
    expect(mails).toEqual([{ accountId: stored.id, mail: 'changed', change: 'password', lang: 'en' }]);
  });

  it('takes no new address at once: it mails the new address a sealed link, and says the change is pending', async () => {
    const { put, accounts, stored, mails } = await setUp();

    const answer = await put({ email: 'ann@new.example', currentPassword: current });

    expect(answer.statusCode).toBe(200);
    expect((answer.body as Answer).data).toMatchObject({
      email: 'ann@example.com',
      pending_email: 'ann@new.example',
    });
    expect(accounts.byId.get(stored.id)?.email).toBe('ann@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ accountId: stored.id, mail: 'confirm-address', lang: 'en', version: 2 });
    expect(openAddress(linkSecret, mails[0]?.sealedTo ?? '')).toBe('ann@new.example');
    expect(JSON.stringify(mails)).not.toContain('ann@new.example');
  });

  it('needs the current password for an address, bounds the links per new address, and takes its own as no change', async () => {
    const { put, accounts, stored, mails } = await setUp();

    const without = await put({ email: 'ann@new.example' });
    const links = [];
    for (let sent = 0; sent < 4; sent += 1)
      links.push(await put({ email: 'ann@new.example', currentPassword: current }));
    const same = await put({ email: 'ANN@example.com', display_name: 'Ann' });

    expect(without.statusCode).toBe(400);
    expect(links.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
    expect(same.statusCode).toBe(200);
    expect(accounts.byId.get(stored.id)?.email).toBe('ann@example.com');
    expect(mails.map((mail) => mail.mail)).toEqual(['confirm-address', 'confirm-address', 'confirm-address']);

    // Refused for the address's allowance, a request changes nothing else either: its new password is not set.
    const both = await put({
      email: 'ann@new.example',
      password: 'a brand new password',
      currentPassword: current,
    });
    expect(both.statusCode).toBe(429);
    expect(await verifyPassword(current, accounts.byId.get(stored.id)?.passwordHash ?? '')).toBe(true);
    expect(accounts.byId.get(stored.id)?.sessionVersion).toBe(2);
  });

  it('refuses an address change without the link key before writing anything', async () => {
    const { accounts, stored } = await setUp();
    const route = createUpdateProfile({
      viewer: async () => ({
        id: stored.id,
        email: stored.email,
        type: 'guest',
        sessionVersion: stored.sessionVersion,
        account: stored,
      }),
      accounts,
      accountLimits: { countAttempt: async () => 1, takeMailSlot: async () => true },
      hashAddress: (address) => address,
      queueAccountMail: async () => undefined,
      tokenSecret: async () => secret,
      linkSecret: async () => undefined,
      config: { TOKEN_TTL_HOURS: 24, IP_HASH_SALT: 'test-salt-0123456789abcdef' },
      now: () => now,
      newId: (time) => `01NEW${time}`,
      avatarFor: () => 'a',
    });

    // A 503 (the error middleware answers it): routeAnswer throws errors of 500 and above.
    await expect(
      routeAnswer(route, {
        method: 'PUT',
        path: '/api/user',
        body: { email: 'ann@new.example', currentPassword: current, display_name: 'Changed' },
        headers: { authorization: signedIn },
      }),
    ).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    expect(accounts.byId.get(stored.id)).toEqual(stored);
  });
});
