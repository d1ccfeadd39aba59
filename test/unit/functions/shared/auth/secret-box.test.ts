import { describe, expect, it } from 'vitest';
import { deriveKey, openSecret, sealSecret } from '../../../../../functions/shared/auth/secret-box.js';

describe('deriveKey', () => {
  it('derives a 32-byte key per purpose, never the root key itself', () => {
    const secret = deriveKey('token key', 'totp-secret');

    expect(secret).toHaveLength(32);
    expect(deriveKey('token key', 'totp-secret')).toEqual(secret);
    expect(deriveKey('token key', 'recovery-code')).not.toEqual(secret);
    expect(deriveKey('another key', 'totp-secret')).not.toEqual(secret);
    expect(secret.toString('utf8')).not.toContain('token key');
  });
});

describe('sealSecret and openSecret', () => {
  const key = deriveKey('token key', 'totp-secret');

  it('opens what it sealed for the same account, and the sealed text does not hold the secret', () => {
    const sealed = sealSecret(key, 'A1', 'JBSWY3DPEHPK3PXP');

    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealSecret(key, 'A1', 'JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(openSecret(key, 'A1', sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('opens nothing sealed for another account, under another key, altered, or malformed', () => {
    const sealed = sealSecret(key, 'A1', 'JBSWY3DPEHPK3PXP');
    const [scheme, iv, body] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;

    expect(openSecret(key, 'A2', sealed)).toBeUndefined();
    expect(openSecret(deriveKey('rotated key', 'totp-secret'), 'A1', sealed)).toBeUndefined();
    expect(openSecret(key, 'A1', [scheme, iv, flipped.toString('base64url')].join('.'))).toBeUndefined();
    expect(openSecret(key, 'A1', `v2.${iv}.${body}`)).toBeUndefined();
    expect(openSecret(key, 'A1', `${sealed}.x`)).toBeUndefined();
    expect(openSecret(key, 'A1', `v1.${iv}.AAAA`)).toBeUndefined();
    expect(openSecret(key, 'A1', 'JBSWY3DPEHPK3PXP')).toBeUndefined();
  });
});
