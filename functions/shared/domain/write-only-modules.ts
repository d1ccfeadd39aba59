/**
 * The markdown renderer (markdown-it, sanitize-html) and the user-agent parser, loaded on first use.
 * Only writes need them; behind `import()` the bundle still carries them, but a cold start that serves
 * a list or a count does not evaluate them.
 */
export const loadMarkdownRenderer = () => import('./render-markdown.js');

/** See loadMarkdownRenderer. */
export const loadUserAgentParser = () => import('./user-agent.js');
