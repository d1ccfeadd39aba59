import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
const lines = readme.replace(/\n$/, '').split('\n');

/** The README's lines outside fenced code blocks, with their line numbers. */
function proseLines(): { number: number; text: string }[] {
  const prose: { number: number; text: string }[] = [];
  let fenced = false;
  lines.forEach((text, index) => {
    if (/^ {0,3}(`{3,}|~{3,})/.test(text)) fenced = !fenced;
    else if (!fenced) prose.push({ number: index + 1, text });
  });
  return prose;
}

describe('README.md (issue 25: a first page, the detail in docs/)', () => {
  it('has at most 300 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  it('keeps its sections in order: use, deploy, API, notifications, tests, layout', () => {
    const headings = proseLines()
      .filter(({ text }) => text.startsWith('## '))
      .map(({ text }) => text.slice(3));
    expect(headings).toEqual([
      'Use it on your site',
      'Deploy to AWS',
      'API',
      'Notifications',
      'Tests',
      'Layout',
    ]);
  });

  it('shows the two commands and the cost figures of the last run before the first section', () => {
    const firstScreen = readme.slice(0, readme.indexOf('\n## '));
    const benchmarks = readFileSync(
      fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url)),
      'utf8',
    );
    /** The bold figure of a row of docs/benchmarks.md's cost table. */
    const costOf = (row: string) =>
      new RegExp(`\\| ${row} +\\| \\*\\*(\\$[0-9.]+)\\*\\* \\|`).exec(benchmarks)?.[1];
    const [pageLoads, replies, month] = [
      costOf('A million widget page loads \\(comments and a pageview counter\\)'),
      costOf('A thousand new replies, each mailing the owner and the parent author'),
      costOf('The stack by the month, with no traffic'),
    ];

    expect([pageLoads, replies, month]).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    for (const text of [
      'npm ci && npm start',
      'npm test',
      `${pageLoads} per million page loads`,
      `${replies} per`,
      `${month} a month`,
    ])
      expect(firstScreen).toContain(text);
  });

  it('has no prose line over 120 characters outside tables and code blocks', () => {
    const long = proseLines()
      .filter(({ text }) => !text.startsWith('|') && !text.startsWith('![') && text.length > 120)
      .map(({ number, text }) => `${number}: ${text.length} characters`);
    expect(long).toEqual([]);
  });
});
