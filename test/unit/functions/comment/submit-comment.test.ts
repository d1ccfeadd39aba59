import { describe, expect, it } from 'vitest';
import {
  createSubmitComment,
  type SubmitCommentDependencies,
} from '../../../../functions/comment/submit-comment.js';
import type {
  CommentStatus,
  ListedComment,
  StoredComment,
} from '../../../../functions/shared/domain/comment.js';
import { contentHash, hashIp } from '../../../../functions/shared/domain/hashing.js';
import type { StatusInput } from '../../../../functions/comment/initial-status.js';
import type { HeldReason } from '../../../../functions/shared/domain/held-reason.js';
import type { CommentRef } from '../../../../functions/shared/table/comment-repository.js';
import type { InsertGuards, InsertRefusal } from '../../../../functions/shared/table/submit-items.js';
import type { SubmitMarks, SubmitMarksQuery } from '../../../../functions/shared/table/submit-marks.js';
import type {
  CaptchaDemand,
  CaptchaOutcome,
  CaptchaTokens,
} from '../../../../functions/comment/captcha-guard.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';
import { routeAnswer } from '../../../support/route-answer.js';
import { testViewer } from '../../../support/viewers.js';

const salt = 'salt-for-submit-tests-0123';
const ip = '198.51.100.23';
const ipHash = hashIp(salt, ip);
const now = Date.UTC(2026, 4, 1, 12, 0, 0);
const adminToken = 'Bearer admin-token';
const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const body = {
  comment: 'Hello **world**',
  url: '/post',
  nick: 'Alice',
  mail: 'alice@mail.example',
  link: 'https://alice.example',
  ua: firefox,
};

type InsertOutcome = { ok: true } | { ok: false; reason: InsertRefusal };

interface Setup {
  readonly marks?: Partial<SubmitMarks>;
  /** What each insert answers in turn; `{ ok: true }` once they run out. */
  readonly inserts?: InsertOutcome[];
  /** What `find` answers for the parent; an Error makes it fail. */
  readonly parent?: ListedComment | Error;
  readonly config?: Partial<SubmitCommentDependencies['config']>;
  readonly status?: CommentStatus;
  readonly heldBecause?: HeldReason;
  readonly render?: (text: string) => string;
  /** The captcha: none in force (the default), a token demanded (refused when missing), and its verdict. */
  readonly captcha?: { readonly verdict: CaptchaOutcome | 'refused' };
}

