import { hashPassword } from '../../functions/shared/auth/password.js';
import type { CommentDependencies } from '../../functions/comment/dependencies.js';
import type { Account, AccountState, AccountType } from '../../functions/shared/domain/account.js';

/** The administrator the integration tests sign in as. */
export const testAdministrator = {
  id: '01ADMIN',
  email: 'admin@example.com',
  password: 'a long enough password',
} as const;

/** What a test account may be given; everything else has a default (a guest, active, version 0). */
export interface TestAccountSpec {
  readonly type: AccountType;
  readonly id?: string;
  readonly email?: string;
  readonly password?: string;
  readonly displayName?: string;
  readonly state?: AccountState;
  readonly sessionVersion?: number;
  readonly extra?: Partial<Account>;
}

/** The password of the test accounts `saveTestAccount` makes without one. */
export const testAccountPassword = 'another long enough password';

/**
 * Saves an account into the table `services` writes to (`saveTestAccount(services, {type: 'guest'})`) and
 * returns it with its password.
 */
export async function saveTestAccount(
  services: Pick<CommentDependencies, 'accounts'>,
  spec: TestAccountSpec,
): Promise<Account & { password: string }> {
  const password = spec.password ?? testAccountPassword;
  const account: Account = {
    id:
      spec.id ??
      `01${spec.type.toUpperCase().slice(0, 5)}${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    email: spec.email ?? `${spec.type}-${Math.random().toString(36).slice(2, 10)}@example.com`,
    displayName: spec.displayName ?? (spec.type === 'administrator' ? 'Admin' : 'Guest'),
    type: spec.type,
    state: spec.state ?? 'active',
    passwordHash: await hashPassword(password),
    sessionVersion: spec.sessionVersion ?? 0,
    createdAt: 0,
    ...spec.extra,
  };
  const created = await services.accounts.create(account);
  if (created !== 'created') throw new Error(`test account ${account.email} exists already`);
  return { ...account, password };
}

/** Saves the test administrator into the table `services` writes to. */
export async function saveTestAdministrator(services: Pick<CommentDependencies, 'accounts'>): Promise<void> {
  await saveTestAccount(services, {
    type: 'administrator',
    id: testAdministrator.id,
    email: testAdministrator.email,
    password: testAdministrator.password,
  });
}

/** What signing in through the API takes: the services (to store the account) and a caller of the API. */
export interface SignInApi {
  readonly services: Pick<CommentDependencies, 'accounts'>;
  call(spec: { method: string; path: string; body: unknown }): Promise<{ body: { data: { token: string } } }>;
}

/** Signs `email` in through `POST /api/token`, as the widget does; returns the `Authorization` header value. */
async function signIn(api: SignInApi, email: string, password: string): Promise<string> {
  const answer = await api.call({ method: 'POST', path: '/api/token', body: { email, password } });
  return `Bearer ${answer.body.data.token}`;
}

/**
 * Saves the test administrator and signs it in through `POST /api/token`, as the widget does; returns the
 * `Authorization` header value its requests carry.
 */
export async function signInTestAdministrator(api: SignInApi): Promise<string> {
  await saveTestAdministrator(api.services);
  return signIn(api, testAdministrator.email, testAdministrator.password);
}

/**
 * Saves an account of `spec` (active: it can sign in) and signs it in through `POST /api/token`; returns the
 * account and the `Authorization` header value its requests carry.
 */
export async function signInTestAccount(
  api: SignInApi,
  spec: TestAccountSpec,
): Promise<{ account: Account & { password: string }; authorization: string }> {
  const account = await saveTestAccount(api.services, spec);
  return { account, authorization: await signIn(api, account.email, account.password) };
}
