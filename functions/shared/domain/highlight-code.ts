/**
 * Code highlighting as Waline's server does it: Prism, whose `<span class="token …">` the Waline widget's
 * stylesheet colours. Waline loads any of Prism's ~300 languages on demand; this registers a bounded set of
 * common ones (each costs bundle bytes), and no grammar whose worst case measured far slower than the rest
 * (markdown, scss). Loaded only for a comment with a code fence (write-only-modules.ts).
 */
import Prism from 'prismjs';
import type { CodeHighlighter } from './highlight-plugin.js';
// Each component adds itself to the global `Prism` that `prismjs` sets; the order follows their
// dependencies (clike before the C family, javascript before typescript, markup-templating before php).
import 'prismjs/components/prism-typescript.js';
import 'prismjs/components/prism-jsx.js';
import 'prismjs/components/prism-tsx.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-bash.js';
import 'prismjs/components/prism-python.js';
import 'prismjs/components/prism-java.js';
import 'prismjs/components/prism-c.js';
import 'prismjs/components/prism-cpp.js';
import 'prismjs/components/prism-csharp.js';
import 'prismjs/components/prism-go.js';
import 'prismjs/components/prism-rust.js';
import 'prismjs/components/prism-markup-templating.js';
import 'prismjs/components/prism-php.js';
import 'prismjs/components/prism-ruby.js';
import 'prismjs/components/prism-sql.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-diff.js';
import 'prismjs/components/prism-kotlin.js';
import 'prismjs/components/prism-swift.js';
import 'prismjs/components/prism-docker.js';
import 'prismjs/components/prism-ini.js';
import 'prismjs/components/prism-toml.js';
import 'prismjs/components/prism-lua.js';
import 'prismjs/components/prism-powershell.js';

/**
 * Fence names (lower case) to grammars: each registered language under its name and Prism's aliases
 * (`js`, `py`, `sh`, `html`…). A Map, so that `constructor` or `extend` in a fence names nothing.
 */
const grammars = new Map(
  Object.entries(Prism.languages).filter(
    // Besides grammars, Prism.languages holds its helpers `extend`, `insertBefore` and `DFS`.
    (entry): entry is [string, Prism.Grammar] => typeof entry[1] === 'object' && entry[1] !== null,
  ),
);

/** Every token name and alias the registered grammars can put in a `class`, besides `token`. */
function tokenClasses(): string[] {
  const names = new Set<string>(grammars.keys());
  const seen = new Set<Prism.Grammar>();
  const visit = (grammar: Prism.Grammar | undefined): void => {
    if (grammar === undefined || seen.has(grammar)) return;
    seen.add(grammar);
    for (const [name, value] of Object.entries(grammar)) {
      if (name === 'rest') {
        visit(value as Prism.Grammar);
        continue;
      }
      names.add(name);
      for (const pattern of [value].flat() as (RegExp | Prism.TokenObject)[]) {
        if (pattern instanceof RegExp) continue;
        for (const alias of [pattern.alias ?? []].flat()) names.add(alias);
        visit(pattern.inside);
      }
    }
  };
  for (const grammar of grammars.values()) visit(grammar);
  // Embedded languages (a script in HTML, PHP in a template) are tokens of alias `language-<name>`.
  for (const language of grammars.keys()) names.add(`language-${language}`);
  return [...names].sort();
}

/** The classes Prism's output can carry with the registered grammars (highlight-classes.ts writes them out). */
export const prismClasses: readonly string[] = ['token', ...tokenClasses()];

/** The fence languages that are highlighted (names and aliases). */
export const highlightedLanguages: readonly string[] = [...grammars.keys()].sort();

/**
 * `code` as Prism's HTML for `language` (a fence's first word, any case); undefined for a language not
 * registered, which markdown-it then escapes as plain text.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const name = language.toLowerCase();
  const grammar = grammars.get(name);
  return grammar === undefined ? undefined : Prism.highlight(code, grammar, name);
}

/** The highlighter the markdown plugin (highlight-plugin.ts) is handed once Prism is loaded. */
export const prismHighlighter: CodeHighlighter = {
  knows: (language) => grammars.has(language.toLowerCase()),
  highlight: highlightCode,
};
