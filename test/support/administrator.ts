import { hashPassword } from '../../functions/shared/auth/password.js';
import type { CommentDependencies } from '../../functions/comment/dependencies.js';

/** The administrator the integration tests sign in as. */
export const testAdministrator = {
  id: '01ADMIN',
  email: 'admin@example.com',
  password: 'a long enough password',
} as const;

/** Saves the test administrator into the table `services` writes to. */
export async function saveTestAdministrator(services: Pick<CommentDependencies, 'admins'>): Promise<void> {
  await services.admins.save({
    id: testAdministrator.id,
    email: testAdministrator.email,
    displayName: 'Admin',
    passwordHash: await hashPassword(testAdministrator.password),
    createdAt: 0,
  });
}

/**
 * Saves the test administrator and signs it in through `POST /api/token`, as the widget does; returns the
 * `Authorization` header value its requests carry.
 */
export async function signInTestAdministrator(api: {
  readonly services: Pick<CommentDependencies, 'admins'>;
  call(spec: { method: string; path: string; body: unknown }): Promise<{ body: { data: { token: string } } }>;
}): Promise<string> {
  await saveTestAdministrator(api.services);
  const signIn = await api.call({
    method: 'POST',
    path: '/api/token',
    body: { email: testAdministrator.email, password: testAdministrator.password },
  });
  return `Bearer ${signIn.body.data.token}`;
}
