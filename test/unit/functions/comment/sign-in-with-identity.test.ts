import { describe, expect, it } from 'vitest';
import type { Account } from '../../../../functions/shared/domain/account.js';
import { createAccountOfIdentity } from '../../../../functions/comment/sign-in-with-identity.js';
import { createIssueSession } from '../../../../functions/comment/issue-session.js';
import { verifyToken } from '../../../../functions/shared/auth/token.js';
import { createFakeAccountRepository } from '../../../support/fake-account-repository.js';

const time = 1_800_000_000_000;
const identity = {
  provider: 'oidc:https://issuer.example',
  subject: '248289761001',
  profile: { displayName: 'Jane', avatar: 'https://issuer.example/jane.png' },
  email: { address: 'jane@example.com', verified: true },
};

function setUp(registration: 'open' | 'approval' | 'closed' = 'closed', existing: Account[] = []) {
  const accounts = createFakeAccountRepository(existing);
  const confirmed: string[] = [];
  let serial = 0;
  const accountOf = createAccountOfIdentity({
    accounts,
    confirmations: { confirm: async (hash) => void confirmed.push(hash) },
    hashAddress: (address) => `hash:${address}`,
    config: { REGISTRATION: registration },
    now: () => time,
    newId: () => `01K00000000000000000000${++serial}`,
  });
  return { accounts, confirmed, accountOf };
}

describe('the account of an external identity', () => {
  it('is made at the first sign-in as an active guest with no password, and found by (provider, subject) after', async () => {
    const { accounts, confirmed, accountOf } = setUp();

    const made = await accountOf(identity);
    expect(made).toMatchObject({
      email: 'jane@example.com',
      emailVerified: true,
      displayName: 'Jane',
      avatar: 'https://issuer.example/jane.png',
      type: 'guest',
      state: 'active',
      passwordHash: '',
      identity: { provider: identity.provider, subject: identity.subject },
    });
    // The verified address takes reply mail without a confirmation mail.
    expect(confirmed).toEqual(['hash:jane@example.com']);
    // The second sign-in finds it, whatever the provider now says of the profile.
    expect(await accountOf({ ...identity, profile: { displayName: 'Other' } })).toEqual(made);
    expect(accounts.byId.size).toBe(1);
  });

  it('never takes the password account of the same address, and confirms nothing for an unverified one', async () => {
    const holder: Account = {
      id: 'password-account',
      email: 'jane@example.com',
      displayName: 'Jane P',
      type: 'administrator',
      state: 'active',
      passwordHash: 'scrypt$x',
      sessionVersion: 0,
      createdAt: 1,
    };
    const { confirmed, accountOf } = setUp('closed', [holder]);

    const made = await accountOf({ ...identity, email: { address: 'Jane@Example.com', verified: false } });
    expect(made.id).not.toBe(holder.id);
    expect(made).toMatchObject({ type: 'guest', emailVerified: false });
    expect(confirmed).toEqual([]);
  });

  it('waits for an administrator under REGISTRATION=approval, and the session refuses it until then', async () => {
    const { accountOf } = setUp('approval');
    const made = await accountOf(identity);
    expect(made.state).toBe('awaiting-approval');

    const issue = createIssueSession({
      tokenSecret: async () => 'k'.repeat(32),
      config: { TOKEN_TTL_HOURS: 1 },
      now: () => time,
      avatarFor: () => 'computed',
    });
    await expect(issue(made, 'en')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(issue({ ...made, state: 'active', type: 'banned' }, 'en')).rejects.toMatchObject({
      code: 'forbidden',
    });
    const user = await issue({ ...made, state: 'active' }, 'en');
    expect(user).toMatchObject({ objectId: made.id, type: 'guest', avatar: made.avatar });
    expect(await verifyToken('k'.repeat(32), user.token, time)).toMatchObject({ sub: made.id, ver: 0 });
  });
});
