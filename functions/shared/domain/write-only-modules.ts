/**
 * The modules only writes need, loaded on first use: the markdown renderer (markdown-it, its plugins,
 * Prism, sanitize-html), KaTeX, and the user-agent parser. The bundles keep each in a chunk of its own
 * (lib/bundle-options.ts), so a cold start that serves a list or a count neither reads nor evaluates them.
 */
import type { MarkdownFeatures } from './render-markdown.js';

/**
 * A markdown renderer with `features` (render-markdown.ts) that loads its modules on first use: the
 * renderer on the first comment, KaTeX on the first comment with a `$` (when TeX is on), which most
 * comments never need.
 */
export function loadMarkdownRenderer(features: MarkdownFeatures): (text: string) => Promise<string> {
  return async (text) => {
    const [{ renderMarkdown }, tex] = await Promise.all([
      import('./render-markdown.js'),
      features.tex && text.includes('$') ? import('./tex-to-mathml.js') : undefined,
    ]);
    return renderMarkdown(text, features, tex?.texToMathml);
  };
}

/** See the module comment. */
export const loadUserAgentParser = () => import('./user-agent.js');
