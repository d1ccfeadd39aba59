import { describe, expect, it } from 'vitest';
import { relyingPartyOf } from '../../../../functions/comment/passkeys.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';

const lang = 'en' as const;

describe('relyingPartyOf', () => {
  it('takes the host the request reached as the RP ID, its https origin, and http only on localhost', () => {
    expect(relyingPartyOf({ host: 'Comments.Example.com', lang })).toEqual({
      id: 'comments.example.com',
      origins: ['https://comments.example.com'],
    });
    expect(relyingPartyOf({ host: 'localhost:8360', lang })).toEqual({
      id: 'localhost',
      origins: ['https://localhost:8360', 'http://localhost:8360'],
    });
  });

  it('takes PASSKEY_RP_ID for a host under it, and refuses a host outside it', () => {
    expect(relyingPartyOf({ host: 'comments.example.com', lang }, 'example.com')).toEqual({
      id: 'example.com',
      origins: ['https://comments.example.com'],
    });
    expect(relyingPartyOf({ host: 'example.com', lang }, 'example.com').id).toBe('example.com');
    for (const host of [
      'evil-example.com',
      'example.com.evil.net',
      'abc.execute-api.eu-west-1.amazonaws.com',
    ]) {
      expect(() => relyingPartyOf({ host, lang }, 'example.com'), host).toThrow(AppError);
    }
  });

  it('refuses a server reached by an IP address, or with no Host, with a 403 that says why', () => {
    for (const host of ['127.0.0.1:8360', '[::1]:8360', undefined]) {
      expect(() => relyingPartyOf({ host, lang }), String(host)).toThrow(/Passkeys work only where/);
    }
  });
});
