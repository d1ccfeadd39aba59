import { describe, expect, it } from 'vitest';
import { createFakeAccountLimits } from '../../../support/fake-account-limits.js';
import type { CaptchaGuard } from '../../../../functions/comment/captcha-guard.js';
import {
  createMyDataDownload,
  downloadPageEntries,
  feedReadsPerPage,
} from '../../../../functions/comment/my-data-download.js';
import { createMyDataErase } from '../../../../functions/comment/my-data-erase.js';
import { createMyDataRequest, dataRequestsPerWindow } from '../../../../functions/comment/my-data-request.js';
import { createDataSubjectResolver } from '../../../../functions/comment/my-data-subject.js';
import { createLinkReader } from '../../../../functions/comment/read-link.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';
import { createAddressHasher } from '../../../../functions/shared/notify/address-hash.js';
import { readLinkToken, signLinkToken } from '../../../../functions/shared/notify/link-token.js';
import { openAddress, sealAddress } from '../../../../functions/shared/notify/sealed-address.js';
import type { AccountMailSubject } from '../../../../functions/shared/table/account-mail-event.js';
import { answeredOf, erasedItems } from '../../../../functions/shared/table/erase-items.js';
import type { EraseJob, MyDataStore } from '../../../../functions/shared/table/my-data-store.js';
import { createFakeAccountRepository } from '../../../support/fake-account-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testConfig } from '../../../support/test-config.js';

const linkSecret = 'l'.repeat(40);
const start = 1_800_000_000_000;
const hour = 3_600_000;
const config = testConfig({ LINK_SECRET: linkSecret });
const hashAddress = createAddressHasher(config.IP_HASH_SALT);

const fakeLimits = createFakeAccountLimits;

const noCaptcha: CaptchaGuard = {
  demand: async () => ({ kind: 'none' }),
  verify: async () => ({ passed: true }),
};

function requestSetUp(captcha: CaptchaGuard = noCaptcha) {
  const limits = fakeLimits();
  const mails: AccountMailSubject[] = [];
  let ids = 0;
  const route = createMyDataRequest({
    limits,
    captcha,
    queueMail: async (_id, _at, subject) => {
      mails.push(subject);
    },
    hashAddress,
    linkSecret: async () => linkSecret,
    config,
    now: () => start,
    newId: () => `01NEW${String(++ids).padStart(21, '0')}`,
  });
  const ask = (email: string, sourceIp = '198.51.100.7') =>
    routeAnswer(route, { method: 'POST', path: '/api/my-data', body: { email }, sourceIp });
  return { limits, mails, ask };
}

describe('POST /api/my-data (the request of a data link)', () => {
  it('answers the same and queues the same mail for an address whatever is stored for it', async () => {
    const { mails, ask } = requestSetUp();

    const first = await ask('ann@example.com');
    const second = await ask('nobody@example.com');

    expect(first).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: '' } });
    expect(second).toEqual(first);
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatchObject({
      accountId: '',
      mail: 'my-data',
      addressHash: hashAddress('ann@example.com'),
    });
    // The address travels sealed with the link key, never in clear.
    expect(JSON.stringify(mails)).not.toContain('ann@example.com');
    expect(openAddress(linkSecret, mails[0]?.sealedTo ?? '')).toBe('ann@example.com');
  });

  it('mails an address at most 3 times a day, answering the same past that', async () => {
    const { mails, ask } = requestSetUp();

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask('Ann+x@Example.com', `198.51.100.${i}`));

    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(mails).toHaveLength(3);
  });

  it(`refuses a network past ${dataRequestsPerWindow} requests an hour with a 429, before any mail`, async () => {
    const { mails, ask } = requestSetUp();

    for (let i = 0; i < dataRequestsPerWindow; i++) await ask(`reader${i}@example.com`);
    const refused = await ask('one-more@example.com');

    expect(refused.statusCode).toBe(429);
    expect(mails).toHaveLength(dataRequestsPerWindow);
  });

  it('asks for the captcha token before anything is counted or mailed', async () => {
    const refusing: CaptchaGuard = {
      demand: async () => {
        throw new AppError('forbidden', 'turnstile: required');
      },
      verify: async () => ({ passed: true }),
    };
    const { limits, mails, ask } = requestSetUp(refusing);

    const answer = await ask('ann@example.com');

    expect(answer.statusCode).toBe(403);
    expect(limits.counted).toEqual([]);
    expect(mails).toEqual([]);
  });

  it('names the field and the rule of a bad address', async () => {
    const { ask } = requestSetUp();

    const answer = await ask('not an address');

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ errmsg: expect.stringContaining('email') });
  });
});

