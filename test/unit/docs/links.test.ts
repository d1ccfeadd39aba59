import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const documents = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks: what they hold is neither a heading nor a link. */
const withoutFences = (markdown: string): string =>
  markdown.replace(/^ {0,3}(`{3,}|~{3,})[^]*?^ {0,3}\1.*$/gm, '');

/** Markdown without code at all: inline code spans go too (within a paragraph, so never across a blank line). */
const withoutCode = (markdown: string): string =>
  withoutFences(markdown).replace(/(`+)(?:[^\n]|\n(?!\n))*?\1/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped except `-` and `_`, each space a `-`. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a document's headings; a repeated heading gets `-1`, `-2`... as on GitHub. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const times = new Map<string, number>();
  for (const [, text = ''] of withoutFences(markdown).matchAll(
    /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm,
  )) {
    const base = slug(text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')); // a link in a heading counts by its text
    const before = times.get(base) ?? 0;
    times.set(base, before + 1);
    found.add(before === 0 ? base : `${base}-${before}`);
  }
  return found;
}

/** What is wrong with each relative link of `file` (a path from the repository root), one line each. */
function brokenLinks(file: string, markdown: string): string[] {
  const problems: string[] = [];
  for (const [, target = ''] of withoutCode(markdown).matchAll(/\]\(<?([^\s)>]*)/g)) {
    if (/^(https?|mailto):/i.test(target)) continue; // external: not fetched, the tests use no network
    const [path = '', anchor] = target.split('#');
    const inRepository = relative(root, resolve(root, dirname(file), decodeURI(path)));
    if (inRepository.split(sep)[0] === '..' || isAbsolute(inRepository)) {
      problems.push(`${target}: outside the repository`);
    } else if (path !== '' && !existsSync(join(root, inRepository))) {
      problems.push(`${target}: no such file`);
    } else if (anchor !== undefined && path !== '' && !path.endsWith('.md')) {
      problems.push(`${target}: an anchor into a file that has no headings`);
    } else if (anchor !== undefined) {
      const headings = anchors(path === '' ? markdown : readFileSync(join(root, inRepository), 'utf8'));
      if (!headings.has(anchor)) problems.push(`${target}: no heading with this anchor`);
    }
  }
  return problems;
}

describe('slug', () => {
  it('makes the anchors GitHub makes from headings', () => {
    expect(slug('Data model and access patterns')).toBe('data-model-and-access-patterns');
    expect(slug('[0.1.0] - 2026-11-22')).toBe('010---2026-11-22');
    expect(slug('`IPQPS`, the rate & its_limit')).toBe('ipqps-the-rate--its_limit');
  });
});

describe('brokenLinks', () => {
  it('reports missing files, missing anchors and paths outside the repository, and nothing else', () => {
    const markdown = [
      '# Title',
      '## A heading',
      '## A heading',
      '[in page](#a-heading) [repeated](#a-heading-1) [cross page](../README.md#tests) [file](../package.json)',
      '[web](https://example.com/nowhere.md) [mail](mailto:a@example.com) `[code](nowhere.md)`',
      '```md',
      '[fenced](nowhere.md)',
      '```',
      '[a](#missing) [b](nowhere.md) [c](../../shared/STYLE.md) [d](../README.md#nowhere) [e](../package.json#L1)',
    ].join('\n');

    expect(brokenLinks('docs/example.md', markdown)).toEqual([
      '#missing: no heading with this anchor',
      'nowhere.md: no such file',
      '../../shared/STYLE.md: outside the repository',
      '../README.md#nowhere: no heading with this anchor',
      '../package.json#L1: an anchor into a file that has no headings',
    ]);
  });
});

describe('the documentation', () => {
  it.each(documents)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file, readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });
});
