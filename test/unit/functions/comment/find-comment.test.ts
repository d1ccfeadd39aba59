import { afterEach, describe, expect, it, vi } from 'vitest';
import { findComment } from '../../../../functions/comment/find-comment.js';
import type { ApiRequest } from '../../../../functions/shared/http/request.js';
import type {
  CommentLocation,
  CommentRepository,
} from '../../../../functions/shared/table/comment-repository.js';

const request = (id: string): ApiRequest => ({
  routeKey: 'PUT /api/comment/{id}',
  method: 'PUT',
  path: `/api/comment/${id}`,
  legacy: false,
  lang: 'en',
  sourceIp: '127.0.0.1',
  id,
  authorization: undefined,
  origin: undefined,
  host: undefined,
  contentType: undefined,
  header: () => undefined,
  queryAll: () => [],
  query: () => undefined,
  jsonBody: () => undefined,
});

/** A repository whose id index answers each look in turn from `answers`. */
function lookingUp(...answers: (CommentLocation | undefined)[]) {
  const locate = vi.fn(async (_id: string) => answers.shift());
  return { comments: { locate } as unknown as CommentRepository, locate };
}

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('findComment', () => {
  afterEach(() => vi.useRealTimers());

  it('finds a comment the id index knows at the first look, without waiting', async () => {
    const { comments, locate } = lookingUp({ url: '/p', id: '01A', like: 0 });

    await expect(findComment(comments, request('01A'))).resolves.toEqual({ url: '/p', id: '01A', like: 0 });
    expect(locate).toHaveBeenCalledTimes(1);
  });

  it('looks once more, a whole 250 ms later, for a comment the index has not caught up with', async () => {
    vi.useFakeTimers();
    const { comments, locate } = lookingUp(undefined, { url: '/p', id: '01A', rid: '01R', like: 1 });

    const outcome = settle(findComment(comments, request('01A')));
    await vi.advanceTimersByTimeAsync(249);
    expect(locate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);

    expect(await outcome).toEqual({ value: { url: '/p', id: '01A', rid: '01R', like: 1 } });
    expect(locate).toHaveBeenCalledTimes(2);
  });

  it('answers 404 after the second look, and looks no more', async () => {
    vi.useFakeTimers();
    const { comments, locate } = lookingUp(undefined, undefined, { url: '/p', id: '01A', like: 0 });

    const outcome = settle(findComment(comments, request('01A')));
    await vi.runAllTimersAsync();

    expect(await outcome).toMatchObject({ error: { code: 'not_found' } });
    expect(locate).toHaveBeenCalledTimes(2);
  });
});
