import { describe, expect, it, vi } from 'vitest';
import type { SpamCheckInput } from '../../../../../functions/shared/spam/akismet.js';
import { createAkismetCheckWithKeySource } from '../../../../../functions/shared/spam/akismet-with-key-source.js';

const input: SpamCheckInput = {
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0',
  url: '/posts/hello',
  nick: 'n',
  mail: 'm@example.com',
  link: '',
  text: 'buy now',
};

/** A fetch that records the URLs it is asked for and answers Akismet's `true` (spam). */
function akismetSaysSpam() {
  return vi.fn<typeof fetch>(async () => new Response('true', { status: 200 }));
}

describe('createAkismetCheckWithKeySource', () => {
  it('asks Akismet with the key the source gives, and again with a new key after a rotation', async () => {
    const fetch = akismetSaysSpam();
    let key = 'firstkey';
    const check = createAkismetCheckWithKeySource(async () => key, {
      siteUrl: 'https://blog.example',
      fetch,
    });

    expect(await check(input)).toBe('spam');
    key = 'secondkey';
    expect(await check(input)).toBe('spam');
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual([
      'https://firstkey.rest.akismet.com/1.1/comment-check',
      'https://secondkey.rest.akismet.com/1.1/comment-check',
    ]);
  });

  it('lets comments through without asking anyone when there is no key, as with Akismet off', async () => {
    const fetch = akismetSaysSpam();
    const check = createAkismetCheckWithKeySource(async () => undefined, {
      siteUrl: 'https://blog.example',
      fetch,
    });

    expect(await check(input)).toBe('ham');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('answers unknown, so that the comment waits for moderation, when the key cannot be read', async () => {
    const fetch = akismetSaysSpam();
    const check = createAkismetCheckWithKeySource(
      async () => {
        throw new Error('the secrets extension answered 500');
      },
      { siteUrl: 'https://blog.example', fetch },
    );

    expect(await check(input)).toBe('unknown');
    expect(fetch).not.toHaveBeenCalled();
  });
});
