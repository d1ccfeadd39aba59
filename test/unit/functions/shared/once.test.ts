import { describe, expect, it, vi } from 'vitest';
import { once } from '../../../../functions/shared/once.js';

describe('once', () => {
  it('loads on the first call only, and hands every call the same result', async () => {
    const load = vi.fn(async () => ({ loaded: true }));
    const get = once(load);

    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([get(), get()]);
    const third = await get();

    expect(load).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it('tries a load that failed again on the next call', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk missing')).mockResolvedValue('module');
    const get = once(load);

    await expect(get()).rejects.toThrow('chunk missing');
    expect(await get()).toBe('module');
    expect(await get()).toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
