import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../functions/shared/auth/password.js';
import { createLocalApi } from '../../support/local-services.js';
import { createTestTable, type TestTable } from '../../support/test-table.js';

const password = 'a long enough password';
const minute = 60_000;

describe('sign-in limits on DynamoDB Local', () => {
  let table: TestTable;
  let api: ReturnType<typeof createLocalApi>;
  let time = 1_800_000_000_000;
  let ip = 0;
  /** One sign-in attempt, from a new address unless `sourceIp` is given. */
  const attempt = (email: string, guess: string, sourceIp = `198.18.${Math.floor(++ip / 250)}.${ip % 250}`) =>
    api.call({ method: 'POST', path: '/api/token', body: { email, password: guess }, sourceIp });
  const statuses = async (count: number, email: string, guess = 'wrong guess') => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await attempt(email, guess)).status);
    return seen;
  };
  const addAdmin = async (email: string) =>
    api.services.accounts.create({
      type: 'administrator',
      state: 'active',
      sessionVersion: 0,
      id: `01${email.split('@')[0]?.toUpperCase()}`,
      email,
      displayName: email,
      passwordHash: await hashPassword(password),
      createdAt: 0,
    });

  beforeAll(async () => {
    table = await createTestTable();
    api = createLocalApi(table, { JWT_TOKEN: 'j'.repeat(40) }, { now: () => time });
  });
  beforeEach(() => {
    // Each test starts far from the others: no window or lock of an earlier test applies.
    time += 30 * 24 * 60 * minute;
  });
  afterAll(() => table.drop());

  it('locks an account after five attempts from as many addresses, for a delay that grows', async () => {
    await addAdmin('owner@example.com');

    expect(await statuses(6, 'owner@example.com')).toEqual([401, 401, 401, 401, 401, 429]);
    // Locked 30 s by the fifth attempt, even for the right password.
    expect((await attempt('owner@example.com', password)).status).toBe(429);
    time += 30_000;
    expect(await statuses(2, 'owner@example.com')).toEqual([401, 429]);
    time += 59_000;
    expect((await attempt('owner@example.com', 'wrong guess')).body.errmsg).toBe(
      'Too many sign-in attempts; try again in 1 minutes.',
    );
    time += 1000;
    expect((await attempt('owner@example.com', password)).status).toBe(200);
    // A success clears the failures: five free attempts again.
    expect(await statuses(6, 'owner@example.com')).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('limits unknown addresses alike, so the answers do not tell who is an administrator', async () => {
    expect(await statuses(6, 'nobody@example.com')).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('never locks for longer than 15 minutes, and attempts during a lock do not extend it', async () => {
    await addAdmin('capped@example.com');
    for (let i = 0; i < 12; i++) {
      await attempt('capped@example.com', 'wrong guess');
      time += 16 * minute;
    }
    await attempt('capped@example.com', 'wrong guess');
    for (let i = 0; i < 14; i++) {
      time += minute;
      expect((await attempt('capped@example.com', password)).status).toBe(429);
    }

    time += minute;
    expect((await attempt('capped@example.com', password)).status).toBe(200);
  });

  it('lets the administrator in from a network they signed in from while others keep the account locked', async () => {
    await addAdmin('home@example.com');
    const home = '2001:db8:1:2::10';
    expect((await attempt('home@example.com', password, home)).status).toBe(200);

    expect(await statuses(6, 'home@example.com')).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await attempt('home@example.com', password, '2001:db8:1:3::10')).status).toBe(429);
    // Another address of the same /64 (IPv6 privacy addresses rotate within it).
    expect((await attempt('home@example.com', password, '2001:db8:1:2:abcd::99')).status).toBe(200);
  });

  it('counts one IPv6 /64 as one address for the per-IP limit', async () => {
    const seen: number[] = [];
    for (let i = 1; i <= 11; i++) {
      // A new email each time: only the per-IP limit is at work.
      seen.push(
        (await attempt(`guess${i}@example.com`, 'wrong guess', `2001:db8:9:9::${i.toString(16)}`)).status,
      );
    }

    expect(seen).toEqual([...Array(10).fill(401), 429]);
  });

  it('lets at most five of a burst of concurrent attempts check a password', async () => {
    await addAdmin('burst@example.com');

    const burst = await Promise.all(
      Array.from({ length: 12 }, () => attempt('burst@example.com', 'wrong guess')),
    );
    const checked = burst.filter((answer) => answer.status === 401).length;

    expect(checked).toBeLessThanOrEqual(5);
    expect(burst.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
  });
});