/** The submit route over fakes of exactly its dependencies, each recording how it was called. */
function submitRoute(setup: Setup = {}) {
  const calls = {
    viewer: [] as (string | undefined)[],
    readSubmitMarks: [] as SubmitMarksQuery[],
    markRefusedPost: [] as { ipHash: string; at: number; windowMs: number }[],
    renderMarkdown: [] as string[],
    initialStatus: [] as StatusInput[],
    demand: [] as CaptchaTokens[],
    verify: [] as CaptchaDemand[],
    insert: [] as { comment: StoredComment; guards: InsertGuards }[],
    find: [] as { ref: CommentRef; options: { withHeld?: boolean } | undefined }[],
  };
  const inserts = [...(setup.inserts ?? [])];
  const dependencies: SubmitCommentDependencies = {
    viewer: async (authorization) => {
      calls.viewer.push(authorization);
      return authorization === adminToken ? testViewer('admin-1', 'admin@site.example') : undefined;
    },
    comments: {
      insert: async (comment, guards) => {
        calls.insert.push({ comment, guards });
        return inserts.shift() ?? { ok: true };
      },
      find: async (ref, options) => {
        calls.find.push({ ref, options });
        if (setup.parent instanceof Error) throw setup.parent;
        return setup.parent;
      },
    },
    config: {
      IP_HASH_SALT: salt,
      IPQPS: 60,
      BLOCKED_IP_HASHES: [],
      BLOCKED_WORDS: [],
      RESTRICTED_NAMES: [],
      COMMENT_AUDIT: 'off',
      READONLY_AGE: 0,
      ...setup.config,
    },
    readSubmitMarks: async (query) => {
      calls.readSubmitMarks.push(query);
      return {
        lastPostAt: undefined,
        duplicate: false,
        adminMail: false,
        trusted: false,
        firstCommentAt: undefined,
        ...setup.marks,
      };
    },
    markRefusedPost: async (mark) => {
      calls.markRefusedPost.push(mark);
    },
    renderMarkdown: async (text) => {
      calls.renderMarkdown.push(text);
      return setup.render ? setup.render(text) : `<p>${text}</p>`;
    },
    captcha: {
      demand: async (tokens) => {
        calls.demand.push(tokens);
        if (!setup.captcha) return { kind: 'none' };
        if (!tokens.turnstile) throw new AppError('forbidden', 'no token', { turnstile: 'required' });
        return { kind: 'token', field: 'turnstile', secret: 'secret', token: tokens.turnstile };
      },
      verify: async (demand) => {
        calls.verify.push(demand);
        const verdict = demand.kind === 'none' ? { passed: true as const } : setup.captcha?.verdict;
        if (verdict === 'refused') throw new AppError('forbidden', 'refused', { turnstile: 'rule' });
        return verdict ?? { passed: true };
      },
    },
    initialStatus: async (comment) => {
      calls.initialStatus.push(comment);
      return {
        status: setup.status ?? 'approved',
        ...(setup.heldBecause ? { heldBecause: setup.heldBecause } : {}),
      };
    },
    hashAddress: (address) => `hash(${address})`,
    now: () => now,
    newId: (time) => `01NEW${time}`,
    presentation: { avatarFor: ({ nick }) => `https://avatar.example/${nick}`, showUserAgent: true },
  };
  return { route: createSubmitComment(dependencies), calls };
}

type Route = ReturnType<typeof submitRoute>['route'];

const post = (
  route: Route,
  sent: Record<string, unknown>,
  options: { path?: string; authorization?: string } = {},
) =>
  routeAnswer(route, {
    method: 'POST',
    path: options.path ?? '/api/comment',
    body: sent,
    sourceIp: ip,
    ...(options.authorization ? { headers: { authorization: options.authorization } } : {}),
  });

const parentComment = (status: CommentStatus): ListedComment => ({
  id: '01REPLYB',
  url: '/post',
  pid: '01ROOTA',
  rid: '01ROOTA',
  nick: 'Bob',
  mail: 'bob@mail.example',
  link: 'https://bob.example',
  browser: '',
  os: '',
  orig: 'first',
  html: '<p>first</p>',
  status,
  like: 0,
  sticky: false,
  insertedAt: now - 1000,
});

const reply = { ...body, pid: '01REPLYB', rid: '01ROOTA', at: 'Bob' };

/** Nothing costly was done and nothing was stored. */
function expectNothingDone(calls: ReturnType<typeof submitRoute>['calls']) {
  expect(calls.renderMarkdown).toEqual([]);
  expect(calls.initialStatus).toEqual([]);
  expect(calls.insert).toEqual([]);
}

