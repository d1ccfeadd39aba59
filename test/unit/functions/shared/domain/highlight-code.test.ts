import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { highlightClasses } from '../../../../../functions/shared/domain/highlight-classes.js';
import {
  highlightCode,
  highlightedLanguages,
  prismClasses,
  prismHighlighter,
} from '../../../../../functions/shared/domain/highlight-code.js';
import { highlightBudget, highlightPlugin } from '../../../../../functions/shared/domain/highlight-plugin.js';

const md = new MarkdownIt().use(highlightPlugin);
/** Renders as the comment function does for a comment with a fence: with Prism's highlighter. */
const markdown = { render: (text: string) => md.render(text, { highlighter: prismHighlighter }) };
const highlightedBlocks = (html: string) => html.match(/<code class="language-\w+"><span/g)?.length ?? 0;

describe('highlightCode', () => {
  it('highlights a registered language, by any of its names and in any case', () => {
    const typescript = '<span class="token builtin">number</span>';

    expect(highlightCode('let a: number', 'ts')).toContain(typescript);
    expect(highlightCode('let a: number', 'TypeScript')).toContain(typescript);
    expect(highlightCode('let a: number', 'js')).not.toContain(typescript);
  });

  it('returns undefined for a language not registered, or a name Prism.languages holds for something else', () => {
    for (const language of [
      'cobol',
      'markdown',
      'extend',
      'insertBefore',
      'DFS',
      'constructor',
      '__proto__',
    ]) {
      expect(highlightCode('x', language), language).toBeUndefined();
    }
  });

  it('registers the common languages under their usual fence names', () => {
    expect(highlightedLanguages).toEqual(
      expect.arrayContaining(['js', 'ts', 'tsx', 'html', 'css', 'json', 'sh', 'py', 'java', 'c', 'cpp']),
    );
    expect(highlightedLanguages).toEqual(
      expect.arrayContaining(['cs', 'go', 'rust', 'php', 'rb', 'sql', 'yml']),
    );
  });

  it('lists each class Prism writes, and nothing that is not a token class', () => {
    const html =
      highlightCode('<a href="x" onclick="f(1)">t</a><style>p{}</style><?php echo 1; ?>', 'php') ?? '';
    const written = new Set(
      [...html.matchAll(/class="([^"]*)"/g)].flatMap(([, classes]) => (classes ?? '').split(' ')),
    );

    expect(written.size).toBeGreaterThan(5);
    expect(highlightClasses).toEqual(expect.arrayContaining([...written]));
    for (const name of highlightClasses) expect(name).toMatch(/^[a-z][a-z\d-]*$/);
  });

  it('writes out for the sanitiser exactly the classes the registered grammars can write', () => {
    expect(highlightClasses).toEqual(prismClasses);
  });
});

describe('highlightPlugin', () => {
  it('shows every fence as plain code when the render was handed no highlighter (Prism not loaded)', () => {
    expect(md.render('```js\nlet a;\n```')).toBe('<pre><code class="language-js">let a;\n</code></pre>\n');
  });

  it('highlights a fenced block of a registered language and escapes the others', () => {
    expect(markdown.render('```js\nlet a;\n```\n\n```cobol\n<b>\n```')).toBe(
      '<pre><code class="language-js"><span class="token keyword">let</span> a' +
        '<span class="token punctuation">;</span>\n</code></pre>\n' +
        '<pre><code class="language-cobol">&lt;b&gt;\n</code></pre>\n',
    );
  });

  it('highlights blocks until the comment’s budget is spent, then shows the rest as plain code', () => {
    const block = `\`\`\`js\n${'let a;\n'.repeat(highlightBudget.commentChars / 7 / 2)}\`\`\`\n\n`;

    expect(highlightedBlocks(markdown.render(block.repeat(3)))).toBe(2);
  });

  it('shows a block with a long run of non-blank characters as plain code', () => {
    const run = 'x'.repeat(highlightBudget.runChars + 1);

    expect(highlightedBlocks(markdown.render(`\`\`\`js\nlet ${run} = 1\n\`\`\``))).toBe(0);
    expect(highlightedBlocks(markdown.render(`\`\`\`js\nlet ${run.slice(1)} = 1\n\`\`\``))).toBe(1);
  });

  it('renders a comment of hostile code in well under a second', () => {
    const hostile = [
      `\`\`\`ts\n${'x'.repeat(60_000)}\n\`\`\``,
      `\`\`\`yaml\n${'- '.repeat(2000)}\n\`\`\``,
      `\`\`\`html\n${'<a '.repeat(1300)}\n\`\`\``,
      ...Array.from({ length: 50 }, () => `\`\`\`css\n${'| '.repeat(1000)}\n\`\`\``),
    ].join('\n\n');

    const started = performance.now();
    markdown.render(hostile);

    expect(performance.now() - started).toBeLessThan(1000);
  });
});
