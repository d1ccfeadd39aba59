import { describe, expect, it, vi } from 'vitest';
import { signToken } from '../../../../../functions/shared/auth/token.js';
import {
  createCallerResolver,
  createViewerResolver,
  isAdministrator,
  requireAccount,
  requireAdmin,
  type ViewerDependencies,
} from '../../../../../functions/shared/auth/viewer.js';
import type { Account } from '../../../../../functions/shared/domain/account.js';
import type { SecretSource } from '../../../../../functions/shared/secrets/parameter-secret.js';
import { testAccount, testViewer } from '../../../../support/viewers.js';

const now = 1_800_000_000_000;
const oldKey = 'o'.repeat(32);
const newKey = 'n'.repeat(32);
const account: Account = testAccount({ id: '01ADMIN', email: 'admin@example.com', sessionVersion: 2 });
const tokenSignedWith = (key: string, exp = now / 1000 + 3600, ver = account.sessionVersion) =>
  signToken(key, { sub: account.id, ver, exp });
const requestWith = async (token: string | Promise<string>) => `Bearer ${await token}`;
const resolveViewer = (dependencies: ViewerDependencies, authorization: string) =>
  createViewerResolver(dependencies)(authorization);

/** A key source that holds `oldKey` until asked to refresh, then `newKey`: a key rotated meanwhile. */
function rotatedSource() {
  return vi.fn<SecretSource>(async (options) => (options?.refresh ? newKey : oldKey));
}

const services = (tokenSecret: SecretSource, stored: Account | null = account) => {
  const findById = vi.fn(async (id: string) => (id === stored?.id ? stored : undefined));
  return { tokenSecret, now: () => now, accounts: { findById }, findById };
};

describe('the viewer of a request', () => {
  it('reads the key again, and accepts the token, when it was signed with a key rotated since', async () => {
    const tokenSecret = rotatedSource();

    const viewer = await resolveViewer(services(tokenSecret), await requestWith(tokenSignedWith(newKey)));

    expect(viewer).toEqual({
      id: account.id,
      email: account.email,
      type: 'administrator',
      sessionVersion: 2,
      account,
    });
    expect(tokenSecret).toHaveBeenLastCalledWith({ refresh: true });
  });

  it('reads the key again only on a signature mismatch: not for an expired or a malformed token', async () => {
    const tokenSecret = rotatedSource();

    expect(
      await resolveViewer(services(tokenSecret), await requestWith(tokenSignedWith(oldKey, now / 1000 - 1))),
    ).toBe(undefined);
    expect(await resolveViewer(services(tokenSecret), await requestWith('not.a.token'))).toBeUndefined();
    expect(tokenSecret).not.toHaveBeenCalledWith({ refresh: true });
  });

  it('stays anonymous when the token matches neither the key read before nor the key read again', async () => {
    const tokenSecret = rotatedSource();

    expect(
      await resolveViewer(services(tokenSecret), await requestWith(tokenSignedWith('x'.repeat(32)))),
    ).toBe(undefined);
    expect(tokenSecret).toHaveBeenCalledWith({ refresh: true });
  });

  it('refuses a well-signed token whose account was removed', async () => {
    expect(
      await resolveViewer(services(rotatedSource(), null), await requestWith(tokenSignedWith(oldKey))),
    ).toBeUndefined();
  });

  it('reads nothing for no token, the widget literal "undefined", or no key', async () => {
    const none = services(rotatedSource());
    const keyless = services(async () => undefined);

    expect(await createCallerResolver(none)(undefined)).toEqual({ kind: 'anonymous' });
    expect(await createCallerResolver(none)('Bearer undefined')).toEqual({ kind: 'anonymous' });
    expect(await createCallerResolver(keyless)(await requestWith(tokenSignedWith(oldKey)))).toEqual({
      kind: 'anonymous',
    });
    expect(none.findById).not.toHaveBeenCalled();
    expect(keyless.findById).not.toHaveBeenCalled();
  });
});

describe('the caller of a request', () => {
  const callerOf = async (stored: Account, ver = stored.sessionVersion) => {
    const dependencies = services(async () => oldKey, stored);
    const caller = await createCallerResolver(dependencies)(
      await requestWith(signToken(oldKey, { sub: stored.id, ver, exp: now / 1000 + 60 })),
    );
    return { caller, reads: dependencies.findById.mock.calls };
  };

  it('is the account when its token carries its session version, with one read of the account', async () => {
    const guest = { ...account, type: 'guest' as const };
    const { caller, reads } = await callerOf(guest);

    expect(caller).toEqual({
      kind: 'account',
      viewer: { id: guest.id, email: guest.email, type: 'guest', sessionVersion: 2, account: guest },
    });
    expect(reads).toEqual([[guest.id]]);
  });

  it('is anonymous when the token is of another session version (revoked), older or newer', async () => {
    expect((await callerOf(account, 1)).caller).toEqual({ kind: 'anonymous' });
    expect((await callerOf(account, 3)).caller).toEqual({ kind: 'anonymous' });
  });

  it('is banned for a banned account, even with a token revoked by the ban', async () => {
    const banned = { ...account, type: 'banned' as const, sessionVersion: 3 };

    expect((await callerOf(banned)).caller).toEqual({ kind: 'banned' });
    expect((await callerOf(banned, 2)).caller).toEqual({ kind: 'banned' });
  });

  it('is anonymous for an account not yet confirmed or approved', async () => {
    expect((await callerOf({ ...account, state: 'unconfirmed' })).caller).toEqual({ kind: 'anonymous' });
    expect((await callerOf({ ...account, state: 'awaiting-approval' })).caller).toEqual({
      kind: 'anonymous',
    });
  });

  it('accepts a token issued before accounts (an email, no version) for an account of version 0', async () => {
    const migrated = { ...account, sessionVersion: 0 };
    const dependencies = services(async () => oldKey, migrated);
    const legacy = await signToken(oldKey, { sub: migrated.id, email: migrated.email, exp: now / 1000 + 60 });

    expect(await createCallerResolver(dependencies)(`Bearer ${legacy}`)).toMatchObject({ kind: 'account' });
    expect(await createCallerResolver(services(async () => oldKey, account))(`Bearer ${legacy}`)).toEqual({
      kind: 'anonymous',
    });
  });
});

describe('isAdministrator, requireAdmin and requireAccount', () => {
  const admin = testViewer('01A', 'a@example.com');
  const guest = testViewer('01G', 'g@example.com', 'guest');
  const resolving = (viewer: typeof admin | undefined) => async () => viewer;

  it('tells an administrator from a guest and from nobody', () => {
    expect([admin, guest, undefined].map(isAdministrator)).toEqual([true, false, false]);
  });

  it('requireAdmin answers the administrator, and 401 for a guest or nobody', async () => {
    expect(await requireAdmin(resolving(admin), 'x', 'en')).toBe(admin);
    await expect(requireAdmin(resolving(guest), 'x', 'en')).rejects.toMatchObject({ status: 401 });
    await expect(requireAdmin(resolving(undefined), 'x', 'en')).rejects.toMatchObject({ status: 401 });
  });

  it('requireAccount answers any account that may act, and 401 for nobody', async () => {
    expect(await requireAccount(resolving(guest), 'x', 'en')).toBe(guest);
    expect(await requireAccount(resolving(admin), 'x', 'en')).toBe(admin);
    await expect(requireAccount(resolving(undefined), 'x', 'en')).rejects.toMatchObject({
      status: 401,
      message: 'Sign in to do this.',
    });
  });
});
