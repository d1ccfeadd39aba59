import { describe, expect, it, vi } from 'vitest';
import { signToken } from '../../../../../functions/shared/auth/token.js';
import {
  createViewerResolver,
  type ViewerDependencies,
} from '../../../../../functions/shared/auth/viewer.js';
import type { AdminAccount } from '../../../../../functions/shared/table/admin-repository.js';
import type { SecretSource } from '../../../../../functions/shared/secrets/parameter-secret.js';

const now = 1_800_000_000_000;
const oldKey = 'o'.repeat(32);
const newKey = 'n'.repeat(32);
const account: AdminAccount = {
  id: '01ADMIN',
  email: 'admin@example.com',
  displayName: 'Admin',
  passwordHash: 'scrypt$unused',
  createdAt: 0,
};
const tokenSignedWith = (key: string, exp = now / 1000 + 3600) =>
  signToken(key, { sub: account.id, email: account.email, exp });
const requestWith = async (token: string | Promise<string>) => `Bearer ${await token}`;
const resolveViewer = (dependencies: ViewerDependencies, authorization: string) =>
  createViewerResolver(dependencies)(authorization);

/** A key source that holds `oldKey` until asked to refresh, then `newKey`: a key rotated meanwhile. */
function rotatedSource() {
  return vi.fn<SecretSource>(async (options) => (options?.refresh ? newKey : oldKey));
}

describe('the viewer of a request', () => {
  const services = (tokenSecret: SecretSource, find = async () => account as AdminAccount | undefined) => ({
    tokenSecret,
    now: () => now,
    admins: { find: vi.fn(find) } as never,
  });

  it('reads the key again, and accepts the token, when it was signed with a key rotated since', async () => {
    const tokenSecret = rotatedSource();

    const viewer = await resolveViewer(services(tokenSecret), await requestWith(tokenSignedWith(newKey)));

    expect(viewer).toEqual({ id: account.id, email: account.email });
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

  it('refuses a well-signed token whose administrator was removed', async () => {
    const tokenSecret = rotatedSource();

    expect(
      await resolveViewer(
        services(tokenSecret, async () => undefined),
        await requestWith(tokenSignedWith(oldKey)),
      ),
    ).toBeUndefined();
  });
});
