import { describe, expect, it } from 'vitest';
import { identityFromClaims } from '../../../../../functions/shared/domain/identity-claims.js';

const provider = 'oidc:https://issuer.example.test';

describe('identityFromClaims', () => {
  it('reads sub, name, picture, website and a verified address', () => {
    expect(
      identityFromClaims(provider, {
        sub: 'abc',
        name: ' Olive\u0007 ',
        preferred_username: 'olive',
        picture: 'https://img.example.test/o.png',
        website: 'https://olive.example.test',
        email: 'olive@example.test',
        email_verified: true,
      }),
    ).toEqual({
      provider,
      subject: 'abc',
      profile: {
        displayName: 'Olive',
        avatar: 'https://img.example.test/o.png',
        link: 'https://olive.example.test',
      },
      email: { address: 'olive@example.test', verified: true },
    });
  });

  it('counts an address as verified only for email_verified exactly true', () => {
    for (const flag of ['true', 1, undefined, false]) {
      expect(
        identityFromClaims(provider, { sub: 'a', email: 'a@example.test', email_verified: flag })?.email,
      ).toEqual({ address: 'a@example.test', verified: false });
    }
  });

  it('falls back to preferred_username, then a plain name; takes profile when website is not a web URL', () => {
    const identity = identityFromClaims(provider, {
      sub: 'a',
      preferred_username: 'pat',
      website: 'javascript:alert(1)',
      profile: 'https://profiles.example.test/pat',
      picture: 'data:image/png;base64,AAAA',
      email: 'not an address',
    });
    expect(identity).toEqual({
      provider,
      subject: 'a',
      profile: { displayName: 'pat', link: 'https://profiles.example.test/pat' },
    });
    expect(identityFromClaims(provider, { sub: 'a' })?.profile.displayName).toBe('Reader');
  });

  it('bounds the name and refuses a missing or overlong sub', () => {
    expect(
      identityFromClaims(provider, { sub: 'a', name: 'n'.repeat(500) })?.profile.displayName,
    ).toHaveLength(100);
    expect(identityFromClaims(provider, {})).toBeUndefined();
    expect(identityFromClaims(provider, { sub: 's'.repeat(256) })).toBeUndefined();
    expect(identityFromClaims(provider, { sub: 42 })).toBeUndefined();
  });
});
