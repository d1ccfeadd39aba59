import { describe, expect, it, vi } from 'vitest';
import type { Router } from '../../../../../functions/shared/http/http-function.js';
import type { ApiRequest } from '../../../../../functions/shared/http/request.js';
import { lazyRoute } from '../../../../../functions/shared/http/lazy-route.js';

const request = { routeKey: 'GET /ui' } as unknown as ApiRequest;
const ok = { statusCode: 200, headers: {}, body: 'ok' };

describe('lazyRoute', () => {
  it('builds the route on its first request, once, and answers every request with it', async () => {
    const answer = vi.fn(async () => ok);
    const load = vi.fn(async () => answer);
    const route = lazyRoute(load);

    expect(load).not.toHaveBeenCalled();
    const answers = await Promise.all([route(request), route(request)]);
    await route(request);

    expect(answers).toEqual([ok, ok]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(answer).toHaveBeenCalledTimes(3);
  });

  it('tries a load that failed again on the next request', async () => {
    const load = vi
      .fn<() => Promise<Router>>()
      .mockRejectedValueOnce(new Error('chunk not readable'))
      .mockResolvedValue(async () => ok);
    const route = lazyRoute(load);

    await expect(route(request)).rejects.toThrow('chunk not readable');
    await expect(route(request)).resolves.toEqual(ok);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
