/**
 * Holds `npm run coverage` to its thresholds: over functions/, at least 95 % of lines and 85 % of
 * branches, and no file under 80 % of lines. Reads the summary vitest's v8 coverage wrote.
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { runCli } from './run-cli.js';

interface Totals {
  readonly total: number;
  readonly covered: number;
  readonly pct: number;
}
type Summary = Record<string, { readonly lines: Totals; readonly branches: Totals }>;

const thresholds = { lines: 95, branches: 85, fileLines: 80 } as const;

await runCli(async () => {
  const summary = JSON.parse(await readFile('coverage/coverage-summary.json', 'utf8')) as Summary;
  const { total, ...files } = summary;
  if (!total)
    throw new Error('coverage/coverage-summary.json has no total: run vitest with --coverage first');
  const problems: string[] = [];
  if (total.lines.pct < thresholds.lines) problems.push(`lines ${total.lines.pct} % < ${thresholds.lines} %`);
  if (total.branches.pct < thresholds.branches) {
    problems.push(`branches ${total.branches.pct} % < ${thresholds.branches} %`);
  }
  for (const [file, { lines }] of Object.entries(files)) {
    // A file of types only has no lines to cover.
    if (lines.total > 0 && lines.pct < thresholds.fileLines) {
      problems.push(`${relative(process.cwd(), file)}: lines ${lines.pct} % < ${thresholds.fileLines} %`);
    }
  }
  console.log(
    `functions/: lines ${total.lines.pct} % (${total.lines.covered}/${total.lines.total}), ` +
      `branches ${total.branches.pct} % (${total.branches.covered}/${total.branches.total})`,
  );
  if (problems.length > 0) throw new Error(`Coverage under its thresholds:\n  ${problems.join('\n  ')}`);
  console.log(
    `Thresholds met: lines >= ${thresholds.lines} %, branches >= ${thresholds.branches} %, every file >= ${thresholds.fileLines} % of lines.`,
  );
});
