import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashIp } from '../../../../../functions/shared/domain/hashing.js';
import { createAddressHasher } from '../../../../../functions/shared/notify/address-hash.js';
import { createCaptchaTokenHasher } from '../../../../../functions/shared/spam/captcha-token-hash.js';

const salt = 'test-salt-0123456789abcdef';

describe('createCaptchaTokenHasher', () => {
  it('gives one token one 43-character hash, and another token another', () => {
    const hash = createCaptchaTokenHasher(salt);

    expect(hash('token-a')).toBe(hash('token-a'));
    expect(hash('token-a')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash('token-b')).not.toBe(hash('token-a'));
  });

  it('is keyed by the salt under a label of its own: not the plain hash, an IP hash nor an address hash', () => {
    const hash = createCaptchaTokenHasher(salt)('token-a');

    expect(createCaptchaTokenHasher('another-salt-0123456789')('token-a')).not.toBe(hash);
    expect(hash).not.toBe(createHash('sha256').update('token-a').digest('base64url'));
    expect(hash.slice(0, 32)).not.toBe(hashIp(salt, 'token-a'));
    expect(hash).not.toBe(createAddressHasher(salt)('token-a'));
  });
});
