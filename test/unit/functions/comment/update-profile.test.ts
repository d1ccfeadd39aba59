import { describe, expect, it } from 'vitest';
import { createUpdateProfile } from '../../../../functions/comment/update-profile.js';
import { verifyPassword } from '../../../../functions/shared/auth/password.js';
import { checkToken } from '../../../../functions/shared/auth/token.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import type { AccountChanges } from '../../../../functions/shared/table/account-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testAccount } from '../../../support/viewers.js';

type ProfileDependencies = Parameters<typeof createUpdateProfile>[0];

const adminToken = 'Bearer admin-token';
const secret = 's'.repeat(32);
const now = 1_800_000_000_000;
const guestToken = 'Bearer guest-token';
const stored: Account = testAccount({
  id: '01ADMIN',
  email: 'admin@example.com',
  displayName: 'Admin',
  passwordHash: 'scrypt$old',
  sessionVersion: 4,
});
const guest: Account = testAccount({ id: '01GUEST', email: 'guest@example.com', type: 'guest' });

/**
 * The route over fakes of exactly its dependencies: the viewer knows two tokens (the administrator's and a
 * guest's); `update` changes a copy of `account` when the id and version match, as the conditional write
 * does, and records what it was asked.
 */
function profileRoute(account: Account | null = stored) {
  const updates: Array<{ id: string; changes: AccountChanges; expectedVersion?: number }> = [];
  const dependencies: ProfileDependencies = {
    viewer: async (authorization) => {
      const signedIn =
        authorization === adminToken ? stored : authorization === guestToken ? guest : undefined;
      return signedIn && { ...signedIn, type: signedIn.type as 'administrator' | 'guest', account: signedIn };
    },
    accounts: {
      update: async (id, changes, expectedVersion) => {
        updates.push({ id, changes, expectedVersion });
        const target = account?.id === id ? account : guest.id === id ? guest : undefined;
        if (!target || target.sessionVersion !== expectedVersion) return { status: 'stale' };
        const { revokeTokens, ...fields } = changes;
        return {
          status: 'updated',
          account: { ...target, ...fields, sessionVersion: target.sessionVersion + (revokeTokens ? 1 : 0) },
        };
      },
    },
    tokenSecret: async () => secret,
    config: { TOKEN_TTL_HOURS: 24 },
    now: () => now,
    avatarFor: ({ mail }) => `https://avatar.example/${mail}`,
  };
  return { route: createUpdateProfile(dependencies), updates };
}

const put = (body: unknown, authorization = adminToken) => ({
  method: 'PUT',
  path: '/api/user',
  body,
  headers: { authorization },
});

interface Answer {
  errno: number;
  data: Record<string, unknown> & { token?: string };
  details?: Record<string, string>;
}

