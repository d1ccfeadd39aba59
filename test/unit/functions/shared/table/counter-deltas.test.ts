import { describe, expect, it } from 'vitest';
import {
  combine,
  contribution,
  counterUpdates,
  noDelta,
} from '../../../../../functions/shared/table/counter-deltas.js';

/** The guard the site update carries: a new site item, or one of layout 3. */
const layoutGuard = {
  ConditionExpression: 'attribute_not_exists(#layoutPk) OR #layout = :layout',
  names: { '#layoutPk': 'pk', '#layout': 'layout' },
  values: { ':layout': 3 },
};

describe('counter deltas', () => {
  it('counts approved comments as visible and the others as held, and roots apart in each', () => {
    expect(contribution('approved', true)).toEqual({
      page: { comments: 1, roots: 1, held: 0, heldRoots: 0 },
      site: { comments: 1, waiting: 0, spam: 0 },
    });
    expect(contribution('approved', false).page).toEqual({ comments: 1, roots: 0, held: 0, heldRoots: 0 });
    expect(contribution('waiting', true)).toEqual({
      page: { comments: 0, roots: 0, held: 1, heldRoots: 1 },
      site: { comments: 0, waiting: 1, spam: 0 },
    });
    expect(contribution('spam', false)).toEqual({
      page: { comments: 0, roots: 0, held: 1, heldRoots: 0 },
      site: { comments: 0, waiting: 0, spam: 1 },
    });
  });

  it('gives the change of a status transition as the new contribution minus the old', () => {
    const approveWaitingRoot = combine(contribution('approved', true), contribution('waiting', true), -1);
    const spamApprovedReply = combine(contribution('spam', false), contribution('approved', false), -1);
    const spamWaitingRoot = combine(contribution('spam', true), contribution('waiting', true), -1);

    expect(approveWaitingRoot).toEqual({
      page: { comments: 1, roots: 1, held: -1, heldRoots: -1 },
      site: { comments: 1, waiting: -1, spam: 0 },
    });
    expect(spamApprovedReply).toEqual({
      page: { comments: -1, roots: 0, held: 1, heldRoots: 0 },
      site: { comments: -1, waiting: 0, spam: 1 },
    });
    expect(spamWaitingRoot).toEqual({
      page: { comments: 0, roots: 0, held: 0, heldRoots: 0 },
      site: { comments: 0, waiting: -1, spam: 1 },
    });
  });

  it('takes a comment out of the spam queue when it leaves spam', () => {
    expect(combine(contribution('approved', false), contribution('spam', false), -1)).toEqual({
      page: { comments: 1, roots: 0, held: -1, heldRoots: 0 },
      site: { comments: 1, waiting: 0, spam: -1 },
    });
    expect(combine(contribution('waiting', true), contribution('spam', true), -1).site).toEqual({
      comments: 0,
      waiting: 1,
      spam: -1,
    });
  });

  it('adds field by field when no sign is given', () => {
    expect(combine(contribution('spam', true), contribution('spam', false))).toEqual({
      page: { comments: 0, roots: 0, held: 2, heldRoots: 1 },
      site: { comments: 0, waiting: 0, spam: 2 },
    });
  });

  it('has noDelta change nothing: every counter at zero, and the identity of combine', () => {
    expect(noDelta).toEqual({
      page: { comments: 0, roots: 0, held: 0, heldRoots: 0 },
      site: { comments: 0, waiting: 0, spam: 0 },
    });
    expect(combine(noDelta, contribution('spam', true))).toEqual(contribution('spam', true));
  });

  it('adds a signed amount to each counter that changes, and carries the layout guard on the site update', () => {
    const hideApprovedRoot = combine(contribution('waiting', true), contribution('approved', true), -1);

    expect(counterUpdates('t', '/p', hideApprovedRoot)).toEqual([
      {
        Update: {
          TableName: 't',
          Key: { pk: 'URL#/p', sk: 'PAGE' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2, #c3 :c3 SET #s0 = :s0, #s1 = :s1',
          ExpressionAttributeNames: {
            '#c0': 'comments',
            '#c1': 'roots',
            '#c2': 'held',
            '#c3': 'heldRoots',
            '#s0': 'entity',
            '#s1': 'url',
          },
          ExpressionAttributeValues: { ':c0': -1, ':c1': -1, ':c2': 1, ':c3': 1, ':s0': 'page', ':s1': '/p' },
        },
      },
      {
        Update: {
          TableName: 't',
          Key: { pk: 'SITE', sk: 'SITE' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1 SET #s0 = :s0, #s1 = :s1',
          ConditionExpression: layoutGuard.ConditionExpression,
          ExpressionAttributeNames: {
            '#c0': 'comments',
            '#c1': 'waiting',
            '#s0': 'entity',
            '#s1': 'layout',
            ...layoutGuard.names,
          },
          ExpressionAttributeValues: { ':c0': -1, ':c1': 1, ':s0': 'site', ':s1': 3, ...layoutGuard.values },
        },
      },
    ]);
  });

  it("sets the page's first-comment time only when absent, given an approved comment's time", () => {
    const [page, site] = counterUpdates('t', '/p', contribution('waiting', true), 1234);

    expect(page?.Update?.UpdateExpression).toBe(
      'ADD #c0 :c0, #c1 :c1 SET #s0 = :s0, #s1 = :s1, #f0 = if_not_exists(#f0, :f0)',
    );
    expect(page?.Update?.ExpressionAttributeNames).toEqual({
      '#c0': 'held',
      '#c1': 'heldRoots',
      '#s0': 'entity',
      '#s1': 'url',
      '#f0': 'firstCommentAt',
    });
    expect(page?.Update?.ExpressionAttributeValues).toEqual({
      ':c0': 1,
      ':c1': 1,
      ':s0': 'page',
      ':s1': '/p',
      ':f0': 1234,
    });
    expect(site?.Update?.UpdateExpression).toBe('ADD #c0 :c0 SET #s0 = :s0, #s1 = :s1');
  });

  it('writes no update for counters that do not change', () => {
    expect(counterUpdates('t', '/p', noDelta)).toEqual([]);
    // A held reply moving from waiting to spam stays held: only the site's queues move.
    const updates = counterUpdates(
      't',
      '/p',
      combine(contribution('spam', false), contribution('waiting', false), -1),
    );

    expect(updates).toHaveLength(1);
    expect(updates[0]?.Update?.Key).toEqual({ pk: 'SITE', sk: 'SITE' });
    expect(updates[0]?.Update?.UpdateExpression).toBe('ADD #c0 :c0, #c1 :c1 SET #s0 = :s0, #s1 = :s1');
    expect(updates[0]?.Update?.ExpressionAttributeNames).toMatchObject({ '#c0': 'waiting', '#c1': 'spam' });
    expect(updates[0]?.Update?.ExpressionAttributeValues).toMatchObject({ ':c0': -1, ':c1': 1 });
    expect(updates[0]?.Update?.ConditionExpression).toBe(layoutGuard.ConditionExpression);
  });
});
