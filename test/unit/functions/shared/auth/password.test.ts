import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../../../functions/shared/auth/password.js';

describe('hashPassword and verifyPassword', () => {
  it('verifies the password that was hashed and no other', async () => {
    const stored = await hashPassword('correct horse battery staple');

    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('horse');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
  });

  it('salts each hash so equal passwords hash differently', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('answers false for a malformed or absurdly expensive stored hash', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$x$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAA$AAAA')).toBe(false);
  });
});
