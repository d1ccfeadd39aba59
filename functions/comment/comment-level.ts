import type { ListedComment } from '../shared/domain/comment.js';
import type { LevelsOf } from '../shared/domain/comment-levels.js';
import type { PublicComment } from '../shared/domain/present-comment.js';

/** The level of each of `comments` by id; empty (no read) without LEVELS. */
export async function levelsByComment(
  levelsOf: LevelsOf | undefined,
  comments: readonly ListedComment[],
): Promise<Map<string, number>> {
  if (!levelsOf || comments.length === 0) return new Map();
  const levels = await levelsOf(comments);
  return new Map(comments.map((comment, index) => [comment.id, levels[index] ?? 0]));
}

/** `comment` with its author's `level`, when there is one. */
export function withLevel(comment: PublicComment, level: number | undefined): PublicComment {
  return level === undefined ? comment : { ...comment, level };
}