describe('the data link token', () => {
  const claims = {
    purpose: 'my-data',
    addressHash: hashAddress('ann@example.com'),
    sealedAddress: sealAddress(linkSecret, 'ann@example.com'),
  } as const;

  it('is read back for its purpose only, and not once expired', async () => {
    const token = await signLinkToken(linkSecret, claims, start + hour);

    expect(await readLinkToken(linkSecret, token, 'my-data', start)).toEqual(claims);
    expect(await readLinkToken(linkSecret, token, 'unsubscribe', start)).toBeUndefined();
    expect(await readLinkToken(linkSecret, token, 'account-reset', start)).toBeUndefined();
    expect(await readLinkToken(linkSecret, token, 'my-data', start + hour + 1000)).toBeUndefined();
  });

  it('is refused for a malformed hash or sealed address, and another purpose is refused as a data link', async () => {
    for (const bad of [
      { ...claims, addressHash: 'short' },
      { ...claims, sealedAddress: 'ann@example.com' },
    ]) {
      const token = await signLinkToken(linkSecret, bad, start + hour);
      expect(await readLinkToken(linkSecret, token, 'my-data', start), JSON.stringify(bad)).toBeUndefined();
    }
    const unsubscribe = await signLinkToken(
      linkSecret,
      { purpose: 'unsubscribe', addressHash: claims.addressHash },
      start + hour,
    );
    expect(await readLinkToken(linkSecret, unsubscribe, 'my-data', start)).toBeUndefined();
  });

  it('names its subject, with its account when the address has one; a forged one is a 401', async () => {
    const accounts = createFakeAccountRepository([
      {
        id: '01ANN',
        email: 'Ann@Example.com',
        displayName: 'Ann',
        type: 'guest',
        state: 'active',
        passwordHash: 'x',
        sessionVersion: 0,
        createdAt: start,
      },
    ]);
    const subjectOf = createDataSubjectResolver({
      readLink: createLinkReader({ linkSecret: async () => linkSecret, now: () => start }),
      linkSecret: async () => linkSecret,
      caller: async () => ({ kind: 'anonymous' }),
      accounts,
      hashAddress,
    });
    const token = await signLinkToken(linkSecret, claims, start + hour);

    expect(await subjectOf(`Bearer ${token}`, 'en')).toMatchObject({
      via: 'link',
      addressHash: claims.addressHash,
      address: 'ann@example.com',
      account: { id: '01ANN' },
    });
    const forged = await signLinkToken('f'.repeat(40), claims, start + hour);
    await expect(subjectOf(`Bearer ${forged}`, 'en')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(subjectOf(undefined, 'en')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it("gives a signed-in account its address's comments only when the address is proven, never a provider's unverified one", async () => {
    const account = (id: string, emailVerified?: boolean) => ({
      id,
      email: 'ann@example.com',
      displayName: 'Ann',
      type: 'guest' as const,
      state: 'active' as const,
      passwordHash: '',
      sessionVersion: 0,
      createdAt: start,
      ...(emailVerified === undefined ? {} : { emailVerified }),
    });
    const subjectFor = (signedIn: ReturnType<typeof account>) =>
      createDataSubjectResolver({
        readLink: createLinkReader({ linkSecret: async () => linkSecret, now: () => start }),
        linkSecret: async () => linkSecret,
        caller: async () => ({
          kind: 'account',
          viewer: {
            id: signedIn.id,
            email: signedIn.email,
            type: 'guest',
            sessionVersion: 0,
            account: signedIn,
          },
        }),
        accounts: createFakeAccountRepository([signedIn]),
        hashAddress,
      })('Bearer a-sign-in-token', 'en');

    // An issuer that never checked the address: its account is its own, the address's comments are not.
    const unverified = await subjectFor(account('01UNVERIFIED', false));
    expect(unverified).toMatchObject({ via: 'account' });
    expect(unverified).not.toHaveProperty('addressHash');
    expect(await subjectFor(account('01VERIFIED', true))).toMatchObject({
      addressHash: hashAddress('ann@example.com'),
    });
    // A password account confirmed its address by mail (no flag).
    expect(await subjectFor(account('01PASSWORD'))).toMatchObject({
      addressHash: hashAddress('ann@example.com'),
    });
  });
});

describe('DELETE /api/my-data (the erase)', () => {
  /** A store with nothing of the address left to erase: only the job and the log are kept. */
  function emptyStore(): MyDataStore & { readonly log: string[] } {
    const jobs = new Map<string, EraseJob>();
    const log: string[] = [];
    return {
      log,
      feedPage: async () => ({ entries: [], more: false }),
      commentsOf: async () => new Map(),
      dropFeedEntries: async () => undefined,
      mailState: async () => ({ suppressions: [], confirmations: [], trust: undefined }),
      eraseMailState: async () => 2,
      dropAuthorCount: async () => true,
      eraseJob: async (key) => jobs.get(key),
      saveEraseJob: async (key, job) => {
        jobs.set(key, job);
      },
      recordRequest: async (entry) => {
        log.push(`${entry.kind} ${entry.outcome} ${entry.hashPrefix}`);
      },
      requests: async () => [],
    };
  }

  it('erases once per link: the same link again is a 400 that says to ask for a new one', async () => {
    const store = emptyStore();
    const addressHash = hashAddress('ann@example.com');
    const route = createMyDataErase({
      subjectOf: async () => ({ via: 'link', token: 'the-token', addressHash, address: 'ann@example.com' }),
      store,
      moderation: { eraseInThread: async () => ({ removed: 0, kept: 0 }) },
      accounts: { remove: async () => true, forgetContact: async () => ({ forgotten: 1, more: false }) },
      limits: fakeLimits(),
      hashAddress,
      config,
      now: () => start,
    });
    const erase = () => routeAnswer(route, { method: 'DELETE', path: '/api/my-data' });

    const first = await erase();
    const second = await erase();

    // The account made from an identity that carried the address keeps its sign-in, not the address.
    expect(first.body).toMatchObject({ data: { done: true, suppressions: 2, account: 0, contacts: 1 } });
    expect(second.statusCode).toBe(400);
    expect(second.body).toMatchObject({ errmsg: expect.stringContaining('token') });
    expect(store.log).toEqual([`erase done ${addressHash.slice(0, 8)}`]);
  });

  it('takes the address off the accounts that carry it within the call, going on at the next call', async () => {
    const store = emptyStore();
    const addressHash = hashAddress('ann@example.com');
    let clock = start;
    const rounds: (string | undefined)[] = [];
    const route = createMyDataErase({
      subjectOf: async () => ({ via: 'link', token: 'the-token', addressHash, address: 'ann@example.com' }),
      store,
      moderation: { eraseInThread: async () => ({ removed: 0, kept: 0 }) },
      accounts: {
        remove: async () => true,
        // Each round takes 2 s; four rounds of one account each, the last with none after it.
        forgetContact: async (address, limit, keep) => {
          clock += 2000;
          rounds.push(`${address} ${limit} ${keep}`);
          return { forgotten: 1, more: rounds.length < 4 };
        },
      },
      limits: fakeLimits(),
      hashAddress,
      config,
      now: () => clock,
    });
    const erase = () => routeAnswer(route, { method: 'DELETE', path: '/api/my-data' });

    const first = await erase();
    expect(first.body).toMatchObject({ data: { done: false, contacts: expect.any(Number) } });
    expect(store.log.at(-1)).toMatch(/^erase running/);
    const second = await erase();

    expect(second.body).toMatchObject({ data: { done: true, contacts: 4, suppressions: 2 } });
    expect(rounds).toEqual(Array.from({ length: 4 }, () => 'ann@example.com 25 undefined'));
  });
});

describe('what an erase keeps of a thread', () => {
  const thread = [
    { id: 'R' },
    { id: 'A', pid: 'R', rid: 'R' },
    { id: 'B', pid: 'A', rid: 'R' },
    { id: 'C', pid: 'R', rid: 'R' },
  ];

  it('keeps an erased comment another answered, and one answered by a kept one; lets the rest go', () => {
    // The commenter wrote R, A and C; B (someone else) answers A, which answers R.
    expect([...answeredOf(thread, new Set(['R', 'A', 'C']))].sort()).toEqual(['A', 'R']);
    // Nobody else in the thread: all of it goes.
    expect(answeredOf(thread, new Set(['R', 'A', 'B', 'C'])).size).toBe(0);
    // A reply nobody answered goes, even in someone else's thread.
    expect(answeredOf(thread, new Set(['C'])).size).toBe(0);
  });

  it('anonymises (text kept) or leaves the placeholder, and takes the author off either way', () => {
    const comment = {
      id: 'A',
      url: '/p',
      rid: 'R',
      pid: 'R',
      nick: 'Ann',
      mail: 'ann@example.com',
      link: 'https://ann.example',
      browser: '',
      os: '',
      orig: 'hello',
      html: '<p>hello</p>',
      status: 'approved',
      like: 0,
      sticky: false,
      insertedAt: start,
      contentHash: 'H',
    } as const;
    const values = (mode: 'placeholder' | 'anonymise') => {
      const [update, ...rest] = erasedItems('t', comment, mode, start, ['mail:HASH']);
      return { update: update?.Update, rest };
    };

    const anonymised = values('anonymise');
    expect(Object.values(anonymised.update?.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['Anonymous', '']),
    );
    expect(Object.values(anonymised.update?.ExpressionAttributeNames ?? {})).not.toContain('orig');
    expect(Object.values(anonymised.update?.ExpressionAttributeNames ?? {})).toEqual(
      expect.arrayContaining(['userId', 'ipHash', 'contentHash', 'addr']),
    );
    const placeholder = values('placeholder');
    expect(Object.values(placeholder.update?.ExpressionAttributeValues ?? {})).toContain('[deleted]');
    // A second erase that read the thread before the first wrote takes nothing (and no count) twice.
    for (const { update } of [anonymised, placeholder]) {
      expect(update?.ConditionExpression).toContain('attribute_not_exists(#deletedAt)');
      expect(update?.ExpressionAttributeNames?.['#deletedAt']).toBe('deletedAt');
    }
    for (const { rest } of [anonymised, placeholder]) {
      expect(rest).toEqual([
        { Delete: { TableName: 't', Key: { pk: 'URL#/p', sk: 'DUP#H' } } },
        { Delete: { TableName: 't', Key: { pk: 'AUTHOR#mail:HASH', sk: 'FEED#A' } } },
      ]);
    }
  });
});

describe('GET /api/my-data (the download)', () => {
  const addressHash = hashAddress('ann@example.com');
  const account = {
    id: '01ANN',
    email: 'ann@example.com',
    displayName: 'Ann',
    type: 'guest' as const,
    state: 'active' as const,
    passwordHash: 'scrypt$secret',
    sessionVersion: 0,
    createdAt: start,
    totp: { secret: 'TOTPSECRET', lastStep: 0, recoveryHashes: [] },
  };
  const own = Array.from({ length: 70 }, (_, i) => ({
    id: `U${String(i).padStart(3, '0')}`,
    url: '/a',
    mail: 'ann@example.com',
    userId: '01ANN',
  }));
  /**
   * 70 comments under the account, and under the address: 60 posted without an account (one with someone else's
   * address), one of another account that carries the address (an identity's), and the account's own 70 again
   * (filed under both keys), in feed order.
   */
  const feeds: Record<string, { id: string; url: string; mail: string; userId?: string }[]> = {
    'user:01ANN': own,
    [`mail:${addressHash}`]: [
      ...Array.from({ length: 60 }, (_, i) => ({
        id: `M${String(i).padStart(3, '0')}`,
        url: '/b',
        mail: i === 7 ? 'someone@example.com' : 'Ann+x@example.com',
      })),
      { id: 'X001', url: '/c', mail: 'ann@example.com', userId: '01IDENTITY' },
      ...own,
    ],
  };
  const identityAccount = {
    ...account,
    id: '01IDENTITY',
    displayName: 'Ann elsewhere',
    passwordHash: '',
    totp: undefined,
    identity: { provider: 'github', subject: '42' },
    emailVerified: true,
  };
  const accounts = { findByContact: async () => [identityAccount, account] };
  type Feeds = Record<string, { id: string; url: string; mail: string; userId?: string }[]>;
  /** A store of `feedsOf`, each comment's text `textOf` its id; `reads` counts its feed reads. */
  const storeOf = (feedsOf: Feeds, textOf = (id: string) => `text of ${id}`) => {
    const counted = { reads: 0 };
    const store = {
      feedPage: async (authorKey: string, after: string | undefined, limit: number) => {
        counted.reads++;
        const all = feedsOf[authorKey] ?? [];
        const from = after === undefined ? 0 : all.findIndex((entry) => entry.id === after) + 1;
        return { entries: all.slice(from, from + limit), more: from + limit < all.length };
      },
      commentsOf: async (entries: readonly { id: string }[]) => {
        const all = Object.values(feedsOf).flat();
        return new Map(
          entries.map((entry) => {
            const found = all.find((item) => item.id === entry.id);
            return [entry.id, { ...found, orig: textOf(entry.id), status: 'approved', insertedAt: start }];
          }),
        );
      },
      mailState: async () => ({
        suppressions: [{ pk: 'MUTE#x', sk: 'SITE', reason: 'unsubscribe', at: start }],
        confirmations: [],
        trust: undefined,
      }),
      recordRequest: async () => undefined,
    } as unknown as MyDataStore;
    return { store, counted };
  };
  const { store } = storeOf(feeds);
  /** The download of the signed-in account and its address, on `from`. */
  const signedInDownload = (from: MyDataStore) =>
    createMyDataDownload({
      subjectOf: async () => ({ via: 'account', account, addressHash, address: 'ann@example.com' }),
      store: from,
      accounts,
      hashAddress,
      now: () => start,
    });
  /** Every page of `route`'s download, following `next`, with the feed reads of each. */
  const allPages = async (route: ReturnType<typeof createMyDataDownload>, counted: { reads: number }) => {
    const pages: { ids: string[]; reads: number }[] = [];
    let cursor: string | undefined;
    do {
      const before = counted.reads;
      const answer = await routeAnswer(route, {
        method: 'GET',
        path: '/api/my-data',
        ...(cursor ? { query: `cursor=${cursor}` } : {}),
      });
      const data = (answer.body as { data: { comments: { id: string }[]; next?: string } }).data;
      pages.push({ ids: data.comments.map((comment) => comment.id), reads: counted.reads - before });
      cursor = data.next;
    } while (cursor && pages.length < 100);
    return pages;
  };

  it("goes on where a page was cut, even at the first entry of a key's later read", async () => {
    // Under the address: 15 large comments (about 3 MB together), 35 of the account's own (shown under its
    // key, skipped here), then 5 more large ones; the page is cut at the first large one of the second read.
    const mine = (i: number) => ({
      id: `O${String(i).padStart(3, '0')}`,
      url: '/a',
      mail: 'ann@example.com',
      userId: '01ANN',
    });
    const large = (i: number) => ({
      id: `B${String(i).padStart(3, '0')}`,
      url: '/b',
      mail: 'ann@example.com',
    });
    const { store: cut, counted } = storeOf(
      {
        'user:01ANN': [],
        [`mail:${addressHash}`]: [
          ...Array.from({ length: 15 }, (_, i) => large(i)),
          ...Array.from({ length: 35 }, (_, i) => mine(i)),
          ...Array.from({ length: 5 }, (_, i) => large(15 + i)),
        ],
      },
      (id) => (id.startsWith('B') ? 'x'.repeat(200_000) : 'mine'),
    );
    const route = signedInDownload(cut);

    const pages = await allPages(route, counted);

    expect(pages.map((page) => page.ids.length)).toEqual([15, 5]);
    expect(pages.flatMap((page) => page.ids)).toEqual(Array.from({ length: 20 }, (_, i) => large(i).id));
  });

  it(`reads at most ${feedReadsPerPage} feed pages per page, however many entries it skips`, async () => {
    // 1,000 comments of the account, filed under its key and its address's, then one posted without it.
    const own = Array.from({ length: 1000 }, (_, i) => ({
      id: `U${String(i).padStart(4, '0')}`,
      url: '/a',
      mail: 'ann@example.com',
      userId: '01ANN',
    }));
    const { store: skipping, counted } = storeOf({
      'user:01ANN': own,
      [`mail:${addressHash}`]: [...own, { id: 'V0001', url: '/b', mail: 'ann@example.com' }],
    });
    const route = signedInDownload(skipping);

    const pages = await allPages(route, counted);

    expect(Math.max(...pages.map((page) => page.reads))).toBeLessThanOrEqual(feedReadsPerPage);
    const ids = pages.flatMap((page) => page.ids);
    expect(ids).toHaveLength(1001);
    expect(new Set(ids).size).toBe(1001);
    expect(ids.at(-1)).toBe('V0001');
  });

  it('pages every comment of the account and its address once, 50 at a time, with the account (no secrets) first', async () => {
    const route = signedInDownload(store);
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let first: Record<string, unknown> | undefined;
    do {
      const answer = await routeAnswer(route, {
        method: 'GET',
        path: '/api/my-data',
        ...(cursor ? { query: `cursor=${cursor}` } : {}),
      });
      const data = (answer.body as { data: Record<string, unknown> }).data;
      first ??= data;
      const comments = data.comments as { id: string }[];
      expect(comments.length).toBeLessThanOrEqual(downloadPageEntries);
      ids.push(...comments.map((comment) => comment.id));
      cursor = data.next as string | undefined;
      expect(data.truncated).toBe(cursor !== undefined);
      pages++;
    } while (cursor && pages < 10);

    expect(pages).toBe(3);
    // Each comment once: the account's own, filed under both keys, under the account's.
    expect(ids).toHaveLength(130);
    expect(ids).not.toContain('M007');
    expect(ids).toContain('X001');
    expect(new Set(ids).size).toBe(130);
    expect(first?.account).toMatchObject({ id: '01ANN', secondFactor: true });
    // The other account that carries the address, once (not the caller's own again).
    expect(first?.accountsWithAddress).toEqual([
      expect.objectContaining({ id: '01IDENTITY', identity: { provider: 'github' } }),
    ]);
    expect(JSON.stringify(first)).not.toMatch(/scrypt|TOTPSECRET/);
    expect(first?.suppressions).toEqual([
      { scope: 'site', reason: 'unsubscribe', at: new Date(start).toISOString() },
    ]);
  });

  it('refuses a cursor it did not make, naming the field', async () => {
    const route = createMyDataDownload({
      subjectOf: async () => ({ via: 'account', account }),
      store,
      accounts,
      hashAddress,
      now: () => start,
    });

    const answer = await routeAnswer(route, {
      method: 'GET',
      path: '/api/my-data',
      query: 'cursor=bm90IG1pbmU',
    });

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ errmsg: expect.stringContaining('cursor') });
  });
});
