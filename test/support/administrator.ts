import { hashPassword } from '../../functions/shared/auth/password.js';
import type { Services } from '../../functions/shared/services.js';

/** The administrator the integration tests sign in as. */
export const testAdministrator = {
  id: '01ADMIN',
  email: 'admin@example.com',
  password: 'a long enough password',
} as const;

/** Saves the test administrator into the table `services` writes to. */
export async function saveTestAdministrator(services: Pick<Services, 'admins'>): Promise<void> {
  await services.admins.save({
    id: testAdministrator.id,
    email: testAdministrator.email,
    displayName: 'Admin',
    passwordHash: await hashPassword(testAdministrator.password),
    createdAt: 0,
  });
}
