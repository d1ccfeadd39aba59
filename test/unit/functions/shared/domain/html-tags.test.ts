import { describe, expect, it } from 'vitest';
import {
  commentBlockTags,
  commentInlineTags,
  headingTags,
  markdownTags,
  tableTags,
} from '../../../../../functions/shared/domain/html-tags.js';
import { renderMarkdown } from '../../../../../functions/shared/domain/render-markdown.js';

// Each list pinned exactly: a tag added to or dropped from a group shows here, and in each list derived from it
// (mail-safe-html.test.ts pins the mail's and the plain text's).
describe('html-tags', () => {
  it('holds the six headings and the table parts markdown writes', () => {
    expect(headingTags).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
    expect(tableTags).toEqual(['table', 'thead', 'tbody', 'tr', 'th', 'td']);
  });

  it('holds the blocks and the inline markup a comment keeps wherever it is shown', () => {
    expect(commentBlockTags).toEqual([
      'p',
      'hr',
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
      'blockquote',
      'ul',
      'ol',
      'li',
      'pre',
      ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
    ]);
    expect(commentInlineTags).toEqual(['br', 'strong', 'em', 'del', 's', 'sub', 'sup', 'code']);
  });

  it('gives the markdown renderer the comment tags with mark, details, summary, a and img', () => {
    expect(markdownTags).toEqual([
      ...commentBlockTags,
      ...commentInlineTags,
      'mark',
      'details',
      'summary',
      'a',
      'img',
    ]);
    expect(new Set(markdownTags).size).toBe(markdownTags.length);
  });

  it('is what the markdown renderer keeps: each of its tags survives rendering, another does not', () => {
    const kept = (tag: string) => renderMarkdown(`<${tag}>x</${tag}>`).includes(`<${tag}`);

    for (const tag of markdownTags.filter((name) => !['a', 'img', 'br', 'hr'].includes(name))) {
      expect(kept(tag), tag).toBe(true);
    }
    expect(kept('b')).toBe(false);
    expect(kept('div')).toBe(false);
  });
});
