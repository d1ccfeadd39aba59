import { describe, expect, it } from 'vitest';
import { failureReason } from '../../../../../functions/notify/channels/failure-reason.js';

describe('failureReason', () => {
  it('gives the message of the deepest cause, not fetch’s own', () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:8443');
    const error = new TypeError('fetch failed', { cause: new Error('socket', { cause: refused }) });
    expect(failureReason(error)).toBe('connect ECONNREFUSED 127.0.0.1:8443');
  });

  it('stops at a cause that is not an error', () => {
    expect(failureReason(new Error('outer', { cause: 'a string' }))).toBe('outer');
  });

  it('says a timeout in words, wherever it is in the chain', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(failureReason(timeout)).toBe('no answer in time');
    const wrapped = new Error('fetch failed', {
      cause: Object.assign(new Error('t'), { name: 'TimeoutError' }),
    });
    expect(failureReason(wrapped)).toBe('no answer in time');
    expect(failureReason(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe('aborted');
  });

  it('gives a thrown value that is not an error as text', () => {
    expect(failureReason('refused')).toBe('refused');
    expect(failureReason(404)).toBe('404');
    expect(failureReason(undefined)).toBe('undefined');
  });
});
