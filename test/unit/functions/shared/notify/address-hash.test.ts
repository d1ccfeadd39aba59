import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addressHashPattern,
  createAddressHasher,
  createFormerAddressHasher,
  keyUnkeyedHash,
  unkeyedAddressHash,
  unkeyedHashPattern,
} from '../../../../../functions/shared/notify/address-hash.js';

const salt = 'test-salt-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('address hashes', () => {
  it('give one address one hash, whatever its case and surrounding space', () => {
    const hash = createAddressHasher(salt);
    expect(hash(' Ann@Example.COM ')).toBe(hash('ann@example.com'));
    expect(hash('ann@example.com')).toMatch(addressHashPattern);
    expect(hash('bob@example.com')).not.toBe(hash('ann@example.com'));
  });

  it('give the +tag and Gmail dot spellings of one inbox one hash, other inboxes their own', () => {
    const hash = createAddressHasher(salt);
    expect(hash('victim+1@example.com')).toBe(hash('victim@example.com'));
    expect(hash('V.ictim+2@gmail.com')).toBe(hash('victim@gmail.com'));
    expect(hash('vic.tim@googlemail.com')).toBe(hash('victim@googlemail.com'));
    expect(hash('v.ictim@example.com')).not.toBe(hash('victim@example.com'));
  });

  it('keep the former hash for an address normalisation leaves as it is, and only then', () => {
    const hash = createAddressHasher(salt);
    const former = createFormerAddressHasher(salt);
    expect(hash(' Ann@Example.com')).toBe(former('ann@example.com'));
    expect(former('ann+x@example.com')).not.toBe(hash('ann+x@example.com'));
    expect(former('ann+x@example.com')).toBe(keyUnkeyedHash(salt, sha256('ann+x@example.com')));
  });

  it('depend on the key: another salt gives another hash', () => {
    expect(createAddressHasher('another-salt-0123456789')('ann@example.com')).not.toBe(
      createAddressHasher(salt)('ann@example.com'),
    );
  });

  it('are not the plain SHA-256 of the address, nor derivable from the address alone', () => {
    const hash = createAddressHasher(salt)('ann@example.com');
    expect(hash).not.toBe(sha256('ann@example.com'));
    expect(Buffer.from(hash, 'base64url').toString('hex')).not.toBe(sha256('ann@example.com'));
    expect(unkeyedAddressHash('ann@example.com')).toBe(sha256('ann@example.com'));
    // Trimmed and lower-cased first, as suppressions were keyed before.
    expect(unkeyedAddressHash(' Ann@Example.com ')).toBe(sha256('ann@example.com'));
  });

  it('can be made from the unkeyed hash alone, as the migration of suppressions does', () => {
    expect(keyUnkeyedHash(salt, sha256('ann@example.com'))).toBe(
      createAddressHasher(salt)('Ann@example.com'),
    );
  });

  it('are the HMAC-SHA256 of the unkeyed hash under the key derived from the salt with its label', () => {
    // Computed once, by hand: HMAC(HMAC(salt, 'marginalia address hash v1'), SHA-256 hex of the address),
    // base64url. A stored suppression is found again only while this stays the same.
    const expected = 'zIx7hJx2dGw-HQDbhdjxPAQBMcsH4eVxJKLUoVMBCwU';
    expect(createAddressHasher(salt)(' Ann@Example.COM ')).toBe(expected);
    expect(keyUnkeyedHash(salt, sha256('ann@example.com'))).toBe(expected);
  });

  it('tell an unkeyed hash only by its whole form: 64 hex digits, nothing before or after', () => {
    const unkeyed = sha256('ann@example.com');
    expect(unkeyedHashPattern.test(unkeyed)).toBe(true);
    expect(unkeyedHashPattern.test(`x${unkeyed}`)).toBe(false);
    expect(unkeyedHashPattern.test(`${unkeyed}x`)).toBe(false);
    expect(unkeyedHashPattern.test(unkeyed.toUpperCase())).toBe(false);
    expect(unkeyedHashPattern.test(unkeyed.slice(1))).toBe(false);
  });
});
