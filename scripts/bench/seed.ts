/**
 * The data every case reads, posted through the HTTP API like a widget would: one article with 30 root
 * comments, a few shorter threads elsewhere (so recent spans several pages), and pageviews on 3 paths.
 */

/** Paths of the seeded data. */
export const seeded = {
  /** 30 root comments, no replies: the list-30 and count cases. */
  listPath: '/bench/list-30',
  listRoots: 30,
  /** Three threads of a root and two replies each. */
  otherPaths: ['/bench/other-1', '/bench/other-2', '/bench/other-3'],
  /** Reading counts of these three: the article-get3 case. */
  readingPaths: ['/bench/read-a', '/bench/read-b', '/bench/read-c'],
  readingViews: [12, 5, 1],
  /** The counter the article-post case increments. */
  pageviewPath: '/bench/pageviews',
  /** Where the comment-post case posts (nothing else reads it). */
  postPath: '/bench/posted',
} as const;

/** What the costs step needs of the seeded data. */
export interface SeededIds {
  /** Ids of the 30 roots of `listPath`, oldest first. */
  readonly listRootIds: readonly string[];
}

/** The user agent every seeded comment was posted with. */
export const userAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A comment of a few hundred bytes, with the markdown a real one has: emphasis, a link, code. */
export function commentText(index: number): string {
  return (
    `Comment ${index}: I **really** enjoyed this post. The part about _single-table design_ ` +
    `reminded me of [an older article](https://example.com/posts/${index}) on the same topic, ` +
    'and `ADD` is the right tool for counters.\n\nThanks for writing it!'
  );
}

/**
 * Posts the seed data to the server at `base` (which must run with its per-IP limit off): Marginalia, or the real Waline
 * (waline-server.ts), whose comment ids are numbers.
 */
export async function seedData(base: string): Promise<SeededIds> {
  const post = async (target: string, body: unknown): Promise<{ objectId?: string | number }> => {
    const response = await fetch(`${base}${target}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { errno?: number; data?: unknown };
    if (!response.ok || answer.errno !== 0) {
      throw new Error(`seeding ${target} failed: ${response.status} ${JSON.stringify(answer)}`);
    }
    return (answer.data ?? {}) as { objectId?: string | number };
  };
  const comment = (url: string, index: number, reply?: { pid: string | number; rid: string | number }) =>
    post('/api/comment?lang=en-US', {
      comment: commentText(index),
      url,
      nick: `Reader ${index}`,
      mail: `reader${index}@example.com`,
      link: `https://reader${index}.example.com`,
      ua: userAgent,
      ...reply,
    });

  const listRootIds: string[] = [];
  for (let index = 1; index <= seeded.listRoots; index++) {
    const { objectId } = await comment(seeded.listPath, index);
    if (!objectId) throw new Error('seeding: a posted comment came back without an objectId');
    listRootIds.push(String(objectId));
  }
  let index = 100;
  for (const path of seeded.otherPaths) {
    const { objectId: root } = await comment(path, index++);
    if (!root) throw new Error('seeding: a posted comment came back without an objectId');
    await comment(path, index++, { pid: root, rid: root });
    await comment(path, index++, { pid: root, rid: root });
  }
  for (const [position, path] of seeded.readingPaths.entries()) {
    for (let view = 0; view < (seeded.readingViews[position] ?? 0); view++) {
      await post('/api/article?lang=en-US', { path, type: 'time', action: 'inc' });
    }
  }
  return { listRootIds };
}