describe('createUpdateProfile', () => {
  it('answers 401 and changes nothing when no administrator is signed in', async () => {
    const { route, updates } = profileRoute();

    const anonymous = await routeAnswer(route, put({ display_name: 'Mallory' }, 'Bearer undefined'));
    const none = await routeAnswer(route, { method: 'PUT', path: '/api/user', body: { url: '' } });

    expect([anonymous.statusCode, none.statusCode]).toEqual([401, 401]);
    expect((anonymous.body as Answer).errno).toBe(401);
    expect(updates).toEqual([]);
  });

  it("changes the display name and link and answers the account in Waline's user shape, without a token", async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(
      route,
      put({ display_name: '  New Name ', url: 'https://me.example/about?x=1' }),
    );

    expect(updates).toEqual([
      {
        id: '01ADMIN',
        changes: { displayName: 'New Name', link: 'https://me.example/about?x=1' },
        expectedVersion: 4,
      },
    ]);
    expect(answer).toEqual({
      statusCode: 200,
      body: {
        errno: 0,
        errmsg: '',
        data: {
          objectId: '01ADMIN',
          display_name: 'New Name',
          email: 'admin@example.com',
          url: 'https://me.example/about?x=1',
          type: 'administrator',
          avatar: 'https://avatar.example/admin@example.com',
          label: null,
          totp: false,
        },
      },
    });
  });

  it('removes the link when url is empty, and leaves out what the body leaves out', async () => {
    const { route, updates } = profileRoute({ ...stored, link: 'https://old.example' });

    const answer = await routeAnswer(route, put({ url: '' }));

    expect(updates[0]?.changes).toEqual({ link: '' });
    expect((answer.body as Answer).data.url).toBe('');
  });

  it('hashes a new password, revokes the tokens issued before and answers a token of the new version', async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(route, put({ password: 'a brand new passphrase' }));

    const change = updates[0]?.changes;
    expect(change?.revokeTokens).toBe(true);
    expect(updates[0]?.expectedVersion).toBe(4);
    expect(await verifyPassword('a brand new passphrase', change?.passwordHash ?? '')).toBe(true);
    const data = (answer.body as Answer).data;
    expect(data.objectId).toBe('01ADMIN');
    expect(await checkToken(secret, data.token, now)).toEqual({
      ok: true,
      claims: { sub: '01ADMIN', ver: 5, exp: now / 1000 + 24 * 3600 },
    });
  });

  it("changes a guest's own profile, as any signed-in account's", async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(route, put({ display_name: 'Visitor' }, guestToken));

    expect(answer.statusCode).toBe(200);
    expect(updates).toEqual([{ id: '01GUEST', changes: { displayName: 'Visitor' }, expectedVersion: 0 }]);
    expect((answer.body as Answer).data).toMatchObject({ objectId: '01GUEST', type: 'guest' });
  });

  it('changes no password and answers no token when the password is empty, as Waline does', async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(route, put({ password: '', display_name: 'Admin' }));

    expect(updates[0]?.changes).toEqual({ displayName: 'Admin' });
    expect((answer.body as Answer).data).not.toHaveProperty('token');
  });

  it.each([
    ['display_name', 'blank', '   ', 'must not be blank'],
    ['display_name', 'of 101 characters', 'x'.repeat(101), '100'],
    ['display_name', 'with a tab', 'tab\there', 'control characters'],
    ['display_name', 'a number', 42, 'string'],
    ['url', 'javascript:', 'javascript:alert(1)', 'http(s)'],
    ['url', 'without a scheme', 'me.example', 'http(s)'],
    ['url', 'without a host', 'https://', 'http(s)'],
    ['url', 'of 1043 characters', `https://me.example/${'x'.repeat(1024)}`, '1024'],
    ['password', 'of 11 characters', 'eleven char', 'at least 12'],
    ['password', 'of 1025 characters', 'x'.repeat(1025), '1024'],
  ])('answers 400 naming %s, and changes nothing, when it is %s', async (field, _case, value, rule) => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(route, put({ [field]: value }));

    expect(answer.statusCode).toBe(400);
    expect(Object.keys((answer.body as Answer).details ?? {})).toEqual([field]);
    expect((answer.body as Answer).details?.[field]).toContain(rule);
    expect(updates).toEqual([]);
  });

  it("refuses another email address but accepts the account's own in any case", async () => {
    const { route, updates } = profileRoute();

    const other = await routeAnswer(route, put({ email: 'someone@example.com', display_name: 'X' }));
    const same = await routeAnswer(route, put({ email: 'Admin@Example.com', display_name: 'Same' }));

    expect(other.statusCode).toBe(400);
    expect((other.body as Answer).details).toEqual({ email: 'cannot be changed here' });
    expect(same.statusCode).toBe(200);
    expect(updates.map((update) => update.changes)).toEqual([{ displayName: 'Same' }]);
  });

  it("ignores the other keys Waline's admin page sends", async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(
      route,
      put({ display_name: 'Admin', label: 'boss', avatar: 'https://evil.example/a.png', type: 'guest' }),
    );

    expect(answer.statusCode).toBe(200);
    expect(updates[0]?.changes).toEqual({ displayName: 'Admin' });
    expect((answer.body as Answer).data).toMatchObject({ label: null, type: 'administrator' });
  });

  it('answers 401 when the account was removed or its tokens revoked since the token was checked', async () => {
    const removed = profileRoute(null);
    const replaced = profileRoute({ ...stored, sessionVersion: 5 });

    const answers = await Promise.all([
      routeAnswer(removed.route, put({ display_name: 'Ghost' })),
      routeAnswer(replaced.route, put({ password: 'a brand new passphrase' })),
    ]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401]);
    // Each asked for the change only on the account the token names.
    expect([...removed.updates, ...replaced.updates].map((update) => update.id)).toEqual([
      '01ADMIN',
      '01ADMIN',
    ]);
  });
});
