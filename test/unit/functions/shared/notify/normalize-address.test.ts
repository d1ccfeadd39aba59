import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../../../../../functions/shared/notify/normalize-address.js';

describe('normalizeAddress', () => {
  it('lower-cases and trims an address', () => {
    expect(normalizeAddress('  Ann@Example.COM ')).toBe('ann@example.com');
  });

  it('removes a +tag from the local part, at any domain', () => {
    expect(normalizeAddress('ann+news@example.com')).toBe('ann@example.com');
    expect(normalizeAddress('ann+a+b@example.com')).toBe('ann@example.com');
  });

  it('removes the dots of the local part at gmail.com and googlemail.com, with the tag', () => {
    expect(normalizeAddress('J.O.Doe+x@Gmail.com')).toBe('jodoe@gmail.com');
    expect(normalizeAddress('j.odoe@googlemail.com')).toBe('jodoe@googlemail.com');
  });

  it('keeps the dots of the local part at other domains, and of every domain', () => {
    expect(normalizeAddress('j.o.doe@example.com')).toBe('j.o.doe@example.com');
    expect(normalizeAddress('j.doe@mail.gmail.com.example')).toBe('j.doe@mail.gmail.com.example');
  });

  it('only trims and lower-cases a text without @', () => {
    expect(normalizeAddress(' A.B+C ')).toBe('a.b+c');
  });
});
