/**
 * `npm run screenshot`: the README's picture of the demo page (docs/demo.png). Starts an in-memory DynamoDB
 * Local and the local server on a free port, seeds a small conversation through the API, and photographs the
 * page with the same headless Chromium the browser tests use.
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpHandler } from '../functions/shared/http/http-types.js';
import type { FunctionName } from '../functions/api-routes.js';
import { launchChromium } from './chromium.js';
import { createLocalDynamoDbClient, ensureTable } from './create-table.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { createLocalServer } from './local-server.js';
import { sendJsonFrom } from './send-json.js';

const output = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'demo.png');
const article = '/posts/notes-in-the-margin';
const minute = 60_000;
const hour = 60 * minute;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
const { loadConfig } = await import('../functions/shared/config.js');
const { createLocalFunctions } = await import('./local-functions.js');

const dynamoDb = await startDynamoDbLocal({});
const built: { handlers?: Record<FunctionName, HttpHandler> } = {};
const server: Server = createLocalServer({
  comment: (event, context) => handlerOf('comment')(event, context),
  article: (event, context) => handlerOf('article')(event, context),
});
function handlerOf(name: FunctionName): HttpHandler {
  if (!built.handlers) throw new Error('the handlers are not built yet');
  return built.handlers[name];
}
try {
  const client = createLocalDynamoDbClient(dynamoDb.endpoint);
  await ensureTable(client, 'marginalia-demo');
  client.destroy();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  // The seeded comments get times spread over two days, from a clock the script sets before each post.
  let seedTime: number | undefined;
  const { handlers } = createLocalFunctions(
    loadConfig({
      TABLE_NAME: 'marginalia-demo',
      DYNAMODB_ENDPOINT: dynamoDb.endpoint,
      IP_HASH_SALT: 'screenshot-salt-0123456789',
      IPQPS: '0',
      GRAVATAR_STR: `http://127.0.0.1:${port}/avatar/{{mail|md5}}.svg`,
    }),
    { comment: { now: () => seedTime ?? Date.now() } },
  );
  built.handlers = handlers;

  const api = (path: string, body: unknown, from = '127.0.0.1', method = 'POST') =>
    sendJsonFrom(from, { port, method, path, body });
  const post = async (ago: number, body: Record<string, unknown>) => {
    seedTime = Date.now() - ago;
    const answer = (await api('/api/comment', { url: article, mail: '', link: '', ...body })) as {
      data: { objectId: string };
    };
    seedTime = undefined;
    return answer.data.objectId;
  };
  // Likes and reactions count once per voter (an IP): each vote comes from its own loopback address.
  const voters = (count: number) => Array.from({ length: count }, (_, index) => `127.0.0.${10 + index}`);

  const ada = await post(2 * 24 * hour, {
    nick: 'Ada',
    mail: 'ada@example.org',
    comment:
      "Lovely piece. I still have my grandmother's cookbook, full of pencilled **corrections** and the " +
      'occasional *"never again"*.',
  });
  const ben = await post(26 * hour, {
    nick: 'Ben',
    mail: 'ben@example.org',
    link: 'https://ben.example.org',
    comment: 'Those are the best margins. Mine say "too much salt" on every other page.',
    pid: ada,
    rid: ada,
    at: 'Ada',
  });
  await post(20 * hour, {
    nick: 'Ada',
    mail: 'ada@example.org',
    comment: 'Ha! Same handwriting, I bet.',
    pid: ben,
    rid: ada,
    at: 'Ben',
  });
  await post(3 * hour, {
    url: '/posts/a-field-guide-to-footnotes',
    nick: 'Farah',
    mail: 'farah@example.org',
    comment: 'Footnotes are margins that learned to behave.',
  });
  const chidi = await post(5 * hour, {
    nick: 'Chidi',
    mail: 'chidi@example.org',
    comment: "Fermat's margin is the most expensive one in history: it took 358 years to fill it in.",
  });
  const dana = await post(12 * minute, {
    nick: 'Dana',
    mail: 'dana@example.org',
    comment: 'Does this work with the **v2** widget too? Asking for an old Hexo theme.',
  });
  await post(4 * minute, {
    nick: 'Marginalia',
    mail: 'hello@marginalia.example',
    comment: 'It does: the v2 page shows this same thread, through the legacy routes.',
    pid: dana,
    rid: dana,
    at: 'Dana',
  });
  await post(50 * minute, {
    url: '/posts/reading-with-a-pencil',
    nick: 'Ben',
    mail: 'ben@example.org',
    comment: 'A 2B pencil, always. Ink is for people who are sure.',
  });

  for (const [id, likes] of [
    [ada, 4],
    [chidi, 2],
    [ben, 1],
  ] as const) {
    for (const voter of voters(likes)) await api(`/api/comment/${id}`, { like: true }, voter, 'PUT');
  }
  for (const [reaction, count] of [12, 7, 3, 5].entries()) {
    for (const voter of voters(count)) {
      await api('/api/article', { path: article, type: `reaction${reaction}` }, voter);
    }
  }
  for (const [path, views] of [
    [article, 127],
    ['/posts/a-field-guide-to-footnotes', 58],
    ['/posts/reading-with-a-pencil', 23],
  ] as const) {
    for (let view = 0; view < views; view++) await api('/api/article', { path, type: 'time' });
  }

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, locale: 'en-US' });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.locator('.wl-card-item').first().waitFor();
    await page.locator('#recent li img').first().waitFor();
    await page.waitForFunction(
      "[...document.querySelectorAll('.waline-pageview-count, .waline-comment-count')]" +
        '.every((counter) => /^\\d+$/.test(counter.textContent.trim())) && ' +
        '[...document.images].every((image) => image.complete)',
    );
    await page.evaluate('document.fonts.ready');
    await mkdir(dirname(output), { recursive: true });
    // From the top of the page to the first comments: the article, its counters, reactions and the thread.
    await page.screenshot({ path: output, fullPage: true, clip: { x: 0, y: 0, width: 1200, height: 1240 } });
    console.log(`Saved ${output}`);
  } finally {
    await browser.close();
  }
} finally {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await dynamoDb.stop();
}
