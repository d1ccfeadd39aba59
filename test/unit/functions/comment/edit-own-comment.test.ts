import { describe, expect, it } from 'vitest';
import {
  createEditOwnComment,
  type EditOwnCommentDependencies,
} from '../../../../functions/comment/edit-own-comment.js';
import { createDeleteOwnComment } from '../../../../functions/comment/delete-own-comment.js';
import type { StatusInput } from '../../../../functions/comment/initial-status.js';
import type { Caller } from '../../../../functions/shared/auth/viewer.js';
import type { Account } from '../../../../functions/shared/domain/account.js';
import type { CommentStatus } from '../../../../functions/shared/domain/comment.js';
import { AppError } from '../../../../functions/shared/domain/errors.js';
import { envelope } from '../../../../functions/shared/http/envelope.js';
import type {
  ModeratedComment,
  ModerationChange,
} from '../../../../functions/shared/table/moderation-items.js';
import type { ModerationRepository } from '../../../../functions/shared/table/moderation-repository.js';
import { routeAnswer } from '../../../support/route-answer.js';

const postedAt = Date.UTC(2026, 4, 1, 12, 0, 0);
const minute = 60_000;
const guestToken = 'Bearer guest';
const otherToken = 'Bearer other';
const adminToken = 'Bearer admin';
const bannedToken = 'Bearer banned';

const accountOf = (id: string, type: 'administrator' | 'guest'): Account => ({
  id,
  email: `${id}@mail.example`,
  displayName: `Name ${id}`,
  type,
  state: 'active',
  passwordHash: 'x',
  sessionVersion: 1,
  createdAt: 0,
});
const signedIn = (account: Account): Caller => ({
  kind: 'account',
  viewer: {
    id: account.id,
    email: account.email,
    type: account.type === 'administrator' ? 'administrator' : 'guest',
    sessionVersion: 1,
    account,
  },
});
const callers: Record<string, Caller> = {
  [guestToken]: signedIn(accountOf('acct-1', 'guest')),
  [otherToken]: signedIn(accountOf('acct-2', 'guest')),
  [adminToken]: signedIn(accountOf('admin-1', 'administrator')),
  [bannedToken]: { kind: 'banned' },
};
const resolveCaller = async (authorization: string | undefined): Promise<Caller> =>
  (authorization ? callers[authorization] : undefined) ?? { kind: 'anonymous' };

const stored = (extra: Partial<ModeratedComment> = {}): ModeratedComment => ({
  id: '01A',
  url: '/post',
  nick: 'Name acct-1',
  mail: 'acct-1@mail.example',
  link: '',
  browser: '',
  os: '',
  orig: 'before',
  html: '<p>before</p>',
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: postedAt,
  userId: 'acct-1',
  ...extra,
});

interface Setup {
  readonly comment?: ModeratedComment;
  readonly at?: number;
  readonly filtered?: CommentStatus;
  readonly config?: Partial<EditOwnCommentDependencies['config']>;
  readonly captcha?: boolean;
}

function editRoute(setup: Setup = {}) {
  let current = setup.comment ?? stored();
  const calls = {
    moderate: [] as ModerationChange[],
    statusInputs: [] as StatusInput[],
    admin: 0,
    demand: 0,
    verify: 0,
  };
  const route = createEditOwnComment({
    caller: resolveCaller,
    comments: { locate: async (id) => ({ id, url: current.url, status: current.status, like: 0 }) },
    moderation: {
      get: async () => current,
      moderate: async (_, change) => {
        calls.moderate.push(change);
        current = {
          ...current,
          ...(change.text ?? {}),
          ...(change.status ? { status: change.status } : {}),
        };
        return true;
      },
    },
    config: {
      EDIT_WINDOW: 15,
      IP_HASH_SALT: 'salt-0123456789abcdef',
      BLOCKED_IP_HASHES: [],
      BLOCKED_WORDS: [],
      ...setup.config,
    },
    captcha: {
      demand: async (tokens) => {
        calls.demand += 1;
        if (setup.captcha && !tokens.turnstile)
          throw new AppError('forbidden', 'captcha', { turnstile: 'required' });
        return { kind: 'none' };
      },
      verify: async () => {
        calls.verify += 1;
        return { passed: true };
      },
    },
    renderMarkdown: async (text) => `<p>${text}</p>`,
    initialStatus: async (input) => {
      calls.statusInputs.push(input);
      return { status: setup.filtered ?? 'approved' };
    },
    moderate: async () => {
      calls.admin += 1;
      return envelope('moderated');
    },
    now: () => setup.at ?? postedAt + minute,
    presentation: { avatarFor: ({ nick }) => `https://avatar.example/${nick}`, showUserAgent: false },
  });
  const edit = (body: Record<string, unknown>, authorization?: string) =>
    routeAnswer(route, {
      method: 'PUT',
      path: '/api/comment/01A',
      body,
      ...(authorization ? { headers: { authorization } } : {}),
    });
  return { edit, calls };
}

