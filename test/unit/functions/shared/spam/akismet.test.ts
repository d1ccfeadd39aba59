import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAkismetCheck, type SpamCheckInput } from '../../../../../functions/shared/spam/akismet.js';

const input: SpamCheckInput = {
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0',
  url: '/posts/hello',
  nick: 'viagra-test-123',
  mail: 'spam@example.com',
  link: '',
  text: 'buy now',
};

describe('createAkismetCheck', () => {
  let server: Server;
  let endpoint: string;
  let answer: { status: number; body: string; delayMs: number };
  let received: URLSearchParams | undefined;

  beforeAll(async () => {
    // A stand-in for Akismet on loopback: the check never leaves the machine in tests.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received = new URLSearchParams(body);
        setTimeout(() => response.writeHead(answer.status).end(answer.body), answer.delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/1.1/comment-check`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // A generous limit where the answer matters (a loaded machine must not turn spam into unknown), and a
  // short one only where the test is the timeout.
  const checkWithin = (timeoutMs: number) =>
    createAkismetCheck({ key: 'k', siteUrl: 'https://blog.example', endpoint, timeoutMs })(input);
  const check = () => checkWithin(10_000);

  it('reports spam when Akismet answers true, with the comment and its permalink', async () => {
    answer = { status: 200, body: 'true', delayMs: 0 };

    expect(await check()).toBe('spam');
    expect(Object.fromEntries(received ?? [])).toMatchObject({
      blog: 'https://blog.example',
      permalink: 'https://blog.example/posts/hello',
      user_ip: '203.0.113.9',
      comment_content: 'buy now',
      comment_type: 'comment',
    });
  });

  it('reports ham when Akismet answers false', async () => {
    answer = { status: 200, body: 'false', delayMs: 0 };
    expect(await check()).toBe('ham');
  });

  it('reports unknown instead of throwing when Akismet fails, times out or answers oddly', async () => {
    answer = { status: 500, body: 'true', delayMs: 0 };
    expect(await check()).toBe('unknown');
    answer = { status: 200, body: 'invalid', delayMs: 0 };
    expect(await check()).toBe('unknown');
    answer = { status: 200, body: 'true', delayMs: 1000 };
    expect(await checkWithin(200)).toBe('unknown');
  });

  it('still asks, with the site as permalink, when the page path is no valid URL path', async () => {
    answer = { status: 200, body: 'false', delayMs: 0 };
    const odd = createAkismetCheck({
      key: 'k',
      siteUrl: 'https://blog.example',
      endpoint,
      timeoutMs: 10_000,
    });

    expect(await odd({ ...input, url: 'http://a b' })).toBe('ham');
    expect(received?.get('permalink')).toBe('https://blog.example');
  });
});
