import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CommentStatus } from '../domain/comment.js';
import { layoutVersion } from './table-definition.js';
import { attributes, entities, keys } from './keys.js';
import { layoutGuard } from './layout.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How much a set of comments adds to the page and site counters. */
export interface CounterDelta {
  /** Visible (approved) comments and roots of the page, and those held (waiting or spam) from visitors. */
  readonly page: { comments: number; roots: number; held: number; heldRoots: number };
  /** Visible comments of the site, and the moderation queues. */
  readonly site: { comments: number; waiting: number; spam: number };
}

/** What one comment of `status` counts for: only approved comments are visible. */
export function contribution(status: CommentStatus, isRoot: boolean): CounterDelta {
  const approved = status === 'approved' ? 1 : 0;
  const held = 1 - approved;
  return {
    page: {
      comments: approved,
      roots: approved && isRoot ? 1 : 0,
      held,
      heldRoots: held && isRoot ? 1 : 0,
    },
    site: { comments: approved, waiting: status === 'waiting' ? 1 : 0, spam: status === 'spam' ? 1 : 0 },
  };
}

/** `a` plus `sign` times `b`, field by field. */
export function combine(a: CounterDelta, b: CounterDelta, sign: 1 | -1 = 1): CounterDelta {
  return {
    page: {
      comments: a.page.comments + sign * b.page.comments,
      roots: a.page.roots + sign * b.page.roots,
      held: a.page.held + sign * b.page.held,
      heldRoots: a.page.heldRoots + sign * b.page.heldRoots,
    },
    site: {
      comments: a.site.comments + sign * b.site.comments,
      waiting: a.site.waiting + sign * b.site.waiting,
      spam: a.site.spam + sign * b.site.spam,
    },
  };
}

/** No change. */
export const noDelta: CounterDelta = {
  page: { comments: 0, roots: 0, held: 0, heldRoots: 0 },
  site: { comments: 0, waiting: 0, spam: 0 },
};

/**
 * On the page counters: when the article got its first approved comment (epoch ms), for `READONLY_AGE`. Set
 * by the first comment stored or made approved, never moved after (a deleted first comment leaves it as is).
 */
export const firstCommentAttribute = 'firstCommentAt';

const addItem = (
  tableName: string,
  key: ReturnType<typeof keys.siteCounters>,
  counts: Record<string, number>,
  set: Record<string, string | number>,
  guard?: typeof layoutGuard,
  setIfAbsent: Record<string, number> = {},
): TransactItem[] => {
  const changed = Object.entries(counts).filter(([, value]) => value !== 0);
  if (changed.length === 0) return [];
  const names = { ...Object.fromEntries(changed.map(([name], i) => [`#c${i}`, name])) };
  const values: Record<string, unknown> = Object.fromEntries(
    changed.map(([, value], i) => [`:c${i}`, value]),
  );
  const sets = Object.entries(set);
  sets.forEach(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
  });
  const firsts = Object.entries(setIfAbsent);
  firsts.forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
  });
  const assignments = [
    ...sets.map((_, i) => `#s${i} = :s${i}`),
    // if_not_exists keeps the value a first write gave: the earliest writer wins, in the same update, no read.
    ...firsts.map((_, i) => `#f${i} = if_not_exists(#f${i}, :f${i})`),
  ];
  return [
    {
      Update: {
        TableName: tableName,
        Key: key,
        // ADD moves each counter in place, by a signed amount: exact under concurrency, no read.
        UpdateExpression:
          `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')}` +
          (assignments.length > 0 ? ` SET ${assignments.join(', ')}` : ''),
        ExpressionAttributeNames: { ...names, ...guard?.ExpressionAttributeNames },
        ExpressionAttributeValues: { ...values, ...guard?.ExpressionAttributeValues },
        ...(guard ? { ConditionExpression: guard.ConditionExpression } : {}),
      },
    },
  ];
};

/**
 * The transaction items that apply `delta` to the counters of `url` and of the site (none for zeros). A comment
 * that is approved as it is stored, or made approved, passes `approvedCommentAt`, its time: the page keeps the
 * first such time as its first-comment time. A held comment passes none: anyone may post one, on any url, so it
 * must not start the clock of an article not yet published (READONLY_AGE would close it as it comes out).
 */
export function counterUpdates(
  tableName: string,
  url: string,
  delta: CounterDelta,
  approvedCommentAt?: number,
): TransactItem[] {
  return [
    ...addItem(
      tableName,
      keys.pageCounters(url),
      delta.page,
      { entity: entities.pageCounters, url },
      undefined,
      approvedCommentAt === undefined ? {} : { [firstCommentAttribute]: approvedCommentAt },
    ),
    // The site item also carries the layout: a write to a table of the previous layout is refused.
    ...addItem(
      tableName,
      keys.siteCounters(),
      delta.site,
      { entity: entities.siteCounters, [attributes.layout]: layoutVersion },
      layoutGuard,
    ),
  ];
}
