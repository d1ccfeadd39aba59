import { describe, expect, it } from 'vitest';
import { createUpdateProfile } from '../../../../functions/comment/update-profile.js';
import { verifyPassword } from '../../../../functions/shared/auth/password.js';
import { checkToken } from '../../../../functions/shared/auth/token.js';
import type { AccountChanges, AdminAccount } from '../../../../functions/shared/table/admin-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';

type ProfileDependencies = Parameters<typeof createUpdateProfile>[0];

const adminToken = 'Bearer admin-token';
const secret = 's'.repeat(32);
const now = 1_800_000_000_000;
const stored: AdminAccount = {
  id: '01ADMIN',
  email: 'admin@example.com',
  displayName: 'Admin',
  passwordHash: 'scrypt$old',
  createdAt: 0,
};

/**
 * The route over fakes of exactly its dependencies: the viewer knows one token; `update` changes a copy of
 * `stored` when the id matches, as the conditional write does, and records what it was asked.
 */
function profileRoute(account: AdminAccount | null = stored) {
  const updates: Array<{ email: string; id: string; changes: AccountChanges }> = [];
  const dependencies: ProfileDependencies = {
    viewer: async (authorization) =>
      authorization === adminToken ? { id: stored.id, email: stored.email } : undefined,
    admins: {
      update: async (email, id, changes) => {
        updates.push({ email, id, changes });
        if (account === null || account.id !== id) return undefined;
        const { password, ...fields } = changes;
        return {
          ...account,
          ...fields,
          ...(password ? { id: password.id, passwordHash: password.passwordHash } : {}),
        };
      },
    },
    tokenSecret: async () => secret,
    config: { TOKEN_TTL_HOURS: 24 },
    now: () => now,
    newId: (time) => `01NEW${time}`,
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
        email: 'admin@example.com',
        id: '01ADMIN',
        changes: { displayName: 'New Name', link: 'https://me.example/about?x=1' },
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

  it('hashes a new password, gives the account a new id and answers a token naming it', async () => {
    const { route, updates } = profileRoute();

    const answer = await routeAnswer(route, put({ password: 'a brand new passphrase' }));

    const change = updates[0]?.changes.password;
    expect(change?.id).toBe(`01NEW${now}`);
    expect(await verifyPassword('a brand new passphrase', change?.passwordHash ?? '')).toBe(true);
    const data = (answer.body as Answer).data;
    expect(data.objectId).toBe(`01NEW${now}`);
    expect(await checkToken(secret, data.token, now)).toEqual({
      ok: true,
      claims: { sub: `01NEW${now}`, email: 'admin@example.com', exp: now / 1000 + 24 * 3600 },
    });
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

  it("refuses another email address (accounts are keyed by it) but accepts the account's own in any case", async () => {
    const { route, updates } = profileRoute();

    const other = await routeAnswer(route, put({ email: 'someone@example.com', display_name: 'X' }));
    const same = await routeAnswer(route, put({ email: 'Admin@Example.com', display_name: 'Same' }));

    expect(other.statusCode).toBe(400);
    expect((other.body as Answer).details).toEqual({ email: expect.stringContaining('npm run admin') });
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

  it('answers 401 when the account was removed or given a new password since the token was checked', async () => {
    const removed = profileRoute(null);
    const replaced = profileRoute({ ...stored, id: '01REPLACED' });

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
