/**
 * The modules only writes need, loaded on first use: the markdown renderer (markdown-it, its plugins,
 * sanitize-html), Prism, KaTeX, the user-agent parser, and the region database (mmdb-lib and its 8 MB file). The bundles keep each in a chunk of its own
 * (lib/bundle-options.ts), so a cold start that serves a list or a count neither reads nor evaluates them.
 */
import { once } from '../once.js';
import type { MarkdownFeatures } from './render-markdown.js';

/** A code fence's opening line (CommonMark: up to three spaces, then three backticks or tildes). */
const codeFence = /^ {0,3}(```|~~~)/m;

const loadRenderer = once(() => import('./render-markdown.js'));
const loadTex = once(() => import('./tex-to-mathml.js'));
const loadPrism = once(() => import('./highlight-code.js'));

/**
 * A markdown renderer with `features` (render-markdown.ts) that loads its modules on first use: the
 * renderer on the first comment, KaTeX on the first comment with a `$` (when TeX is on), Prism on the
 * first with a code fence (when highlighting is on): most comments need neither, and a cold start that
 * stores one pays for neither.
 */
export function loadMarkdownRenderer(features: MarkdownFeatures): (text: string) => Promise<string> {
  return async (text) => {
    const [{ renderMarkdown }, tex, prism] = await Promise.all([
      loadRenderer(),
      features.tex && text.includes('$') ? loadTex() : undefined,
      features.highlight && codeFence.test(text) ? loadPrism() : undefined,
    ]);
    return renderMarkdown(text, features, tex?.texToMathml, prism?.prismHighlighter);
  };
}

/** See the module comment. */
export const loadUserAgentParser = once(() => import('./user-agent.js'));

/** The region of an IP (region/region-lookup.ts): its module and its database, read on the first write that asks. */
export const loadRegionOf = once(async () => (await import('../region/region-lookup.js')).loadRegionLookup());