describe('createSubmitComment', () => {
  it.each([
    ['comment', { ...body, comment: '   ' }],
    ['url', { ...body, url: '' }],
    ['link', { ...body, link: 'javascript:alert(1)' }],
    ['rid', { ...body, pid: '01ROOTA' }],
  ])('refuses a body with a bad %s with a 400 naming it, without touching storage', async (field, sent) => {
    const { route, calls } = submitRoute();

    const answer = await post(route, sent);

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ errno: 1001, details: { [field]: expect.any(String) } });
    expect(calls.readSubmitMarks).toEqual([]);
    expect(calls.viewer).toEqual([]);
    expectNothingDone(calls);
  });

  it("stores the writer's language, so that mail about replies to it is written in it", async () => {
    const { route, calls } = submitRoute();

    await routeAnswer(route, {
      method: 'POST',
      path: '/api/comment',
      query: 'lang=zh-TW',
      body,
      sourceIp: ip,
    });

    expect(calls.insert[0]?.comment.lang).toBe('zh-CN');
  });

  it('stores a visitor comment once rendered, with the status decided for it and every guard', async () => {
    const { route, calls } = submitRoute({ status: 'waiting' });

    const answer = await post(route, body);

    const comment: StoredComment = {
      id: `01NEW${now}`,
      url: '/post',
      nick: 'Alice',
      mail: 'alice@mail.example',
      link: 'https://alice.example',
      ua: firefox,
      ipHash,
      browser: 'Firefox128.0',
      os: 'Linux',
      orig: 'Hello **world**',
      html: '<p>Hello **world**</p>',
      status: 'waiting',
      like: 0,
      sticky: false,
      insertedAt: now,
      lang: 'en',
    };
    expect(calls.readSubmitMarks).toEqual([
      { url: '/post', contentHash: contentHash(body), ipHash, mail: 'alice@mail.example' },
    ]);
    expect(calls.renderMarkdown).toEqual(['Hello **world**']);
    expect(calls.initialStatus).toEqual([
      {
        byAdmin: false,
        trusted: false,
        ip,
        userAgent: firefox,
        url: '/post',
        nick: 'Alice',
        mail: 'alice@mail.example',
        link: 'https://alice.example',
        text: 'Hello **world**',
      },
    ]);
    expect(calls.insert).toEqual([
      {
        comment,
        guards: {
          contentHash: contentHash(body),
          rateLimit: { ipHash, windowMs: 60_000 },
          visibleParents: true,
        },
      },
    ]);
    expect(calls.markRefusedPost).toEqual([]);
    expect(answer).toEqual({
      statusCode: 200,
      body: {
        errno: 0,
        errmsg: '',
        data: {
          objectId: `01NEW${now}`,
          comment: '<p>Hello **world**</p>',
          orig: 'Hello **world**',
          nick: 'Alice',
          link: 'https://alice.example',
          avatar: 'https://avatar.example/Alice',
          browser: 'Firefox128.0',
          os: 'Linux',
          status: 'waiting',
          like: 0,
          time: now,
          url: '/post',
        },
      },
    });
  });

  it('never answers the mail, the IP or its hash', async () => {
    const { route } = submitRoute();

    const answer = await post(route, body);
    const text = JSON.stringify(answer.body);

    expect(answer.statusCode).toBe(200);
    expect(text).not.toContain('alice@mail.example');
    expect(text).not.toContain(ip);
    expect(text).not.toContain(ipHash);
  });

  it('reads the marks with a salted hash of the IP, never the IP itself', async () => {
    const { route, calls } = submitRoute();

    await post(route, body);

    expect(calls.readSubmitMarks[0]?.ipHash).toBe(hashIp(salt, ip));
    expect(calls.readSubmitMarks[0]?.ipHash).not.toContain(ip);
    expect(calls.insert[0]?.comment.ipHash).toBe(hashIp(salt, ip));
  });

  it('refuses a blocked IP hash with a 403 before rendering', async () => {
    const { route, calls } = submitRoute({ config: { BLOCKED_IP_HASHES: [ipHash] } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(403);
    expectNothingDone(calls);
  });

  it('refuses with a 429, before rendering, a visitor whose IP posted within the window', async () => {
    const { route, calls } = submitRoute({ marks: { lastPostAt: now - 59_999 } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(429);
    expectNothingDone(calls);
  });

  it('stores a visitor whose IP last posted a whole window ago', async () => {
    const { route, calls } = submitRoute({ marks: { lastPostAt: now - 60_000 } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(200);
    expect(calls.insert).toHaveLength(1);
  });

  it('neither refuses nor guards the rate when IPQPS is 0', async () => {
    const { route, calls } = submitRoute({ config: { IPQPS: 0 }, marks: { lastPostAt: now - 1 } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(200);
    expect(calls.insert[0]?.guards).toEqual({ contentHash: contentHash(body), visibleParents: true });
  });

  it('refuses an administrator mail from an anonymous poster with a 403 naming mail, and counts it against the rate', async () => {
    const { route, calls } = submitRoute({ marks: { adminMail: true } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(403);
    expect(answer.body).toMatchObject({ details: { mail: expect.any(String) } });
    expect(calls.markRefusedPost).toEqual([{ ipHash, at: now, windowMs: 60_000 }]);
    expectNothingDone(calls);
  });

  it('refuses an administrator mail from an anonymous poster without a rate mark when IPQPS is 0', async () => {
    const { route, calls } = submitRoute({ marks: { adminMail: true }, config: { IPQPS: 0 } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(403);
    expect(calls.markRefusedPost).toEqual([]);
    expectNothingDone(calls);
  });

  it('refuses content its duplicate mark says was posted before with a 409, before rendering', async () => {
    const { route, calls } = submitRoute({ marks: { duplicate: true } });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(409);
    expectNothingDone(calls);
  });

  it('stores a signed-in administrator as such: not rate limited, not blocked, free to use the admin mail', async () => {
    const { route, calls } = submitRoute({
      marks: { adminMail: true, lastPostAt: now - 1 },
      config: { BLOCKED_IP_HASHES: [ipHash] },
    });

    const answer = await post(route, body, { authorization: adminToken });

    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatchObject({ data: { type: 'administrator' } });
    expect(calls.viewer).toEqual([adminToken]);
    expect(calls.initialStatus[0]?.byAdmin).toBe(true);
    expect(calls.insert).toEqual([
      {
        comment: expect.objectContaining({ type: 'administrator' }),
        guards: { contentHash: contentHash(body) },
      },
    ]);
    expect(calls.markRefusedPost).toEqual([]);
  });

  it.each([
    ['duplicate', 409, {}],
    ['rate_limited', 429, {}],
    ['parent_missing', 400, { details: { pid: expect.any(String) } }],
  ] as const)('answers an insert refused as %s with %i', async (reason, status, extra) => {
    const { route, calls } = submitRoute({
      inserts: [{ ok: false, reason }],
      parent: parentComment('approved'),
    });

    const answer = await post(route, reply);

    expect(answer.statusCode).toBe(status);
    expect(answer.body).toMatchObject(extra);
    expect(calls.insert).toHaveLength(1);
  });

  it('answers an insert refused as id_taken as stored: the retried write had landed', async () => {
    const { route } = submitRoute({ inserts: [{ ok: false, reason: 'id_taken' }] });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatchObject({ data: { objectId: `01NEW${now}` } });
  });

  it('stores a reply under its parent and thread, and names the approved parent in reply_user', async () => {
    const { route, calls } = submitRoute({ parent: parentComment('approved') });

    const answer = await post(route, reply);

    expect(calls.find).toEqual([
      { ref: { url: '/post', id: '01REPLYB', rid: '01ROOTA' }, options: { withHeld: false } },
    ]);
    expect(calls.insert[0]?.comment).toMatchObject({ pid: '01REPLYB', rid: '01ROOTA', orig: body.comment });
    expect(answer.body).toMatchObject({
      data: {
        pid: '01REPLYB',
        rid: '01ROOTA',
        reply_user: { nick: 'Bob', link: 'https://bob.example', avatar: 'https://avatar.example/Bob' },
      },
    });
  });

  it('looks a reply to a root up by its id alone', async () => {
    const { route, calls } = submitRoute();

    await post(route, { ...body, pid: '01ROOTA', rid: '01ROOTA' });

    expect(calls.find).toEqual([{ ref: { url: '/post', id: '01ROOTA' }, options: { withHeld: false } }]);
  });

  it('stores a reply whose parent could not be read, without reply_user', async () => {
    const { route, calls } = submitRoute({ parent: new Error('read failed') });

    const answer = await post(route, reply);

    expect(answer.statusCode).toBe(200);
    expect(calls.insert).toHaveLength(1);
    expect(answer.body).not.toHaveProperty('data.reply_user');
  });

  it('tries once more where held replies are when an administrator answers a waiting reply', async () => {
    const { route, calls } = submitRoute({
      inserts: [{ ok: false, reason: 'parent_missing' }],
      parent: parentComment('waiting'),
    });

    const answer = await post(route, reply, { authorization: adminToken });

    expect(answer.statusCode).toBe(200);
    expect(calls.find[0]?.options).toEqual({ withHeld: true });
    expect(calls.insert.map(({ guards }) => guards)).toEqual([
      { contentHash: contentHash(reply) },
      { contentHash: contentHash(reply), parentStatus: 'waiting' },
    ]);
    expect(answer.body).not.toHaveProperty('data.reply_user');
  });

  it('does not try again for a visitor whose parent is held', async () => {
    const { route, calls } = submitRoute({
      inserts: [{ ok: false, reason: 'parent_missing' }],
      parent: parentComment('waiting'),
    });

    const answer = await post(route, reply);

    expect(answer.statusCode).toBe(400);
    expect(calls.insert).toHaveLength(1);
  });

  it('prefixes a v2 reply with a link to its parent before rendering it', async () => {
    const { route, calls } = submitRoute();

    await post(route, reply, { path: '/comment' });

    const orig = '[@Bob](#01REPLYB): Hello **world**';
    expect(calls.renderMarkdown).toEqual([orig]);
    expect(calls.insert[0]?.comment.orig).toBe(orig);
  });

  it('renders a v3 reply as it was typed', async () => {
    const { route, calls } = submitRoute();

    await post(route, reply);

    expect(calls.renderMarkdown).toEqual(['Hello **world**']);
  });

  it('refuses with a 413 a comment whose rendering would not fit in one item, before deciding its status', async () => {
    const { route, calls } = submitRoute({ render: () => 'x'.repeat(400 * 1024) });

    const answer = await post(route, body);

    expect(answer.statusCode).toBe(413);
    expect(calls.renderMarkdown).toHaveLength(1);
    expect(calls.initialStatus).toEqual([]);
    expect(calls.insert).toEqual([]);
  });

  describe('with a captcha in force', () => {
    const captcha = { verdict: { passed: true } } as const;

    it('refuses an anonymous post without the token before reading anything', async () => {
      const { route, calls } = submitRoute({ captcha });

      const answer = await post(route, body);

      expect(answer.statusCode).toBe(403);
      expect(answer.body).toMatchObject({ errno: 403, details: { turnstile: 'required' } });
      expect(calls.viewer).toEqual([]);
      expect(calls.readSubmitMarks).toEqual([]);
      expect(calls.verify).toEqual([]);
      expectNothingDone(calls);
    });

    it('verifies the token only past the cheap refusals: a duplicate costs no call to the provider', async () => {
      const { route, calls } = submitRoute({ captcha, marks: { duplicate: true } });

      const answer = await post(route, { ...body, turnstile: 'token-1' });

      expect(answer.statusCode).toBe(409);
      expect(calls.demand).toEqual([{ turnstile: 'token-1', recaptchaV3: undefined }]);
      expect(calls.verify).toEqual([]);
      expectNothingDone(calls);
    });

    it('neither renders nor judges a post whose token is refused', async () => {
      const { route, calls } = submitRoute({ captcha: { verdict: 'refused' } });

      const answer = await post(route, { ...body, turnstile: 'token-1' });

      expect(answer.statusCode).toBe(403);
      expect(calls.verify).toEqual([
        { kind: 'token', field: 'turnstile', secret: 'secret', token: 'token-1' },
      ]);
      expectNothingDone(calls);
    });

    it('stores a post whose token passed as any other', async () => {
      const { route, calls } = submitRoute({ captcha });

      const answer = await post(route, { ...body, turnstile: 'token-1' });

      expect(answer.statusCode).toBe(200);
      expect(calls.initialStatus[0]).not.toHaveProperty('captchaUnreachable');
      expect(calls.insert).toHaveLength(1);
    });

    it('tells the status decision when the provider could not be asked, and stores the comment', async () => {
      const { route, calls } = submitRoute({ captcha: { verdict: { passed: false, reason: 'timeout' } } });

      const answer = await post(route, { ...body, turnstile: 'token-1' });

      expect(answer.statusCode).toBe(200);
      expect(calls.initialStatus[0]).toMatchObject({ captchaUnreachable: true, byAdmin: false });
      expect(calls.insert).toHaveLength(1);
    });

    it('lets a signed-in administrator post without a token, never asking the provider', async () => {
      const { route, calls } = submitRoute({ captcha });

      const answer = await post(route, body, { authorization: adminToken });

      expect(answer.statusCode).toBe(200);
      expect(calls.demand).toEqual([]);
      expect(calls.verify).toEqual([{ kind: 'none' }]);
      expect(calls.insert).toHaveLength(1);
    });

    it("refuses a post whose sign-in token is no administrator's before any rule answers it", async () => {
      const { route, calls } = submitRoute({
        captcha,
        marks: { duplicate: true },
        config: { BLOCKED_WORDS: ['Hello'] },
      });

      const answer = await post(route, body, { authorization: 'Bearer forged' });

      // Neither the blocked word (403 naming comment) nor the duplicate (409) is told: only the missing token.
      expect(answer.statusCode).toBe(403);
      expect(answer.body).toMatchObject({ details: { turnstile: 'required' } });
      expect(calls.verify).toEqual([]);
    });

    it('counts a refused token against the IP like a post, so junk tokens each cost a wait', async () => {
      const { route, calls } = submitRoute({ captcha: { verdict: 'refused' } });

      const answer = await post(route, { ...body, turnstile: 'junk' });

      expect(answer.statusCode).toBe(403);
      expect(calls.markRefusedPost).toEqual([{ ipHash: expect.any(String), at: now, windowMs: 60_000 }]);
      expectNothingDone(calls);
    });

    it("demands the token of a post whose sign-in token is no administrator's, before rendering", async () => {
      const { route, calls } = submitRoute({ captcha });

      const answer = await post(route, body, { authorization: 'Bearer forged' });

      expect(answer.statusCode).toBe(403);
      expect(calls.viewer).toEqual(['Bearer forged']);
      expectNothingDone(calls);
    });
  });

  it('stores why a comment was held, and never answers it', async () => {
    const { route, calls } = submitRoute({ status: 'waiting', heldBecause: 'first_comment' });

    const answer = await post(route, body);

    expect(calls.insert[0]?.comment).toMatchObject({ status: 'waiting', heldBecause: 'first_comment' });
    expect(answer.statusCode).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain('first_comment');
    expect(JSON.stringify(answer.body)).not.toContain('heldBecause');
  });

  it.each([
    ['comment', { ...body, comment: 'Visit my casino today' }],
    ['nick', { ...body, nick: 'Casino King' }],
    ['link', { ...body, link: 'https://best-casino.example' }],
  ])('refuses with a 403 naming %s a visitor whose field holds a BLOCKED_WORDS word', async (field, sent) => {
    const { route, calls } = submitRoute({ config: { BLOCKED_WORDS: ['casino'] } });

    const answer = await post(route, sent);

    expect(answer.statusCode).toBe(403);
    expect(answer.body).toMatchObject({
      errno: 403,
      errmsg: `${field}: contains a word this site does not accept; change it and send again.`,
      details: { [field]: 'contains a blocked word (BLOCKED_WORDS)' },
    });
    expectNothingDone(calls);
  });

  it("judges the legacy route's text as stored, `at` prefix included: the rules and the status see it", async () => {
    const blocked = submitRoute({ config: { BLOCKED_WORDS: ['casino'] }, parent: parentComment('approved') });
    const judged = submitRoute({ parent: parentComment('approved') });

    const refused = await post(blocked.route, { ...reply, at: 'casino' }, { path: '/comment' });
    await post(judged.route, { ...reply, at: 'Bob' }, { path: '/comment' });

    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({ details: { comment: 'contains a blocked word (BLOCKED_WORDS)' } });
    expectNothingDone(blocked.calls);
    expect(judged.calls.initialStatus[0]?.text).toBe(`[@Bob](#01REPLYB): ${reply.comment}`);
  });

  it('refuses a nick of RESTRICTED_NAMES, ignoring case and spaces, with a 403 naming nick', async () => {
    const { route, calls } = submitRoute({ config: { RESTRICTED_NAMES: ['Site Owner'] } });

    const answer = await post(route, { ...body, nick: '  site owner ' });
    const other = await post(route, { ...body, nick: 'Site Owners' });

    expect(answer.statusCode).toBe(403);
    expect(answer.body).toMatchObject({
      errno: 403,
      details: { nick: 'is a restricted name (RESTRICTED_NAMES)' },
    });
    expect(other.statusCode).toBe(200);
    expect(calls.insert).toHaveLength(1);
  });

  it('lets an administrator use a blocked word and a restricted name', async () => {
    const { route, calls } = submitRoute({
      config: { BLOCKED_WORDS: ['casino'], RESTRICTED_NAMES: ['Owner'] },
    });

    const answer = await post(
      route,
      { ...body, nick: 'Owner', comment: 'No casino here' },
      { authorization: adminToken },
    );

    expect(answer.statusCode).toBe(200);
    expect(calls.insert).toHaveLength(1);
  });

  it('reads the first-comment time with the marks only under READONLY_AGE, and refuses with a 409 past it', async () => {
    const days = 30;
    const old = submitRoute({
      config: { READONLY_AGE: days },
      marks: { firstCommentAt: now - days * 86_400_000 - 1 },
    });
    const young = submitRoute({
      config: { READONLY_AGE: days },
      marks: { firstCommentAt: now - days * 86_400_000 },
    });
    const off = submitRoute({ marks: { firstCommentAt: 0 } });

    const closed = await post(old.route, body);
    const open = await post(young.route, body);
    const unlimited = await post(off.route, body);

    expect(closed.statusCode).toBe(409);
    expect(closed.body).toMatchObject({
      errno: 1000,
      errmsg: 'This article is closed to new comments: it has been open for 30 days since its first comment.',
    });
    expectNothingDone(old.calls);
    expect(old.calls.readSubmitMarks[0]).toMatchObject({ withFirstCommentAt: true });
    expect(open.statusCode).toBe(200);
    expect(unlimited.statusCode).toBe(200);
    expect(off.calls.readSubmitMarks[0]).not.toHaveProperty('withFirstCommentAt');
  });

  it('answers READONLY_AGE in Chinese, keeps an article without a first-comment time open, and lets an administrator in', async () => {
    const closed = submitRoute({ config: { READONLY_AGE: 1 }, marks: { firstCommentAt: 0 } });
    const unknown = submitRoute({ config: { READONLY_AGE: 1 } });

    const chinese = await routeAnswer(closed.route, {
      method: 'POST',
      path: '/api/comment',
      body,
      query: 'lang=zh-CN',
      sourceIp: ip,
    });
    const byAdmin = await post(closed.route, body, { authorization: adminToken });
    const open = await post(unknown.route, body);

    expect(chinese.statusCode).toBe(409);
    expect(chinese.body).toMatchObject({ errmsg: '此文章已关闭评论：自第一条评论起已开放 1 天。' });
    expect(byAdmin.statusCode).toBe(200);
    expect(open.statusCode).toBe(200);
  });

  it('asks for the trust mark of a plain address under COMMENT_AUDIT=first, and passes what it found on', async () => {
    const first = submitRoute({ config: { COMMENT_AUDIT: 'first' }, marks: { trusted: true } });
    const noAddress = submitRoute({ config: { COMMENT_AUDIT: 'first' } });
    const all = submitRoute({ config: { COMMENT_AUDIT: 'all' } });

    await post(first.route, body);
    await post(noAddress.route, { ...body, mail: 'not an address' });
    await post(all.route, body);

    expect(first.calls.readSubmitMarks[0]).toMatchObject({ trustHash: 'hash(alice@mail.example)' });
    expect(first.calls.initialStatus[0]).toMatchObject({ trusted: true });
    expect(noAddress.calls.readSubmitMarks[0]).not.toHaveProperty('trustHash');
    expect(noAddress.calls.initialStatus[0]).toMatchObject({ trusted: false });
    expect(all.calls.readSubmitMarks[0]).not.toHaveProperty('trustHash');
  });
});
