/**
 * A yardstick of the cold-start measure (cold-start.ts): a Lambda handler that renders one comment with the
 * functions' markdown renderer (markdown-it, its plugins and sanitize-html, loaded on first use as the
 * comment function loads them: functions/shared/domain/write-only-modules.ts) and nothing else. Its first
 * answer, less the empty handler's, is what a first submit's render alone adds to a cold start.
 */
import { allMarkdownFeatures } from '../../functions/shared/domain/render-markdown.js';
import { loadMarkdownRenderer } from '../../functions/shared/domain/write-only-modules.js';

const render = loadMarkdownRenderer(allMarkdownFeatures);

/** Renders the cold-start case's comment and answers 200. */
export async function handler(): Promise<{ statusCode: number }> {
  const html = await render('Hello **world**, a [link](https://example.com).');
  return { statusCode: html.includes('<strong>world</strong>') ? 200 : 500 };
}
