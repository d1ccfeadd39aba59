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

  it('shows the two commands and the cost figures before the first section', () => {
    const firstScreen = readme.slice(0, readme.indexOf('\n## '));
    for (const text of [
      'npm ci && npm start',
      'npm test',
      '$6.72 per million page loads',
      '$0.22 per',
      '$3.01 a month',
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
