import { describe, expect, it } from 'vitest';
import {
  combine,
  contribution,
  counterUpdates,
  noDelta,
} from '../../../../../functions/shared/storage/counter-deltas.js';

describe('counter deltas', () => {
  it('counts only approved comments as visible, and roots only when approved', () => {
    expect(contribution('approved', true)).toEqual({
      page: { comments: 1, roots: 1 },
      site: { comments: 1, waiting: 0, spam: 0 },
    });
    expect(contribution('approved', false).page).toEqual({ comments: 1, roots: 0 });
    expect(contribution('waiting', true)).toEqual({
      page: { comments: 0, roots: 0 },
      site: { comments: 0, waiting: 1, spam: 0 },
    });
    expect(contribution('spam', true).site).toEqual({ comments: 0, waiting: 0, spam: 1 });
  });

  it('gives the change of a status transition as the new contribution minus the old', () => {
    const approveWaitingRoot = combine(contribution('approved', true), contribution('waiting', true), -1);
    const spamApprovedReply = combine(contribution('spam', false), contribution('approved', false), -1);

    expect(approveWaitingRoot).toEqual({
      page: { comments: 1, roots: 1 },
      site: { comments: 1, waiting: -1, spam: 0 },
    });
    expect(spamApprovedReply).toEqual({
      page: { comments: -1, roots: 0 },
      site: { comments: -1, waiting: 0, spam: 1 },
    });
  });

  it('writes no update for counters that do not change', () => {
    expect(counterUpdates('t', '/p', noDelta)).toEqual([]);
    const updates = counterUpdates('t', '/p', combine(noDelta, contribution('waiting', true)));

    expect(updates).toHaveLength(1);
    expect(updates[0]?.Update?.Key).toEqual({ pk: 'SITE', sk: 'SITE' });
    expect(updates[0]?.Update?.ExpressionAttributeNames).toMatchObject({ '#c0': 'waiting' });
  });
});