const widgetEdit = {
  comment: 'after',
  nick: 'Mallory',
  mail: 'mallory@evil.example',
  link: 'https://evil.example',
  url: '/elsewhere',
  ua: 'x',
};

describe('createEditOwnComment', () => {
  it("re-renders its author's text within the window and takes nothing but the text from the body", async () => {
    const { edit, calls } = editRoute();

    const answer = await edit(widgetEdit, guestToken);

    expect(answer.statusCode).toBe(200);
    expect(calls.moderate).toEqual([{ text: { orig: 'after', html: '<p>after</p>' }, ownerId: 'acct-1' }]);
    expect(calls.statusInputs[0]).toMatchObject({
      byAdmin: false,
      text: 'after',
      nick: 'Name acct-1',
      mail: 'acct-1@mail.example',
      url: '/post',
    });
    expect(answer.body).toMatchObject({
      data: {
        objectId: '01A',
        comment: '<p>after</p>',
        orig: 'after',
        nick: 'Name acct-1',
        user_id: 'acct-1',
      },
    });
  });

  it('refuses its author once the window has passed, with a 403 that names EDIT_WINDOW', async () => {
    const { edit, calls } = editRoute({ at: postedAt + 15 * minute + 1 });

    const answer = await edit(widgetEdit, guestToken);

    expect(answer.statusCode).toBe(403);
    expect(answer.body).toMatchObject({
      errmsg: expect.stringContaining('15 minutes'),
      details: { comment: expect.stringContaining('EDIT_WINDOW') },
    });
    expect(calls.moderate).toEqual([]);
  });

  it('refuses another account, and anyone on an anonymous comment, with a 403', async () => {
    const other = editRoute();
    const refused = await other.edit(widgetEdit, otherToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatchObject({
      errmsg: 'Comment 01A is not yours: only its author or an administrator may change or delete it.',
    });

    const anonymous = editRoute({ comment: stored({ userId: undefined }) });
    expect((await anonymous.edit(widgetEdit, guestToken)).statusCode).toBe(403);
    expect([...other.calls.moderate, ...anonymous.calls.moderate]).toEqual([]);
  });

  it('answers an anonymous edit 401 and a banned account 403, reading nothing', async () => {
    const { edit, calls } = editRoute();

    expect((await edit(widgetEdit)).statusCode).toBe(401);
    expect((await edit(widgetEdit, bannedToken)).statusCode).toBe(403);
    expect(calls.demand).toBe(0);
  });

  it("answers a body without text 403 for another's comment and 400 naming comment for the author's", async () => {
    const { edit, calls } = editRoute();

    expect((await edit({ status: 'approved' }, otherToken)).statusCode).toBe(403);
    const answer = await edit({ status: 'approved' }, guestToken);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatchObject({ details: { comment: expect.stringContaining('is required') } });
    expect(calls.moderate).toEqual([]);
  });

  it("hands an administrator's change to moderation, as before", async () => {
    const { edit, calls } = editRoute();

    const answer = await edit({ status: 'spam' }, adminToken);

    expect(answer.body).toMatchObject({ data: 'moderated' });
    expect(calls.admin).toBe(1);
    expect(calls.moderate).toEqual([]);
  });

  it('sends an approved comment the filters now hold back to waiting, in the same change as its text', async () => {
    const { edit, calls } = editRoute({ filtered: 'spam' });

    const answer = await edit(widgetEdit, guestToken);

    expect(calls.moderate).toEqual([
      { text: { orig: 'after', html: '<p>after</p>' }, status: 'waiting', ownerId: 'acct-1' },
    ]);
    expect(answer.body).toMatchObject({ data: { status: 'waiting' } });
  });

  it('never approves a held comment by an edit, and counts an approved one as trusted', async () => {
    const { edit, calls } = editRoute({ comment: stored({ status: 'waiting' }) });

    await edit(widgetEdit, guestToken);

    expect(calls.moderate).toEqual([{ text: { orig: 'after', html: '<p>after</p>' }, ownerId: 'acct-1' }]);
    expect(calls.statusInputs[0]?.trusted).toBe(false);
  });

  it('refuses a blocked word with a 403 naming comment, and demands the captcha where one is set', async () => {
    const words = editRoute({ config: { BLOCKED_WORDS: ['casino'] } });
    const blocked = await words.edit({ comment: 'casino' }, guestToken);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.body).toMatchObject({ details: { comment: expect.stringContaining('BLOCKED_WORDS') } });

    const captcha = editRoute({ captcha: true });
    const missing = await captcha.edit({ comment: 'after' }, guestToken);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toMatchObject({ details: { turnstile: 'required' } });
    expect([...words.calls.moderate, ...captcha.calls.moderate]).toEqual([]);
  });
});

/** What an author's delete answers (ModerationRepository.removeOwn). */
type RemoveOwnOutcome = Awaited<ReturnType<ModerationRepository['removeOwn']>>;

describe('createDeleteOwnComment', () => {
  function deleteRoute(outcome: RemoveOwnOutcome) {
    const calls: { removeOwn: [string, string][]; admin: number } = { removeOwn: [], admin: 0 };
    const route = createDeleteOwnComment({
      caller: resolveCaller,
      comments: { locate: async (id) => ({ id, url: '/post', status: 'approved', like: 0 }) },
      moderation: {
        removeOwn: async (ref, ownerId) => {
          calls.removeOwn.push([ref.id, ownerId]);
          return outcome;
        },
      },
      adminDelete: async () => {
        calls.admin += 1;
        return envelope('');
      },
    });
    const remove = (authorization?: string) =>
      routeAnswer(route, {
        method: 'DELETE',
        path: '/api/comment/01A',
        ...(authorization ? { headers: { authorization } } : {}),
      });
    return { remove, calls };
  }
  it("deletes its author's comment, or leaves its placeholder, as the signed-in account", async () => {
    for (const outcome of ['deleted', 'placeholder'] as const) {
      const { remove, calls } = deleteRoute({ outcome });
      const answer = await remove(guestToken);
      expect(answer).toEqual({ statusCode: 200, body: { errno: 0, errmsg: '', data: '' } });
      expect(calls.removeOwn).toEqual([['01A', 'acct-1']]);
    }
  });

  it('answers 403 for a comment that is not the caller’s, 401 anonymous, 403 banned, 404 missing, 409 changed', async () => {
    expect(
      (await deleteRoute({ outcome: 'refused', refusal: 'not-author' }).remove(otherToken)).statusCode,
    ).toBe(403);
    const anonymous = deleteRoute({ outcome: 'deleted' });
    expect((await anonymous.remove()).statusCode).toBe(401);
    expect((await anonymous.remove(bannedToken)).statusCode).toBe(403);
    expect(anonymous.calls.removeOwn).toEqual([]);
    expect((await deleteRoute({ outcome: 'missing' }).remove(guestToken)).statusCode).toBe(404);
    expect((await deleteRoute({ outcome: 'conflict' }).remove(guestToken)).statusCode).toBe(409);
  });

  it("hands an administrator's delete to the moderation delete, as before", async () => {
    const { remove, calls } = deleteRoute({ outcome: 'deleted' });

    await remove(adminToken);

    expect(calls).toEqual({ removeOwn: [], admin: 1 });
  });
});
